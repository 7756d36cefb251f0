#include "client/commands/admin_set_cap.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/json_writer.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminSetCapCommand::AdminSetCapCommand()
    : Command({.name = "admin set-cap",
               .synopsis = "admin set-cap ID EPS",
               .summary = "Caps the epsilon of all buyers together on ID (0: "
                          "no cap).",
               .service = Service::kAdmin}) {}

void AdminSetCapCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Argument("EPS", &cap_);
}

absl::Status AdminSetCapCommand::Validate(const CommandFlags& /*flags*/) {
  ASSIGN_OR_RETURN(const double cap, ParseNumber("EPS", cap_));
  request_.set_cap(cap);
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> AdminSetCapCommand::Run(
    const RunContext& context) {
  v1::SetDatasetCapResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::SetDatasetCap,
                            request_, &response));
  if (context.json) {
    return CommandOutput{JsonLine(core::util::JsonObjectWriter()
                                      .Add("dataset", request_.dataset_id())
                                      .Add("cap", request_.cap()))};
  }
  return CommandOutput{SetCapText(request_.dataset_id(), request_.cap())};
}

std::string SetCapText(absl::string_view dataset_id, double cap) {
  if (cap == 0) {
    return absl::StrCat("Removed the cap on ", TerminalSafe(dataset_id), ".\n");
  }
  return absl::StrCat("Capped the epsilon of all buyers together on ",
                      TerminalSafe(dataset_id), " at ", FormatReal(cap), ".\n");
}

}  // namespace dpq::client
