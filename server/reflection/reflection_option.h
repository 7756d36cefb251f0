// Turns server reflection on or off for one grpc::ServerBuilder: both
// grpc.reflection.v1 (ReflectionV1Service) and Debian's v1alpha
// (libgrpc++_reflection), so the two always agree (docs/reflection.md).
//
// libgrpc++_reflection registers its v1alpha plugin for every builder of
// the process when it is loaded; a ServerBuilderOption sees the builder's
// plugins before they run, so it can drop that one (off) or make sure it
// is there (on), per server rather than per process.
#ifndef DPQ_SERVER_REFLECTION_REFLECTION_OPTION_H_
#define DPQ_SERVER_REFLECTION_REFLECTION_OPTION_H_

#include <memory>

#include "grpcpp/impl/server_builder_option.h"

namespace dpq::server::reflection {

// For ServerBuilder::SetOption. enabled: the server serves
// grpc.reflection.v1.ServerReflection and
// grpc.reflection.v1alpha.ServerReflection, each listing every registered
// service (health and both reflection services included). Disabled:
// neither (calls to them get UNIMPLEMENTED).
std::unique_ptr<grpc::ServerBuilderOption> MakeReflectionOption(bool enabled);

}  // namespace dpq::server::reflection

#endif  // DPQ_SERVER_REFLECTION_REFLECTION_OPTION_H_
