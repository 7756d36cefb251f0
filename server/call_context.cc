#include "server/call_context.h"

#include <chrono>

#include "absl/time/clock.h"

namespace dpq::server {

CallContext CallContext::FromServerContext(const grpc::ServerContext& context) {
  CallContext call;
  const std::chrono::system_clock::time_point deadline = context.deadline();
  if (deadline != std::chrono::system_clock::time_point::max()) {
    call.deadline = absl::FromChrono(deadline);
  }
  const grpc::ServerContext* ctx = &context;
  call.cancelled = [ctx] { return ctx->IsCancelled(); };
  return call;
}

bool CallContext::Over() const {
  return (cancelled && cancelled()) || absl::Now() >= deadline;
}

absl::Status CheckCall(const CallContext& call) {
  if (call.cancelled && call.cancelled()) {
    return absl::CancelledError("The client cancelled the call.");
  }
  if (absl::Now() >= call.deadline) {
    return absl::DeadlineExceededError("The call's deadline passed.");
  }
  return absl::OkStatus();
}

}  // namespace dpq::server
