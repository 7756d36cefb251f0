#include "server/auth/token.h"

#include <openssl/rand.h>

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace dpq::server::auth {
absl::StatusOr<std::string> GenerateToken() {
  std::array<unsigned char, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return absl::InternalError(
        "OpenSSL RAND_bytes failed: cannot create a token.");
  }
  return absl::StrCat(
      kTokenPrefix,
      absl::BytesToHexString(absl::string_view(
          reinterpret_cast<const char*>(bytes.data()), bytes.size())));
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

}  // namespace dpq::server::auth
