#include "client/commands/admin_register.h"

#include "client/json_output.h"
#include "client/upload_stream.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminRegisterCommand::AdminRegisterCommand()
    : Command({.name = "admin register",
               .synopsis =
                   "admin register ID --data F.csv --constraints F.dc "
                   "--public-max-rows N [--description TEXT] "
                   "[--row-count-public] (--schema F | --infer-types) "
                   "[--null-value V]... [--server-path P] "
                   "[--cube-dimension SPEC]... [--public-cuboid A,B]... "
                   "[--exact-repair] "
                   "[--kind table|graph (--node-count N | --nodes F)]",
               .summary =
                   "Uploads a new dataset (or has the server read "
                   "--server-path).\n"
                   "      --server-path P: a file in the server's import "
                   "directory (dpq-server --import-dir DIR;\n"
                   "      off by default); P may be relative to it. Errors "
                   "then give the line and column only.\n"
                   "      Every column needs a type: --schema F (`name: "
                   "int64|double|string` lines), or --infer-types to infer\n"
                   "      the missing ones once, now (they are frozen and "
                   "public).\n"
                   "      --exact-repair: compute the exact minimum repair "
                   "now, so buyers get I_R itself, not a\n"
                   "      lower bound (fails if the solver cannot prove it).\n"
                   "      SPEC: COL=V1|V2|... (declared domain), "
                   "COL:E0,E1,...,Ek (numeric bins) or COL=* (domain taken\n"
                   "      from the data, which makes its values public).\n"
                   "      --kind graph: F.csv is an edge list "
                   "(source,target; undirected) over the declared nodes\n"
                   "      (--node-count N: 0..N-1, or --nodes F: one label "
                   "per line); no --constraints or --public-max-rows.",
               .service = Service::kAdmin,
               .default_timeout_seconds = kDefaultUploadTimeoutSeconds}) {}

void AdminRegisterCommand::DefineFlags(CommandFlags& flags) {
  upload_.Define(flags);
}

absl::Status AdminRegisterCommand::Validate(const CommandFlags& flags) {
  return upload_.Validate(flags, info().name);
}

absl::Status AdminRegisterCommand::ReadFiles(size_t upload_chunk_bytes) {
  return upload_.ReadFiles(upload_chunk_bytes);
}

absl::StatusOr<CommandOutput> AdminRegisterCommand::Run(
    const RunContext& context) {
  v1::RegisterDatasetResponse response;
  v1::AdminService::StubInterface& admin = *context.connection.admin;
  RETURN_IF_ERROR((Upload<v1::RegisterDatasetRequest>(
      [&admin](grpc::ClientContext* call_context,
               v1::RegisterDatasetResponse* answer, grpc::CompletionQueue* cq) {
        return admin.PrepareAsyncRegisterDataset(call_context, answer, cq);
      },
      "RegisterDataset", context.call, upload_.header(), upload_.csv(),
      &response)));
  return ResponseOutput(response, context.json, [&response] {
    return UploadText(response.dataset(), response.stats(), response.notes(),
                      /*replaced=*/false);
  });
}

}  // namespace dpq::client
