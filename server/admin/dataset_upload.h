// AdminService.RegisterDataset and ReplaceDataset: the one upload path of
// a dataset's rows, as the owner sends them (a stream of CSV chunks after a
// header) or names them (header.server_path, read on the server from its
// import directory). Each check here has one owner:
//  - the upload's size: while it streams in (ReadUpload), or while the
//    server file is read (registry::ReadImportFile), with one message
//    (registry::UploadTooLargeError);
//  - the dataset id: before any server file is opened (here); the whole
//    manifest: once, by the registry's write (DatasetRegistry::Register);
//  - the admin role: by the handler skeleton (admin_core.h).
#ifndef DPQ_SERVER_ADMIN_DATASET_UPLOAD_H_
#define DPQ_SERVER_ADMIN_DATASET_UPLOAD_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "dpq/v1/admin_service.pb.h"
#include "grpcpp/support/sync_stream.h"
#include "server/admin/admin_core.h"
#include "server/auth/principal.h"
#include "server/call_context.h"
#include "server/registry/upload_limit.h"

namespace dpq::server::admin {

// A received upload: its header and the CSV bytes that followed it (empty
// when the header names a server_path).
struct Upload {
  v1::DatasetUploadHeader header;
  std::string csv;
};

// An upload's stream ended early because the call is over: the deadline
// passed (gRPC then reports the call as cancelled too) or the client
// cancelled. OK while the call runs.
absl::Status CheckUploadCall(const CallContext& call);

// kInvalidArgument for a stream without a first message, or whose first
// message could not be parsed (gRPC reports both alike).
absl::Status MissingHeaderError();

// Reads a RegisterDataset/ReplaceDataset stream: the header first, then the
// CSV chunks, at most `max_bytes` of them (registry::UploadTooLargeError
// above).
template <typename Request>
absl::StatusOr<Upload> ReadUpload(const CallContext& call,
                                  grpc::ServerReaderInterface<Request>& reader,
                                  uint64_t max_bytes) {
  Request message;
  if (!reader.Read(&message)) {
    RETURN_IF_ERROR(CheckUploadCall(call));
    return MissingHeaderError();
  }
  if (!message.has_header()) {
    return core::util::InvalidFieldError(
        "header",
        "The first message of an upload must carry the `header` (manifest "
        "and optional server_path), not a csv_chunk.");
  }
  Upload upload{std::move(*message.mutable_header()), std::string()};
  // The client's size hint: one allocation instead of a doubling per few
  // chunks (each copying what came so far). Within the limit, and only
  // admins get here (HandleCall checked the caller first).
  upload.csv.reserve(std::min<uint64_t>(upload.header.csv_bytes(), max_bytes));
  while (reader.Read(&message)) {
    RETURN_IF_ERROR(CheckUploadCall(call));
    if (message.has_header()) {
      return core::util::InvalidFieldError(
          "header",
          "`header` must be sent exactly once, as the first message of the "
          "upload.");
    }
    if (!upload.header.server_path().empty()) {
      return core::util::InvalidFieldError(
          "csv_chunk",
          absl::StrCat(
              "`csv_chunk` must not follow a header with server_path '",
              upload.header.server_path(), "': send one or the other."));
    }
    const std::string& chunk = message.csv_chunk();
    if (upload.csv.size() + chunk.size() > max_bytes) {
      return registry::UploadTooLargeError(max_bytes);
    }
    upload.csv.append(chunk);
  }
  RETURN_IF_ERROR(CheckUploadCall(call));
  return upload;
}

// Registers `upload` (the header's server_path read on the server when
// set). Returns once the dataset is validated, stored and its conflict
// graph built (a build that fails fails the call); the response's notes say
// what was inferred and made public. kInvalidArgument naming the field;
// kAlreadyExists for a taken id; kResourceExhausted above the server's edge
// or row limits. `deadline`: the call's; `received_at`: when the call
// began, before its upload or server file was read
// (registry::DatasetRegistry::Register).
absl::Status RegisterDatasetImpl(const AdminCore& service,
                                 const auth::Principal& caller, Upload upload,
                                 v1::RegisterDatasetResponse* response,
                                 absl::Time deadline, absl::Time received_at);

// Same, for an existing id (kNotFound otherwise); see
// DatasetRegistry::Replace for what a replacement must keep.
absl::Status ReplaceDatasetImpl(const AdminCore& service,
                                const auth::Principal& caller, Upload upload,
                                v1::ReplaceDatasetResponse* response,
                                absl::Time deadline, absl::Time received_at);

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_DATASET_UPLOAD_H_
