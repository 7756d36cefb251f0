#include "server/reflection/reflection_responder.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.pb.h"

namespace dpq::server::reflection {
namespace {

namespace v1 = ::grpc::reflection::v1;
using ::google::protobuf::Descriptor;
using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::FileDescriptor;

// Over-long names are refused before any lookup (see kMaxNameBytes).
absl::Status CheckName(const char* what, const std::string& name) {
  if (name.size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is ", name.size(), " bytes long; at most ",
                     kMaxNameBytes, " are accepted."));
  }
  return absl::OkStatus();
}

absl::Status NotFound(const char* what, const std::string& name) {
  return absl::NotFoundError(absl::StrCat(what, " '", name, "' not found."));
}

// A message type by name; a leading dot (".pkg.Type") is accepted too.
const Descriptor* FindMessage(const google::protobuf::DescriptorPool& pool,
                              const std::string& name) {
  if (!name.empty() && name[0] == '.') {
    return pool.FindMessageTypeByName(name.substr(1));
  }
  return pool.FindMessageTypeByName(name);
}

}  // namespace

ReflectionResponder::ReflectionResponder(
    const google::protobuf::DescriptorPool* pool,
    const std::vector<std::string>* services)
    : pool_(pool), services_(services) {}

v1::ServerReflectionResponse ReflectionResponder::Answer(
    const v1::ServerReflectionRequest& request) {
  v1::ServerReflectionResponse response;
  *response.mutable_original_request() = request;
  absl::Status status;
  switch (request.message_request_case()) {
    case v1::ServerReflectionRequest::kFileByFilename:
      status = FileByFilename(request.file_by_filename(), &response);
      break;
    case v1::ServerReflectionRequest::kFileContainingSymbol:
      status =
          FileContainingSymbol(request.file_containing_symbol(), &response);
      break;
    case v1::ServerReflectionRequest::kFileContainingExtension:
      status = FileContainingExtension(request.file_containing_extension(),
                                       &response);
      break;
    case v1::ServerReflectionRequest::kAllExtensionNumbersOfType:
      status = AllExtensionNumbers(request.all_extension_numbers_of_type(),
                                   &response);
      break;
    case v1::ServerReflectionRequest::kListServices:
      ListServices(&response);
      break;
    case v1::ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
      status = absl::InvalidArgumentError(
          "The request sets none of file_by_filename, "
          "file_containing_symbol, file_containing_extension, "
          "all_extension_numbers_of_type, list_services.");
      break;
  }
  if (!status.ok()) {
    // A partly filled answer is dropped: the error replaces it.
    response.clear_message_response();
    v1::ErrorResponse* error = response.mutable_error_response();
    error->set_error_code(static_cast<int>(status.code()));
    error->set_error_message(std::string(status.message()));
  }
  return response;
}

absl::Status ReflectionResponder::FileByFilename(
    const std::string& name, v1::ServerReflectionResponse* response) {
  if (absl::Status s = CheckName("file_by_filename", name); !s.ok()) return s;
  const FileDescriptor* file = pool_->FindFileByName(name);
  if (file == nullptr) return NotFound("File", name);
  AddFileAndDependencies(file, response->mutable_file_descriptor_response());
  return absl::OkStatus();
}

absl::Status ReflectionResponder::FileContainingSymbol(
    const std::string& symbol, v1::ServerReflectionResponse* response) {
  if (absl::Status s = CheckName("file_containing_symbol", symbol); !s.ok()) {
    return s;
  }
  const FileDescriptor* file = pool_->FindFileContainingSymbol(symbol);
  if (file == nullptr) return NotFound("Symbol", symbol);
  AddFileAndDependencies(file, response->mutable_file_descriptor_response());
  return absl::OkStatus();
}

absl::Status ReflectionResponder::FileContainingExtension(
    const v1::ExtensionRequest& request,
    v1::ServerReflectionResponse* response) {
  const std::string& type = request.containing_type();
  if (absl::Status s = CheckName("containing_type", type); !s.ok()) return s;
  const Descriptor* message = FindMessage(*pool_, type);
  if (message == nullptr) return NotFound("Message type", type);
  const FieldDescriptor* extension =
      pool_->FindExtensionByNumber(message, request.extension_number());
  if (extension == nullptr) {
    return NotFound("Extension",
                    absl::StrCat(type, "(", request.extension_number(), ")"));
  }
  AddFileAndDependencies(extension->file(),
                         response->mutable_file_descriptor_response());
  return absl::OkStatus();
}

absl::Status ReflectionResponder::AllExtensionNumbers(
    const std::string& type, v1::ServerReflectionResponse* response) {
  if (absl::Status s = CheckName("all_extension_numbers_of_type", type);
      !s.ok()) {
    return s;
  }
  const Descriptor* message = FindMessage(*pool_, type);
  if (message == nullptr) return NotFound("Message type", type);
  std::vector<const FieldDescriptor*> extensions;
  pool_->FindAllExtensions(message, &extensions);
  v1::ExtensionNumberResponse* numbers =
      response->mutable_all_extension_numbers_response();
  numbers->set_base_type_name(message->full_name());
  for (const FieldDescriptor* extension : extensions) {
    numbers->add_extension_number(extension->number());
  }
  return absl::OkStatus();
}

void ReflectionResponder::ListServices(
    v1::ServerReflectionResponse* response) const {
  v1::ListServiceResponse* list = response->mutable_list_services_response();
  for (const std::string& name : *services_) {
    list->add_service()->set_name(name);
  }
}

void ReflectionResponder::AddFileAndDependencies(
    const FileDescriptor* file, v1::FileDescriptorResponse* response) {
  // The file asked for is sent even if the stream had it already: the
  // client asked, and an empty answer would look like an error.
  sent_files_.erase(file->name());
  AddFileOnce(file, response);
}

void ReflectionResponder::AddFileOnce(const FileDescriptor* file,
                                      v1::FileDescriptorResponse* response) {
  if (!sent_files_.insert(file->name()).second) return;
  google::protobuf::FileDescriptorProto proto;
  file->CopyTo(&proto);
  response->add_file_descriptor_proto(proto.SerializeAsString());
  // Recursion depth = the import chain's length (a handful in practice;
  // protoc rejects cycles, so it ends).
  for (int i = 0; i < file->dependency_count(); ++i) {
    AddFileOnce(file->dependency(i), response);
  }
}

}  // namespace dpq::server::reflection
