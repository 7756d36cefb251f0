#include "client/commands/admin_replace.h"

#include "client/json_output.h"
#include "client/upload_stream.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminReplaceCommand::AdminReplaceCommand()
    : Command({.name = "admin replace",
               .synopsis = "admin replace ID --data F.csv --constraints F.dc "
                           "--public-max-rows N [same flags as register]",
               .summary = "Replaces a dataset's rows and manifest; its ledger "
                          "is kept.",
               .service = Service::kAdmin,
               .default_timeout_seconds = kDefaultUploadTimeoutSeconds}) {}

void AdminReplaceCommand::DefineFlags(CommandFlags& flags) {
  upload_.Define(flags);
}

absl::Status AdminReplaceCommand::Validate(const CommandFlags& flags) {
  return upload_.Validate(flags, info().name);
}

absl::Status AdminReplaceCommand::ReadFiles(size_t upload_chunk_bytes) {
  return upload_.ReadFiles(upload_chunk_bytes);
}

absl::StatusOr<CommandOutput> AdminReplaceCommand::Run(
    const RunContext& context) {
  v1::ReplaceDatasetResponse response;
  v1::AdminService::StubInterface& admin = *context.connection.admin;
  RETURN_IF_ERROR((Upload<v1::ReplaceDatasetRequest>(
      [&admin](grpc::ClientContext* call_context,
               v1::ReplaceDatasetResponse* answer, grpc::CompletionQueue* cq) {
        return admin.PrepareAsyncReplaceDataset(call_context, answer, cq);
      },
      "ReplaceDataset", context.call, upload_.header(), upload_.csv(),
      &response)));
  return ResponseOutput(response, context.json, [&response] {
    return UploadText(response.dataset(), response.stats(), response.notes(),
                      /*replaced=*/true);
  });
}

}  // namespace dpq::client
