#include "server/auth/token.h"

#include <openssl/rand.h>

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "core/util/sha256_hex.h"

namespace dpq::server::auth {
namespace {

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0xF]);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> GenerateToken() {
  std::array<unsigned char, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return absl::InternalError(
        "OpenSSL RAND_bytes failed: cannot create a token.");
  }
  return std::string(kTokenPrefix) + Hex(bytes.data(), bytes.size());
}

bool IsWellFormedToken(absl::string_view token) {
  if (token.size() != kTokenLength || !absl::StartsWith(token, kTokenPrefix)) {
    return false;
  }
  for (char c : token.substr(4)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string Sha256Hex(absl::string_view data) {
  return core::util::Sha256Hex(data);
}

}  // namespace dpq::server::auth
