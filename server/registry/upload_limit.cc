#include "server/registry/upload_limit.h"

#include "absl/strings/str_cat.h"

namespace dpq::server::registry {

absl::Status UploadTooLargeError(uint64_t max_bytes) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "The CSV upload exceeds the server's max_upload_bytes = ", max_bytes,
      " bytes."));
}

}  // namespace dpq::server::registry
