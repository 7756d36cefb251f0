#include "core/private/theta_candidates.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DefaultThetaCandidatesTest, IsTheOneTwoFiveGridBelowNPlusN) {
  EXPECT_THAT(DefaultThetaCandidates(1), ElementsAre(1u));
  EXPECT_THAT(DefaultThetaCandidates(2), ElementsAre(1u, 2u));
  EXPECT_THAT(DefaultThetaCandidates(5), ElementsAre(1u, 2u, 5u));
  EXPECT_THAT(DefaultThetaCandidates(7), ElementsAre(1u, 2u, 5u, 7u));
  EXPECT_THAT(DefaultThetaCandidates(1000),
              ElementsAre(1u, 2u, 5u, 10u, 20u, 50u, 100u, 200u, 500u, 1000u));
  EXPECT_THAT(
      DefaultThetaCandidates(1001),
      ElementsAre(1u, 2u, 5u, 10u, 20u, 50u, 100u, 200u, 500u, 1000u, 1001u));
}

TEST(DefaultThetaCandidatesTest, HandlesTheLargestN) {
  const std::vector<uint32_t> c = DefaultThetaCandidates(4294967295u);
  EXPECT_EQ(c.back(), 4294967295u);
  EXPECT_EQ(c[c.size() - 2], 2000000000u);
  EXPECT_EQ(c.size(), 30u);
}

TEST(NormalizeThetaCandidatesTest, SortsAndDeduplicates) {
  const std::vector<uint64_t> in = {5, 1, 5, 3, 10};
  EXPECT_THAT(NormalizeThetaCandidates(in, 10),
              IsOkAndHolds(ElementsAre(1u, 3u, 5u, 10u)));
}

TEST(NormalizeThetaCandidatesTest, RejectsEmptySet) {
  EXPECT_THAT(NormalizeThetaCandidates({}, 10),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("must not be empty")));
}

TEST(NormalizeThetaCandidatesTest, RejectsZeroAndValuesAboveN) {
  const std::vector<uint64_t> zero = {0, 2};
  EXPECT_THAT(NormalizeThetaCandidates(zero, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is 0")));
  const std::vector<uint64_t> big = {2, 11};
  EXPECT_THAT(NormalizeThetaCandidates(big, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is 11")));
  const std::vector<uint64_t> huge = {uint64_t{1} << 40};
  EXPECT_THAT(NormalizeThetaCandidates(huge, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(ValidatePublicMaxRowsTest, AcceptsOneToTwoToTheThirtyTwoMinusOne) {
  EXPECT_THAT(ValidatePublicMaxRows(1), IsOkAndHolds(1u));
  EXPECT_THAT(ValidatePublicMaxRows(4294967295u), IsOkAndHolds(4294967295u));
  EXPECT_THAT(ValidatePublicMaxRows(0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_max_rows")));
  EXPECT_THAT(ValidatePublicMaxRows(uint64_t{1} << 32),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(CheckRowsWithinPublicMaxTest, FailsWhenRowsExceedN) {
  EXPECT_OK(CheckRowsWithinPublicMax(10, 10));
  EXPECT_THAT(
      CheckRowsWithinPublicMax(11, 10),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("raise N")));
}

TEST(CheckSortedCandidatesTest, RequiresStrictlyAscendingPositive) {
  const std::vector<uint32_t> ok = {1, 2, 7};
  EXPECT_OK(CheckSortedCandidates(ok));
  const std::vector<uint32_t> dup = {1, 2, 2};
  EXPECT_THAT(CheckSortedCandidates(dup),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  const std::vector<uint32_t> zero = {0, 2};
  EXPECT_THAT(CheckSortedCandidates(zero),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(CheckSortedCandidates({}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace dpq::core::private_measures
