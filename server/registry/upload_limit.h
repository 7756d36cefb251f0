// The one refusal of a registration's CSV above the server's
// max_upload_bytes (RegistryOptions::max_csv_bytes): raised while an upload
// streams in (server/admin/dataset_upload.h) and while a server_path file
// is read (ReadImportFile), the two places that see the bytes first.
#ifndef DPQ_SERVER_REGISTRY_UPLOAD_LIMIT_H_
#define DPQ_SERVER_REGISTRY_UPLOAD_LIMIT_H_

#include <cstdint>

#include "absl/status/status.h"

namespace dpq::server::registry {

// kResourceExhausted: "The CSV upload exceeds the server's max_upload_bytes
// = <max_bytes> bytes."
absl::Status UploadTooLargeError(uint64_t max_bytes);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_UPLOAD_LIMIT_H_
