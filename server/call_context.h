// The parts of a gRPC call that every handler honours: its deadline and
// cancellation (server/call_handler.h hands one to each RPC's XImpl).
#ifndef DPQ_SERVER_CALL_CONTEXT_H_
#define DPQ_SERVER_CALL_CONTEXT_H_

#include <functional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "grpcpp/server_context.h"

namespace dpq::server {

// Default: no deadline, never cancelled.
struct CallContext {
  // The client's deadline. A call already past it reserves nothing; a
  // release still computing when it passes stops early (its charge stands,
  // a retry with the same request_id gets the answer).
  absl::Time deadline = absl::InfiniteFuture();
  // Returns true once the client has cancelled (same rules).
  std::function<bool()> cancelled;

  // From a server context (its deadline and IsCancelled).
  static CallContext FromServerContext(const grpc::ServerContext& context);

  // True once the call is over (deadline passed or cancelled): what long
  // computations poll (core::util::StopFn).
  bool Over() const;
};

// kDeadlineExceeded / kCancelled once the call is over, else OK.
absl::Status CheckCall(const CallContext& call);

}  // namespace dpq::server

#endif  // DPQ_SERVER_CALL_CONTEXT_H_
