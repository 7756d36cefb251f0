// `dpq admin grant BUYER ID EPS`: adds EPS to BUYER's budget on dataset ID
// (GrantBudget).
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_GRANT_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_GRANT_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/ledger.pb.h"

namespace dpq::client {

class AdminGrantCommand final : public Command {
 public:
  AdminGrantCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::GrantBudgetRequest& request() const { return request_; }

 private:
  dpq::v1::GrantBudgetRequest request_;
  std::string epsilon_;
};

// "Budget of BUYER on ID: granted G, spent S, reserved R, remaining L.":
// the budget after a grant or set-budget.
std::string BudgetChangeText(const dpq::v1::Budget& budget);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_GRANT_H_
