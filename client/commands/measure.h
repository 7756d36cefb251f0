// `dpq measure ID --measure mi|p|r --epsilon E [--method M]
// [--request-id R]`: one DP inconsistency measure (MeasureInconsistency).
#ifndef DPQ_CLIENT_COMMANDS_MEASURE_H_
#define DPQ_CLIENT_COMMANDS_MEASURE_H_

#include <string>

#include "client/command.h"
#include "client/commands/release.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class MeasureCommand final : public Command {
 public:
  MeasureCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  std::string GivenRequestId() const override { return request_id_.value(); }
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The request from the command line (Run sends it with the request id
  // RunCli settles: --request-id, else a generated one).
  const dpq::v1::MeasureInconsistencyRequest& request() const {
    return request_;
  }

 private:
  dpq::v1::MeasureInconsistencyRequest request_;
  std::string measure_;
  std::string epsilon_;
  std::string method_;
  RequestIdFlag request_id_;
  bool preview_ = false;  // --preview: PreviewCost instead of the release
};

// "I_MI (conflicting pairs) ~ V (95% interval: L to U; what it covers;
// noise alone ±B), theta T (rows have at most D conflicts), method M;
// charged epsilon E, remaining R" and "request id: ID".
std::string MeasureText(const dpq::v1::MeasureInconsistencyResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_MEASURE_H_
