// The one converter from absl::Status to grpc::Status (docs/architecture.md
// 2: one conversion at each edge).
#ifndef DPQ_SERVER_GRPC_STATUS_H_
#define DPQ_SERVER_GRPC_STATUS_H_

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace dpq::server {

// Same code, same message truncated to 1 KiB (so that a huge error, e.g.
// quoting a CSV line, never bloats the trailer).
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace dpq::server

#endif  // DPQ_SERVER_GRPC_STATUS_H_
