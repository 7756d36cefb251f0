#include "client/commands/admin_delete.h"

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/json_writer.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminDeleteCommand::AdminDeleteCommand()
    : Command({.name = "admin delete",
               .synopsis = "admin delete ID",
               .summary = "Deletes a dataset; its ledger is kept.",
               .service = Service::kAdmin}) {}

void AdminDeleteCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
}

absl::StatusOr<CommandOutput> AdminDeleteCommand::Run(
    const RunContext& context) {
  v1::DeleteDatasetResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::DeleteDataset,
                            request_, &response));
  if (context.json) {
    return CommandOutput{JsonLine(core::util::JsonObjectWriter()
                                      .Add("dataset", request_.dataset_id())
                                      .Add("deleted", true))};
  }
  return CommandOutput{absl::StrCat("Deleted ",
                                    TerminalSafe(request_.dataset_id()),
                                    " (its ledger entries are kept).\n")};
}

}  // namespace dpq::client
