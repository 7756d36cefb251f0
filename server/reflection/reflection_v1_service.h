// grpc.reflection.v1.ServerReflection (proto/grpc_reflection/v1/
// reflection.proto) over the server's compiled-in .proto files. Debian's
// gRPC 1.51 serves only v1alpha (libgrpc++_reflection); current grpcurl,
// grpc_cli and Postman ask for v1 first. No token is needed, as for
// v1alpha: the answers describe the API, never data (docs/reflection.md).
#ifndef DPQ_SERVER_REFLECTION_REFLECTION_V1_SERVICE_H_
#define DPQ_SERVER_REFLECTION_REFLECTION_V1_SERVICE_H_

#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "grpc_reflection/v1/reflection.grpc.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/sync_stream.h"

namespace dpq::server::reflection {

// Requests one stream may carry; the next one ends the stream with
// RESOURCE_EXHAUSTED (a client lists and describes a whole API in well
// under 100). Bounds the work one stream can ask for.
inline constexpr int kMaxRequestsPerStream = 1000;

class ReflectionV1Service final
    : public grpc::reflection::v1::ServerReflection::Service {
 public:
  ReflectionV1Service() = default;

  // The full names of the services list_services reports; set once the
  // server is built (ReflectionOption does it).
  void SetServiceList(std::vector<std::string> services)
      ABSL_LOCKS_EXCLUDED(mu_);

  // One answer per request, in order, until the client half-closes
  // (then OK), the call is cancelled, or kMaxRequestsPerStream is passed.
  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<grpc::reflection::v1::ServerReflectionResponse,
                               grpc::reflection::v1::ServerReflectionRequest>*
          stream) override ABSL_LOCKS_EXCLUDED(mu_);

 private:
  absl::Mutex mu_;
  std::vector<std::string> services_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::reflection

#endif  // DPQ_SERVER_REFLECTION_REFLECTION_V1_SERVICE_H_
