#include "client/request_id.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dpq::client {

std::string GenerateRequestId(core::dp::SecureUrbg& urbg) {
  const uint64_t hi = urbg();
  const uint64_t lo = urbg();
  return absl::StrFormat("dpq-%016x%016x", hi, lo);
}

std::string GenerateRequestId() {
  core::dp::OpenSslUrbg urbg;
  return GenerateRequestId(urbg);
}

absl::Status ValidateRequestId(absl::string_view id) {
  constexpr size_t kMaxLength = 128;
  if (id.empty() || id.size() > kMaxLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("--request-id must have 1-", kMaxLength,
                     " characters, but has ", id.size(), "."));
  }
  for (size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x20 || c > 0x7e) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--request-id must be printable ASCII, but character %d is 0x%02x.",
          i + 1, c));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::client
