// `dpq admin set-budget BUYER ID EPS`: sets BUYER's granted total on
// dataset ID (SetBudget).
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_SET_BUDGET_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_SET_BUDGET_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

// Prints what `admin grant` prints (BudgetChangeText).
class AdminSetBudgetCommand final : public Command {
 public:
  AdminSetBudgetCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::SetBudgetRequest& request() const { return request_; }

 private:
  dpq::v1::SetBudgetRequest request_;
  std::string epsilon_;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_SET_BUDGET_H_
