#include "core/dp/hash_drbg.h"

#include <openssl/sha.h>

#include <cstring>

namespace dpq::core::dp {

uint64_t HashDrbg::NextUint64() {
  if (next_ == kWordsPerBlock) {
    unsigned char input[16];
    std::memcpy(input, &seed_, 8);
    std::memcpy(input + 8, &counter_, 8);
    ++counter_;
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(input, sizeof(input), digest);
    std::memcpy(block_, digest, sizeof(block_));
    next_ = 0;
  }
  return block_[next_++];
}

}  // namespace dpq::core::dp
