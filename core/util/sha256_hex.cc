#include "core/util/sha256_hex.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <string>

#include "absl/strings/escaping.h"

namespace dpq::core::util {

std::string Sha256Hex(absl::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(),
                 nullptr) != 1) {
    // Unrecoverable (OpenSSL cannot hash): abort, like an RNG failure.
    std::abort();
  }
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace dpq::core::util
