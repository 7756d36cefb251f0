// The multi-objective selection flags `dpq tree` and `dpq top-nodes` share:
// --approach pareto|aggregation, --weights W1,W2,... and
// --sensitivity global|local (docs/selection.md). Unset: the server's
// defaults; the server checks their meaning (e.g. the number of weights).
#ifndef DPQ_CLIENT_COMMANDS_SELECTION_FLAGS_H_
#define DPQ_CLIENT_COMMANDS_SELECTION_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/command_flags.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class SelectionFlags {
 public:
  void Define(CommandFlags& flags);
  // Parses the names and numbers given (usage errors otherwise).
  absl::Status Validate(const CommandFlags& flags);

  // Sets approach, weights and sensitivity of a TrainDecisionTreeRequest or
  // a SelectInfluentialNodesRequest.
  template <typename Request>
  void FillRequest(Request* request) const {
    request->set_approach(approach_);
    for (double w : weights_) request->add_weights(w);
    request->set_sensitivity(sensitivity_);
  }

 private:
  std::string approach_text_;
  std::string weights_text_;
  std::string sensitivity_text_;
  dpq::v1::SelectionApproach approach_ =
      dpq::v1::SELECTION_APPROACH_UNSPECIFIED;
  std::vector<double> weights_;
  dpq::v1::SensitivityMode sensitivity_ = dpq::v1::SENSITIVITY_MODE_UNSPECIFIED;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_SELECTION_FLAGS_H_
