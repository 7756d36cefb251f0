#include "client/commands/admin_create_buyer.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminCreateBuyerCommand::AdminCreateBuyerCommand()
    : Command({.name = "admin create-buyer",
               .synopsis = "admin create-buyer NAME",
               .summary = "Creates a buyer and prints its token (shown only "
                          "once).",
               .service = Service::kAdmin}) {}

void AdminCreateBuyerCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("NAME", request_.mutable_name());
}

absl::StatusOr<CommandOutput> AdminCreateBuyerCommand::Run(
    const RunContext& context) {
  v1::CreateBuyerResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::CreateBuyer,
                            request_, &response));
  return ResponseOutput(response, context.json,
                        [&response] { return CreateBuyerText(response); });
}

std::string CreateBuyerText(const v1::CreateBuyerResponse& response) {
  return absl::StrCat("Created buyer ",
                      TerminalSafe(response.buyer().buyer_id()),
                      ". Its token (shown only once; store it safely):\n",
                      TerminalSafe(response.token()), "\n");
}

}  // namespace dpq::client
