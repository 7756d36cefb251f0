// `dpq cuboids ID --dims A,B [--dims C]... --epsilon E [--integral]
// [--request-id R]`: DP count marginals (ReleaseCuboids), consistent with
// the dataset's public exact cuboids.
#ifndef DPQ_CLIENT_COMMANDS_CUBOIDS_H_
#define DPQ_CLIENT_COMMANDS_CUBOIDS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "client/commands/release.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class CuboidsCommand final : public Command {
 public:
  CuboidsCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  std::string GivenRequestId() const override { return request_id_.value(); }
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The request from the command line (Run sends it with the request id
  // RunCli settles: --request-id, else a generated one): one
  // cuboid per --dims (`--dims ""` is the apex cuboid).
  const dpq::v1::ReleaseCuboidsRequest& request() const { return request_; }

 private:
  dpq::v1::ReleaseCuboidsRequest request_;
  std::vector<std::string> dims_;
  std::string epsilon_;
  bool integral_ = false;
  RequestIdFlag request_id_;
};

// Per cuboid a header with its noise stddev and a table of its cells; then
// the strategy, the sensitivity, the charge and the request id.
std::string CuboidsText(absl::string_view dataset_id,
                        const dpq::v1::ReleaseCuboidsResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_CUBOIDS_H_
