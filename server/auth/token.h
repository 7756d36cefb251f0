// Bearer tokens (docs/security.md, threat model): 256 random bits from
// OpenSSL's CSPRNG, shown once, stored only as their SHA-256.
#ifndef DPQ_SERVER_AUTH_TOKEN_H_
#define DPQ_SERVER_AUTH_TOKEN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::auth {

// Every token starts with this prefix (it makes tokens easy to spot in a
// leaked file or a secret scanner).
inline constexpr char kTokenPrefix[] = "dpq_";
// Length of a token: prefix + 64 lowercase hex digits.
inline constexpr size_t kTokenLength = 4 + 64;

// "dpq_" + 64 lowercase hex digits encoding 32 bytes of RAND_bytes.
// kInternal if the CSPRNG fails.
absl::StatusOr<std::string> GenerateToken();

// True if `token` has the exact shape GenerateToken produces.
bool IsWellFormedToken(absl::string_view token);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_TOKEN_H_
