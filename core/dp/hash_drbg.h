// A deterministic, seeded SecureUrbg for reproducible experiments by data
// owners (`dpq-measure --seed S`, the paper-reproduction benchmarks).
//
// Output block i is SHA-256(seed || i) (a hash DRBG in counter mode), so the
// stream is unpredictable without the seed but fully determined by it. NOT
// for releases to buyers: whoever knows the seed can subtract the noise. The
// server always uses OpenSslUrbg (docs/privacy.md 4.1).
#ifndef DPQ_CORE_DP_HASH_DRBG_H_
#define DPQ_CORE_DP_HASH_DRBG_H_

#include <cstddef>
#include <cstdint>

#include "core/dp/secure_urbg.h"

namespace dpq::core::dp {

class HashDrbg final : public SecureUrbg {
 public:
  explicit HashDrbg(uint64_t seed) : seed_(seed) {}

 protected:
  uint64_t NextUint64() override;

 private:
  static constexpr size_t kWordsPerBlock = 4;  // 256 bits per SHA-256 block
  uint64_t seed_;
  uint64_t counter_ = 0;
  uint64_t block_[kWordsPerBlock] = {};
  size_t next_ = kWordsPerBlock;
};

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_HASH_DRBG_H_
