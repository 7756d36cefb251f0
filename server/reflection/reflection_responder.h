// The answers of one grpc.reflection.v1 stream (docs/reflection.md): looks
// names up in a DescriptorPool (the server's compiled-in .proto files) and
// remembers which files the stream has already received, so each
// dependency is sent once per stream.
#ifndef DPQ_SERVER_REFLECTION_REFLECTION_RESPONDER_H_
#define DPQ_SERVER_REFLECTION_REFLECTION_RESPONDER_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "google/protobuf/descriptor.h"
#include "grpc_reflection/v1/reflection.pb.h"

namespace dpq::server::reflection {

// Longest name (file, symbol or type) a request may carry, in bytes; longer
// ones get an INVALID_ARGUMENT error_response without a lookup. The longest
// name in dpq's protos is under 100 bytes.
inline constexpr size_t kMaxNameBytes = 1024;

class ReflectionResponder {
 public:
  // `pool` (usually DescriptorPool::generated_pool()) and `services` (the
  // full names of the services the server registered) must outlive this.
  ReflectionResponder(const google::protobuf::DescriptorPool* pool,
                      const std::vector<std::string>* services);

  // The answer to one request: file_descriptor_response (the file asked
  // for, then its transitive dependencies not yet sent on this stream),
  // all_extension_numbers_response, list_services_response, or an
  // error_response: NOT_FOUND naming the unknown file, symbol, type or
  // extension; INVALID_ARGUMENT for an empty request or an over-long name.
  // original_request is always the request.
  grpc::reflection::v1::ServerReflectionResponse Answer(
      const grpc::reflection::v1::ServerReflectionRequest& request);

 private:
  // Fills `response` with `file` (always) and its dependencies not in
  // sent_files_ (depth first), adding each to sent_files_.
  void AddFileAndDependencies(
      const google::protobuf::FileDescriptor* file,
      grpc::reflection::v1::FileDescriptorResponse* response);
  void AddFileOnce(const google::protobuf::FileDescriptor* file,
                   grpc::reflection::v1::FileDescriptorResponse* response);

  // The answers of each kind; an error status becomes an error_response.
  absl::Status FileByFilename(const std::string& name,
                              grpc::reflection::v1::ServerReflectionResponse*);
  absl::Status FileContainingSymbol(
      const std::string& symbol,
      grpc::reflection::v1::ServerReflectionResponse*);
  absl::Status FileContainingExtension(
      const grpc::reflection::v1::ExtensionRequest& request,
      grpc::reflection::v1::ServerReflectionResponse*);
  absl::Status AllExtensionNumbers(
      const std::string& type, grpc::reflection::v1::ServerReflectionResponse*);
  void ListServices(grpc::reflection::v1::ServerReflectionResponse*) const;

  const google::protobuf::DescriptorPool* pool_;
  const std::vector<std::string>* services_;
  // Names of the files sent on this stream so far.
  std::set<std::string> sent_files_;
};

}  // namespace dpq::server::reflection

#endif  // DPQ_SERVER_REFLECTION_REFLECTION_RESPONDER_H_
