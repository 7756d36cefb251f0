#include "client/commands/admin_set_budget.h"

#include "client/command_flags.h"
#include "client/commands/admin_grant.h"
#include "client/flag_values.h"
#include "client/json_output.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminSetBudgetCommand::AdminSetBudgetCommand()
    : Command({.name = "admin set-budget",
               .synopsis = "admin set-budget BUYER ID EPS",
               .summary = "Sets BUYER's granted total on dataset ID to EPS.",
               .service = Service::kAdmin}) {}

void AdminSetBudgetCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("BUYER", request_.mutable_buyer_id());
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Argument("EPS", &epsilon_);
}

absl::Status AdminSetBudgetCommand::Validate(const CommandFlags& /*flags*/) {
  ASSIGN_OR_RETURN(const double granted, ParseNumber("EPS", epsilon_));
  request_.set_granted(granted);
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> AdminSetBudgetCommand::Run(
    const RunContext& context) {
  v1::SetBudgetResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::SetBudget,
                            request_, &response));
  return ResponseOutput(response, context.json, [&response] {
    return BudgetChangeText(response.budget());
  });
}

}  // namespace dpq::client
