#include "client/commands/admin_audit.h"

#include <string>

#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminAuditCommand::AdminAuditCommand()
    : Command({.name = "admin audit",
               .synopsis = "admin audit [--action RPC] [--limit N] "
                           "[--page-token T]",
               .summary = "Shows the audit log of admin actions (newest "
                          "first).",
               .service = Service::kAdmin}) {}

void AdminAuditCommand::DefineFlags(CommandFlags& flags) {
  flags.Value("--limit", &limit_, FlagText::kLocal);
  flags.Value("--action", request_.mutable_action(), FlagText::kSent);
  flags.Value("--page-token", request_.mutable_page_token(), FlagText::kLocal);
}

absl::Status AdminAuditCommand::Validate(const CommandFlags& flags) {
  if (!flags.Given("--limit")) return absl::OkStatus();
  ASSIGN_OR_RETURN(const uint32_t limit, ParseUint32("--limit", limit_));
  request_.set_limit(limit);
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> AdminAuditCommand::Run(
    const RunContext& context) {
  v1::ListAuditLogResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::ListAuditLog,
                            request_, &response));
  return ResponseOutput(response, context.json,
                        [&response] { return AuditText(response); });
}

std::string AuditText(const v1::ListAuditLogResponse& response) {
  TextTable table({"TIME", "ACTOR", "ACTION", "DETAILS"});
  for (const v1::AuditEntry& e : response.entries()) {
    table.AddRow({FormatTimestamp(e.time()), e.actor(), e.action(),
                  OrDash(e.details())});
  }
  return table.Render() + OlderPageHint(response.next_page_token());
}

}  // namespace dpq::client
