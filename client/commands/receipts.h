// `dpq receipts ID [--limit N] [--page-token T]`: the caller's own releases
// on dataset ID, newest first, each with its answer (ListReceipts).
#ifndef DPQ_CLIENT_COMMANDS_RECEIPTS_H_
#define DPQ_CLIENT_COMMANDS_RECEIPTS_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class ReceiptsCommand final : public Command {
 public:
  ReceiptsCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::ListReceiptsRequest& request() const { return request_; }

 private:
  dpq::v1::ListReceiptsRequest request_;
  std::string limit_;
};

// One receipt's answer in a few words: "MI 11715 (11442 to 100215)", "MI
// 11725, P 1073, R 390", "2 cuboids, 9 cells", "tree of depth 3", "5
// nodes: a, b, c, d, e"; "-" without an answer.
std::string ReceiptAnswerText(const dpq::v1::Receipt& receipt);

// ENTRY CREATED OPERATION EPSILON STATE REQUEST_ID ANSWER, then how to ask
// for the next page if there is one.
std::string ReceiptsText(const dpq::v1::ListReceiptsResponse& response,
                         const dpq::v1::ListReceiptsRequest& request);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_RECEIPTS_H_
