// `dpq health`: the server's gRPC health (grpc.health.v1), with no token;
// exit 0 iff SERVING. The container HEALTHCHECK.
#ifndef DPQ_CLIENT_COMMANDS_HEALTH_H_
#define DPQ_CLIENT_COMMANDS_HEALTH_H_

#include "client/command.h"

namespace dpq::client {

class HealthCommand final : public Command {
 public:
  HealthCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_HEALTH_H_
