// `dpq tree ID --label COL --positive VALUE --epsilon E [--features A,B]
// [--approach ...] [--weights ...] [--sensitivity ...] [--generations G]
// [--population P] [--accuracy-epsilon E2] [--request-id R]`: a DP
// decision tree (TrainDecisionTree, DP-MOET; docs/selection.md).
#ifndef DPQ_CLIENT_COMMANDS_TREE_H_
#define DPQ_CLIENT_COMMANDS_TREE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "client/commands/release.h"
#include "client/commands/selection_flags.h"
#include "dpq/v1/buyer_service.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace dpq::client {

class TreeCommand final : public Command {
 public:
  TreeCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  std::string GivenRequestId() const override { return request_id_.value(); }
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The request from the command line (Run sends it with the request id
  // RunCli settles: --request-id, else a generated one).
  const dpq::v1::TrainDecisionTreeRequest& request() const { return request_; }

 private:
  dpq::v1::TrainDecisionTreeRequest request_;
  std::string features_;
  std::string generations_;
  std::string population_;
  std::string accuracy_epsilon_;
  std::string epsilon_;
  SelectionFlags selection_;
  RequestIdFlag request_id_;
};

// The tree as indented if/else lines ("if age <= 37.5:", "  +", "else:"),
// from nodes[0]; an index out of range or a node reached twice prints as
// "<invalid node i>" instead of looping, and levels below 64 are cut.
std::string TreeRules(
    const google::protobuf::RepeatedPtrField<dpq::v1::DecisionTreeNode>& nodes);

// The compact form, the rules, TPR/TNR (or that they were not bought), the
// charge and the request id. `label`/`positive`: what the tree predicts
// (from the request).
std::string TreeText(absl::string_view dataset_id, absl::string_view label,
                     absl::string_view positive,
                     const dpq::v1::TrainDecisionTreeResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_TREE_H_
