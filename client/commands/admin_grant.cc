#include "client/commands/admin_grant.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminGrantCommand::AdminGrantCommand()
    : Command({.name = "admin grant",
               .synopsis = "admin grant BUYER ID EPS",
               .summary = "Adds EPS to BUYER's budget on dataset ID.",
               .service = Service::kAdmin}) {}

void AdminGrantCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("BUYER", request_.mutable_buyer_id());
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Argument("EPS", &epsilon_);
}

absl::Status AdminGrantCommand::Validate(const CommandFlags& /*flags*/) {
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("EPS", epsilon_));
  request_.set_epsilon(epsilon);
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> AdminGrantCommand::Run(
    const RunContext& context) {
  v1::GrantBudgetResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::GrantBudget,
                            request_, &response));
  return ResponseOutput(response, context.json, [&response] {
    return BudgetChangeText(response.budget());
  });
}

std::string BudgetChangeText(const v1::Budget& budget) {
  return absl::StrCat(
      "Budget of ", TerminalSafe(budget.buyer_id()), " on ",
      TerminalSafe(budget.dataset_id()), ": granted ",
      FormatEpsilon(budget.granted_units(), budget.granted()), ", spent ",
      FormatEpsilon(budget.spent_units(), budget.spent()), ", reserved ",
      FormatEpsilon(budget.reserved_units(), budget.reserved()), ", remaining ",
      FormatEpsilon(budget.remaining_units(), budget.remaining()), ".\n");
}

}  // namespace dpq::client
