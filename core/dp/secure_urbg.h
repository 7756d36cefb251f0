// The only source of randomness for DP noise (docs/privacy.md 4.1): a uniform
// random bit generator backed by OpenSSL's CSPRNG. Tests may inject another
// implementation of SecureUrbg (tests/testing/seeded_urbg.h); the server never
// does.
#ifndef DPQ_CORE_DP_SECURE_URBG_H_
#define DPQ_CORE_DP_SECURE_URBG_H_

#include <cstddef>
#include <cstdint>
#include <limits>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace dpq::core::dp {

// Interface of a uniform random bit generator (satisfies the C++
// UniformRandomBitGenerator concept) plus exact helpers built on raw bits.
class SecureUrbg {
 public:
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() {
    return std::numeric_limits<result_type>::max();
  }

  virtual ~SecureUrbg() = default;

  // 64 uniformly random bits.
  result_type operator()() { return NextUint64(); }

  // Uniform integer in [0, bound), bound >= 1, without modulo bias
  // (rejection sampling).
  uint64_t UniformBelow(uint64_t bound);

  // Uniform double in [0, 1) with 53 random bits (a multiple of 2^-53).
  double UniformDouble();

 protected:
  virtual uint64_t NextUint64() = 0;
};

// SecureUrbg over OpenSSL RAND_bytes. Thread-safe. Aborts (CHECK-style) if
// the CSPRNG fails: releasing noise from a broken generator is never an
// option.
class OpenSslUrbg final : public SecureUrbg {
 protected:
  uint64_t NextUint64() override ABSL_LOCKS_EXCLUDED(mu_);

 private:
  static constexpr size_t kBufferWords = 64;
  absl::Mutex mu_;
  uint64_t buffer_[kBufferWords] ABSL_GUARDED_BY(mu_) = {};
  size_t next_ ABSL_GUARDED_BY(mu_) = kBufferWords;
};

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_SECURE_URBG_H_
