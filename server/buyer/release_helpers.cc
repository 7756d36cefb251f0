#include "server/buyer/release_helpers.h"

#include <openssl/rand.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/util/sha256_hex.h"

namespace dpq::server::buyer::internal {

absl::Status ValidateRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > kMaxRequestIdLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "request_id must have 1-", kMaxRequestIdLength,
        " printable ASCII characters, but has ", request_id.size(), "."));
  }
  for (size_t i = 0; i < request_id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(request_id[i]);
    if (c < 0x20 || c > 0x7e) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "request_id must be printable ASCII, but character %d is byte "
          "0x%02x.",
          i + 1, static_cast<int>(c)));
    }
  }
  return absl::OkStatus();
}

std::string NewRequestId() {
  unsigned char bytes[16];
  // A CSPRNG failure is not recoverable: abort rather than go on without a
  // sound source of randomness (docs/privacy.md 4.1).
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) std::abort();
  return absl::StrCat(
      "srv-", absl::BytesToHexString(absl::string_view(
                  reinterpret_cast<const char*>(bytes), sizeof(bytes))));
}

absl::Status RequireCaller(const auth::Principal& caller) {
  if (caller.id.empty()) {
    return absl::UnauthenticatedError("The caller has no principal id.");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id) {
  if (request_id.empty()) return NewRequestId();
  RETURN_IF_ERROR(ValidateRequestId(request_id));
  return request_id;
}

std::string DoubleBits(double value) {
  uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(value));
  std::memcpy(&bits, &value, sizeof(bits));
  return absl::StrFormat("%016x", bits);
}

std::string FingerprintOf(
    absl::string_view rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string text = absl::StrCat("dpq.v1.BuyerService/", rpc, "\n");
  for (const auto& [key, value] : parameters) {
    absl::StrAppend(&text, key, "=", absl::CEscape(value), "\n");
  }
  return core::util::Sha256Hex(text);
}

}  // namespace dpq::server::buyer::internal
