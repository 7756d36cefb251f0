// SHA-256 as lowercase hex: what dpq stores of a bearer token and what it
// fingerprints a release request with.
#ifndef DPQ_CORE_UTIL_SHA256_HEX_H_
#define DPQ_CORE_UTIL_SHA256_HEX_H_

#include <string>

#include "absl/strings/string_view.h"

namespace dpq::core::util {

// The SHA-256 digest of `data` as 64 lowercase hex digits (OpenSSL's
// EVP_Digest). Aborts if OpenSSL cannot compute it, which only an
// allocation failure inside OpenSSL causes: no caller could go on without
// the digest (a token or a fingerprint that matches nothing).
std::string Sha256Hex(absl::string_view data);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_SHA256_HEX_H_
