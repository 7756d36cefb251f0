#include "core/private/row_count_release.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;

TEST(RowCountReleaseTest, PublicCountIsExactAndFree) {
  SeededUrbg urbg(1);
  ASSERT_OK_AND_ASSIGN(const RowCountRelease r,
                       ReleaseRowCount(urbg, 1000, true, 0, 2000));
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.value, 1000);
  EXPECT_EQ(r.lower95, 1000);
  EXPECT_EQ(r.upper95, 1000);
  EXPECT_EQ(r.epsilon, 0);
}

// Statistical (fixed seed): unbiased away from the clamp, and the interval
// holds the count in at least 95% - 5 sigma of 4,000 releases (a correct
// implementation fails with probability below 1e-6).
TEST(RowCountReleaseTest, NoisyCountIsUnbiasedAndCovered) {
  SeededUrbg urbg(2);
  constexpr int kReleases = 4000;
  double sum = 0;
  int covered = 0;
  for (int i = 0; i < kReleases; ++i) {
    ASSERT_OK_AND_ASSIGN(const RowCountRelease r,
                         ReleaseRowCount(urbg, 1000, false, 0.1, 2000));
    ASSERT_FALSE(r.exact);
    ASSERT_EQ(r.epsilon, 0.1);
    sum += static_cast<double>(r.value);
    covered += r.lower95 <= 1000 && 1000 <= r.upper95;
  }
  // Scale 10: variance about 200; 5 standard errors of the mean.
  EXPECT_NEAR(sum / kReleases, 1000, 5 * std::sqrt(200.0 / kReleases));
  EXPECT_GE(covered,
            kReleases * (0.95 - 5 * std::sqrt(0.95 * 0.05 / kReleases)));
}

TEST(RowCountReleaseTest, ClampedToThePublicRange) {
  SeededUrbg urbg(3);
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK_AND_ASSIGN(const RowCountRelease r,
                         ReleaseRowCount(urbg, 1, false, 0.01, 3));
    ASSERT_GE(r.value, 0);
    ASSERT_LE(r.value, 3);
    ASSERT_GE(r.lower95, 0);
    ASSERT_LE(r.upper95, 3);
  }
}

TEST(RowCountReleaseTest, RefusesABadEpsilonOrTooManyRows) {
  SeededUrbg urbg(4);
  EXPECT_FALSE(ReleaseRowCount(urbg, 10, false, 0, 20).ok());
  EXPECT_FALSE(ReleaseRowCount(urbg, 10, false, std::nan(""), 20).ok());
  EXPECT_FALSE(ReleaseRowCount(urbg, 30, false, 1, 20).ok());
}

}  // namespace
}  // namespace dpq::core::private_measures
