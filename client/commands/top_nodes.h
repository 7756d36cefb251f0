// `dpq top-nodes ID --k K --epsilon E [--objectives degree,...]
// [--approach ...] [--weights ...] [--sensitivity ...] [--request-id R]`:
// the K most influential nodes of a graph dataset (SelectInfluentialNodes,
// DP-MOTkIN, edge-DP; docs/selection.md).
#ifndef DPQ_CLIENT_COMMANDS_TOP_NODES_H_
#define DPQ_CLIENT_COMMANDS_TOP_NODES_H_

#include <string>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "client/commands/release.h"
#include "client/commands/selection_flags.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class TopNodesCommand final : public Command {
 public:
  TopNodesCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  std::string GivenRequestId() const override { return request_id_.value(); }
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The request from the command line (Run sends it with the request id
  // RunCli settles: --request-id, else a generated one).
  const dpq::v1::SelectInfluentialNodesRequest& request() const {
    return request_;
  }

 private:
  dpq::v1::SelectInfluentialNodesRequest request_;
  std::string k_;
  std::string objectives_;
  std::string epsilon_;
  SelectionFlags selection_;
  RequestIdFlag request_id_;
};

// "Influential nodes of ID (in selection order):", RANK NODE, the charge
// and the request id.
std::string TopNodesText(
    absl::string_view dataset_id,
    const dpq::v1::SelectInfluentialNodesResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_TOP_NODES_H_
