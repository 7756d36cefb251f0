// The parts of a gRPC call a release honours: its deadline and
// cancellation.
#ifndef DPQ_SERVER_BUYER_CALL_CONTEXT_H_
#define DPQ_SERVER_BUYER_CALL_CONTEXT_H_

#include <functional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "grpcpp/server_context.h"

namespace dpq::server::buyer {

// Default: no deadline, never cancelled.
struct CallContext {
  // The client's deadline: a release still running when it passes is
  // abandoned before its charge is committed (DEADLINE_EXCEEDED, refunded).
  absl::Time deadline = absl::InfiniteFuture();
  // Returns true once the client has cancelled (CANCELLED, refunded).
  std::function<bool()> cancelled;

  // From a server context (its deadline and IsCancelled).
  static CallContext FromServerContext(const grpc::ServerContext& context);
};

// kDeadlineExceeded / kCancelled once the call is over: nothing computed
// after that may be released.
absl::Status CheckCall(const CallContext& call);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_CALL_CONTEXT_H_
