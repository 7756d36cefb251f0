#include "client/commands/admin_ledger.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/tables.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminLedgerCommand::AdminLedgerCommand()
    : Command({.name = "admin ledger",
               .synopsis = "admin ledger [--buyer B] [--dataset ID] "
                           "[--limit N] [--page-token T]",
               .summary = "Shows ledger entries (newest first) and budgets.",
               .service = Service::kAdmin}) {}

void AdminLedgerCommand::DefineFlags(CommandFlags& flags) {
  flags.Value("--buyer", request_.mutable_buyer_id(), FlagText::kSent);
  flags.Value("--dataset", request_.mutable_dataset_id(), FlagText::kSent);
  flags.Value("--limit", &limit_, FlagText::kLocal);
  flags.Value("--page-token", request_.mutable_page_token(), FlagText::kLocal);
}

absl::Status AdminLedgerCommand::Validate(const CommandFlags& flags) {
  if (!flags.Given("--limit")) return absl::OkStatus();
  ASSIGN_OR_RETURN(const uint32_t limit, ParseUint32("--limit", limit_));
  request_.set_limit(limit);
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> AdminLedgerCommand::Run(
    const RunContext& context) {
  v1::ListLedgerResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::ListLedger,
                            request_, &response));
  return ResponseOutput(response, context.json,
                        [&response] { return LedgerText(response); });
}

std::string LedgerText(const v1::ListLedgerResponse& response) {
  return absl::StrCat("Budgets:\n",
                      BudgetTable(response.budgets(), /*with_buyer=*/true),
                      "\nEntries (newest first):\n",
                      LedgerTable(response.entries(), /*with_buyer=*/true),
                      OlderPageHint(response.next_page_token()));
}

}  // namespace dpq::client
