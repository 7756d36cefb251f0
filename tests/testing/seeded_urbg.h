// A deterministic SecureUrbg for tests. Not differentially private: its
// output is predictable from the seed. Never used outside tests/.
#ifndef DPQ_TESTS_TESTING_SEEDED_URBG_H_
#define DPQ_TESTS_TESTING_SEEDED_URBG_H_

#include <cstdint>
#include <random>

#include "core/dp/secure_urbg.h"

namespace dpq::testing {

class SeededUrbg final : public core::dp::SecureUrbg {
 public:
  explicit SeededUrbg(uint64_t seed) : engine_(seed) {}

 protected:
  uint64_t NextUint64() override { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_SEEDED_URBG_H_
