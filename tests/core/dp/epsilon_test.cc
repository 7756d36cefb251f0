#include "core/dp/epsilon.h"

#include <cmath>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::Eq;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ValidateEpsilonTest, AcceptsFinitePositiveValuesUpToTheMaximum) {
  EXPECT_OK(ValidateEpsilon(1));
  EXPECT_OK(ValidateEpsilon(0.1));
  EXPECT_OK(ValidateEpsilon(1e-300));
  EXPECT_OK(ValidateEpsilon(std::numeric_limits<double>::denorm_min()));
  EXPECT_OK(ValidateEpsilon(kMaxEpsilon));
}

TEST(ValidateEpsilonTest, RejectsNegativeWithExactMessage) {
  EXPECT_THAT(ValidateEpsilon(-1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is -1.")));
}

TEST(ValidateEpsilonTest, RejectsZeroNaNAndInfinities) {
  EXPECT_THAT(ValidateEpsilon(0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is 0.")));
  EXPECT_THAT(ValidateEpsilon(-0.0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is -0.")));
  EXPECT_THAT(ValidateEpsilon(kNaN),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is nan.")));
  EXPECT_THAT(ValidateEpsilon(kInf),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is inf.")));
  EXPECT_THAT(
      ValidateEpsilon(-kInf),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Epsilon must be finite and positive, but is -inf.")));
}

TEST(ValidateEpsilonTest, RejectsAboveMaximumWithExactMessage) {
  EXPECT_THAT(ValidateEpsilon(2e6),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be at most 1000000, but is 2e+06.")));
  EXPECT_THAT(ValidateEpsilon(std::nextafter(kMaxEpsilon, kInf)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be at most 1000000, but is "
                          "1000000.0000000001.")));
}

TEST(ValidateEpsilonTest, PrintsValuesWithoutMisleadingRounding) {
  EXPECT_THAT(
      ValidateEpsilon(-0.1),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Epsilon must be finite and positive, but is -0.1.")));
}

TEST(ValidateEpsilonTest, UsesTheGivenName) {
  EXPECT_THAT(
      ValidateEpsilon(-1, "epsilon_0"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("epsilon_0 must be finite and positive, but is -1.")));
}

TEST(ValidateSensitivityTest, AcceptsFinitePositiveValuesWithoutUpperLimit) {
  EXPECT_OK(ValidateSensitivity(1));
  EXPECT_OK(ValidateSensitivity(1e300));
  EXPECT_OK(ValidateSensitivity(std::numeric_limits<double>::max()));
}

TEST(ValidateSensitivityTest, RejectsNonPositiveAndNonFinite) {
  EXPECT_THAT(
      ValidateSensitivity(0),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Sensitivity must be finite and positive, but is 0.")));
  EXPECT_THAT(ValidateSensitivity(kNaN, "Delta"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Delta must be finite and positive, but is nan.")));
  EXPECT_THAT(
      ValidateSensitivity(kInf),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Sensitivity must be finite and positive, but is inf.")));
}

}  // namespace
}  // namespace dpq::core::dp
