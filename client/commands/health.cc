#include "client/commands/health.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/json_output.h"
#include "core/util/status_macros.h"
#include "grpc_health/v1/health.grpc.pb.h"

namespace dpq::client {

using ::grpc::health::v1::Health;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;

HealthCommand::HealthCommand()
    : Command({.name = "health",
               .synopsis = "health",
               .summary = "Checks the server's gRPC health (exit 0 iff "
                          "SERVING; no token).",
               .service = Service::kHealth}) {}

void HealthCommand::DefineFlags(CommandFlags& /*flags*/) {}

absl::StatusOr<CommandOutput> HealthCommand::Run(const RunContext& context) {
  HealthCheckRequest request;
  request.set_service("");  // the server as a whole
  HealthCheckResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.health,
                            &Health::StubInterface::Check, request, &response));
  const std::string name =
      HealthCheckResponse::ServingStatus_Name(response.status());
  ASSIGN_OR_RETURN(
      CommandOutput output,
      ResponseOutput(response, context.json, [&name] { return name + "\n"; }));
  if (response.status() != HealthCheckResponse::SERVING) {
    output.failure = absl::UnavailableError(absl::StrCat(
        "The server answers but reports ", name, ", not SERVING."));
  }
  return output;
}

}  // namespace dpq::client
