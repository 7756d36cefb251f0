#include "core/dp/secure_urbg.h"

#include <openssl/err.h>
#include <openssl/rand.h>

#include <cstdio>
#include <cstdlib>

namespace dpq::core::dp {

uint64_t SecureUrbg::UniformBelow(uint64_t bound) {
  if (bound <= 1) return 0;
  // Accept x < limit, where limit is the largest multiple of bound that fits;
  // every residue is then equally likely. Rejection probability < 1/2.
  const uint64_t limit = max() - (max() % bound + 1) % bound;
  uint64_t x;
  do {
    x = NextUint64();
  } while (x > limit);
  return x % bound;
}

double SecureUrbg::UniformDouble() {
  return static_cast<double>(NextUint64() >> 11) * 0x1.0p-53;
}

uint64_t OpenSslUrbg::NextUint64() {
  absl::MutexLock lock(&mu_);
  if (next_ == kBufferWords) {
    if (RAND_bytes(reinterpret_cast<unsigned char*>(buffer_),
                   sizeof(buffer_)) != 1) {
      // An invariant we cannot recover from: noise from a broken generator
      // must never be released (docs/privacy.md 4.1).
      std::fprintf(stderr, "FATAL: OpenSSL RAND_bytes failed: %lu\n",
                   ERR_get_error());
      std::abort();
    }
    next_ = 0;
  }
  return buffer_[next_++];
}

}  // namespace dpq::core::dp
