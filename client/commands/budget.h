// `dpq budget [ID] [--history] [--limit N]`: the caller's budgets (and,
// with --history, the caller's ledger entries).
#ifndef DPQ_CLIENT_COMMANDS_BUDGET_H_
#define DPQ_CLIENT_COMMANDS_BUDGET_H_

#include <string>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class BudgetCommand final : public Command {
 public:
  BudgetCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::GetBudgetRequest& request() const { return request_; }

 private:
  dpq::v1::GetBudgetRequest request_;
  bool history_ = false;
  std::string limit_;
};

// The budget table (or "No budget granted on ..."), then with
// `include_history` the ledger entries. `dataset_id`: the filter asked for
// ("" = all).
std::string BudgetText(const dpq::v1::GetBudgetResponse& response,
                       absl::string_view dataset_id, bool include_history);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_BUDGET_H_
