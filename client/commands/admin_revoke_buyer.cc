#include "client/commands/admin_revoke_buyer.h"

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/json_writer.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminRevokeBuyerCommand::AdminRevokeBuyerCommand()
    : Command({.name = "admin revoke-buyer",
               .synopsis = "admin revoke-buyer NAME",
               .summary = "Revokes a buyer's token.",
               .service = Service::kAdmin}) {}

void AdminRevokeBuyerCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("NAME", request_.mutable_buyer_id());
}

absl::StatusOr<CommandOutput> AdminRevokeBuyerCommand::Run(
    const RunContext& context) {
  v1::RevokeBuyerResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::RevokeBuyer,
                            request_, &response));
  if (context.json) {
    return CommandOutput{JsonLine(core::util::JsonObjectWriter()
                                      .Add("buyer", request_.buyer_id())
                                      .Add("revoked", true))};
  }
  return CommandOutput{absl::StrCat("Revoked buyer ",
                                    TerminalSafe(request_.buyer_id()),
                                    " (its ledger entries are kept).\n")};
}

}  // namespace dpq::client
