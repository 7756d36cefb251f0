#include "server/reflection/reflection_v1_service.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "server/reflection/reflection_responder.h"

namespace dpq::server::reflection {

namespace v1 = ::grpc::reflection::v1;

void ReflectionV1Service::SetServiceList(std::vector<std::string> services) {
  absl::MutexLock lock(&mu_);
  services_ = std::move(services);
}

grpc::Status ReflectionV1Service::ServerReflectionInfo(
    grpc::ServerContext* /*context*/,
    grpc::ServerReaderWriter<v1::ServerReflectionResponse,
                             v1::ServerReflectionRequest>* stream) {
  std::vector<std::string> services;
  {
    absl::MutexLock lock(&mu_);
    services = services_;
  }
  ReflectionResponder responder(
      google::protobuf::DescriptorPool::generated_pool(), &services);
  v1::ServerReflectionRequest request;
  int requests = 0;
  while (stream->Read(&request)) {
    if (++requests > kMaxRequestsPerStream) {
      return grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          absl::StrCat("At most ", kMaxRequestsPerStream,
                       " reflection requests per stream; open a new one."));
    }
    // A failed write means the call is gone (cancelled or the peer left).
    if (!stream->Write(responder.Answer(request))) break;
  }
  return grpc::Status::OK;
}

}  // namespace dpq::server::reflection
