// The last line of the text contract (docs/security.md, "Text"): every
// dpq.v1 response is checked for invalid UTF-8 before it is serialised,
// and a bad string is repaired (U+FFFD) and logged instead of being sent.
// Registration refuses such text, so this only fires for datasets stored by
// an earlier server; without it one bad cube label made the client refuse
// every ListDatasets response, for every caller.
#ifndef DPQ_SERVER_TEXT_REPAIR_INTERCEPTOR_H_
#define DPQ_SERVER_TEXT_REPAIR_INTERCEPTOR_H_

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace dpq::server {

// Intercepts the methods of the dpq.v1 services (whose messages are all
// protobuf messages); the health and reflection services pass untouched.
class TextRepairInterceptorFactory
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;
};

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeTextRepairInterceptorFactory();

}  // namespace dpq::server

#endif  // DPQ_SERVER_TEXT_REPAIR_INTERCEPTOR_H_
