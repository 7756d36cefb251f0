// A SecureUrbg that returns the same 64-bit word forever, for pinning the
// extremes of samplers in tests. Not differentially private.
#ifndef DPQ_TESTS_TESTING_CONSTANT_URBG_H_
#define DPQ_TESTS_TESTING_CONSTANT_URBG_H_

#include <cstdint>

#include "core/dp/secure_urbg.h"

namespace dpq::testing {

class ConstantUrbg final : public core::dp::SecureUrbg {
 public:
  explicit ConstantUrbg(uint64_t value) : value_(value) {}

 protected:
  uint64_t NextUint64() override { return value_; }

 private:
  uint64_t value_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_CONSTANT_URBG_H_
