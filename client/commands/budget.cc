#include "client/commands/budget.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/json_output.h"
#include "client/tables.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

BudgetCommand::BudgetCommand()
    : Command({.name = "budget",
               .synopsis = "budget [ID] [--history] [--limit N]",
               .summary = "Shows your budgets (and, with --history, your "
                          "ledger)."}) {}

void BudgetCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id(), /*optional=*/true);
  flags.Switch("--history", &history_);
  flags.Value("--limit", &limit_, FlagText::kLocal);
}

absl::Status BudgetCommand::Validate(const CommandFlags& flags) {
  request_.set_include_history(history_);
  if (flags.Given("--limit")) {
    ASSIGN_OR_RETURN(const uint32_t limit, ParseUint32("--limit", limit_));
    request_.set_history_limit(limit);
  }
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> BudgetCommand::Run(const RunContext& context) {
  v1::GetBudgetResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::GetBudget,
                            request_, &response));
  return ResponseOutput(response, context.json, [&] {
    return BudgetText(response, request_.dataset_id(),
                      request_.include_history());
  });
}

std::string BudgetText(const v1::GetBudgetResponse& response,
                       absl::string_view dataset_id, bool include_history) {
  std::string out;
  if (response.budgets().empty()) {
    out = dataset_id.empty()
              ? std::string("No budget granted on any dataset.\n")
              : absl::StrCat("No budget granted on ", TerminalSafe(dataset_id),
                             ".\n");
  } else {
    out = BudgetTable(response.budgets(), /*with_buyer=*/false);
  }
  if (include_history) {
    absl::StrAppend(&out, "\nHistory (newest first):\n",
                    LedgerTable(response.history(), /*with_buyer=*/false));
  }
  return out;
}

}  // namespace dpq::client
