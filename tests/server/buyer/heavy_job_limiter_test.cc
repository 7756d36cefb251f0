// HeavyJobLimiter: the server-wide limit, the per-buyer limit
// (docs/security.md, item 2: one buyer cannot hold every slot), their messages
// and defaults, and consistency under concurrent use.
#include "server/buyer/heavy_job_limiter.h"

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::buyer {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(HeavyJobLimiterTest, RefusesBeyondTheLimitAndFreesOnRelease) {
  HeavyJobLimiter limiter(1);
  {
    ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot slot,
                         limiter.TryAcquire("TrainDecisionTree", "alice"));
    EXPECT_EQ(limiter.running(), 1);
    EXPECT_THAT(limiter.TryAcquire("TrainDecisionTree", "bob").status(),
                StatusIs(absl::StatusCode::kUnavailable,
                         AllOf(HasSubstr("(max_heavy_jobs)"),
                               HasSubstr("nothing was charged"))));
  }
  EXPECT_EQ(limiter.running(), 0);
  EXPECT_OK(limiter.TryAcquire("TrainDecisionTree", "bob").status());
}

// With the default two slots, a buyer gets one and always leaves the other.
TEST(HeavyJobLimiterTest, OneBuyerLeavesASlotToTheOthersByDefault) {
  HeavyJobLimiter limiter(2);
  EXPECT_EQ(limiter.max_jobs_per_principal(), 1);
  ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot first,
                       limiter.TryAcquire("TrainDecisionTree", "mallory"));
  EXPECT_THAT(
      limiter.TryAcquire("SelectInfluentialNodes", "mallory").status(),
      StatusIs(absl::StatusCode::kUnavailable,
               AllOf(HasSubstr("max_heavy_jobs_per_buyer"),
                     HasSubstr("SelectInfluentialNodes was not started"),
                     HasSubstr("nothing was charged"))));
  EXPECT_EQ(limiter.running("mallory"), 1);
  ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot other,
                       limiter.TryAcquire("TrainDecisionTree", "alice"));
  EXPECT_EQ(limiter.running(), 2);
}

// The per-buyer refusal depends on the caller's own jobs only: it reads
// the same whether the others run nothing or fill the server, and the
// server-wide refusal never names the per-buyer limit.
TEST(HeavyJobLimiterTest, PerBuyerRefusalDependsOnTheCallersOwnJobsOnly) {
  HeavyJobLimiter quiet(4, 1);
  ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot mine,
                       quiet.TryAcquire("TrainDecisionTree", "mallory"));
  const absl::Status alone =
      quiet.TryAcquire("TrainDecisionTree", "mallory").status();

  HeavyJobLimiter busy(4, 1);
  std::vector<HeavyJobLimiter::Slot> others;
  ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot mine_too,
                       busy.TryAcquire("TrainDecisionTree", "mallory"));
  for (const char* buyer : {"alice", "bob", "carol"}) {
    ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot s,
                         busy.TryAcquire("TrainDecisionTree", buyer));
    others.push_back(std::move(s));
  }
  EXPECT_EQ(busy.TryAcquire("TrainDecisionTree", "mallory").status(), alone);
  EXPECT_THAT(
      busy.TryAcquire("TrainDecisionTree", "dave").status(),
      StatusIs(absl::StatusCode::kUnavailable, Not(HasSubstr("per buyer"))));
}

TEST(HeavyJobLimiterTest, DefaultPerBuyerLimitIsHalfTheSlotsAtLeastOne) {
  EXPECT_EQ(DefaultMaxHeavyJobsPerBuyer(1), 1);
  EXPECT_EQ(DefaultMaxHeavyJobsPerBuyer(2), 1);
  EXPECT_EQ(DefaultMaxHeavyJobsPerBuyer(3), 1);
  EXPECT_EQ(DefaultMaxHeavyJobsPerBuyer(8), 4);
  EXPECT_EQ(HeavyJobLimiter(8).max_jobs_per_principal(), 4);
  EXPECT_EQ(HeavyJobLimiter(8, 8).max_jobs_per_principal(), 8);
  // Out of range: clamped to [1, max_jobs].
  EXPECT_EQ(HeavyJobLimiter(2, 5).max_jobs_per_principal(), 2);
  EXPECT_EQ(HeavyJobLimiter(0, 0).max_jobs(), 1);
}

TEST(HeavyJobLimiterTest, MovedSlotsReleaseOnce) {
  HeavyJobLimiter limiter(2, 2);
  {
    std::optional<HeavyJobLimiter::Slot> held;
    {
      ASSERT_OK_AND_ASSIGN(HeavyJobLimiter::Slot slot,
                           limiter.TryAcquire("TrainDecisionTree", "alice"));
      held.emplace(std::move(slot));
    }
    EXPECT_EQ(limiter.running("alice"), 1);
  }
  EXPECT_EQ(limiter.running(), 0);
  EXPECT_EQ(limiter.running("alice"), 0);
}

// Many buyers racing: never more than the limits at once, all freed after.
TEST(HeavyJobLimiterTest, LimitsHoldUnderConcurrentUse) {
  HeavyJobLimiter limiter(3, 2);
  std::atomic<int> violations{0};
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      const std::string buyer = t % 2 == 0 ? "alice" : "bob";
      for (int i = 0; i < 2000; ++i) {
        absl::StatusOr<HeavyJobLimiter::Slot> slot =
            limiter.TryAcquire("TrainDecisionTree", buyer);
        if (!slot.ok()) continue;
        ++granted;
        if (limiter.running() > 3 || limiter.running(buyer) > 2) ++violations;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(violations.load(), 0);
  EXPECT_GT(granted.load(), 0);
  EXPECT_EQ(limiter.running(), 0);
  EXPECT_EQ(limiter.running("alice"), 0);
}

}  // namespace
}  // namespace dpq::server::buyer
