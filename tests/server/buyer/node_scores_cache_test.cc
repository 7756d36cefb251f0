// NodeScoresCache: hits, LRU eviction, owner identity, errors not cached,
// concurrent identical misses computed once, waiters honouring deadlines.
#include "server/buyer/node_scores_cache.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/stop.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::buyer {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using Scores = NodeScoresCache::Scores;

// Distinct scores per call, so a hit is recognisable by identity.
Scores MakeScores(size_t nodes) {
  auto s = std::make_shared<core::selection::NodeSelectionScores>();
  s->num_nodes = nodes;
  s->selection.scores.assign(nodes, 0.0);
  return s;
}

class NodeScoresCacheTest : public ::testing::Test {
 protected:
  absl::StatusOr<Scores> Get(NodeScoresCache& cache, const std::string& key,
                             const std::shared_ptr<const void>& owner) {
    return cache.GetOrCompute(
        key, owner, absl::InfiniteFuture(),
        [&]() -> absl::StatusOr<Scores> { return MakeScores(3); });
  }
  std::shared_ptr<const void> owner_ = std::make_shared<int>(1);
};

TEST_F(NodeScoresCacheTest, SecondCallIsAHit) {
  NodeScoresCache cache;
  absl::StatusOr<Scores> first = Get(cache, "k", owner_);
  ASSERT_THAT(first, IsOk());
  absl::StatusOr<Scores> second = Get(cache, "k", owner_);
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(cache.computations(), 1u);
  ASSERT_THAT(Get(cache, "other", owner_), IsOk());
  EXPECT_EQ(cache.computations(), 2u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(NodeScoresCacheTest, EvictsTheLeastRecentlyUsed) {
  NodeScoresCache cache(2);
  ASSERT_THAT(Get(cache, "a", owner_), IsOk());
  ASSERT_THAT(Get(cache, "b", owner_), IsOk());
  ASSERT_THAT(Get(cache, "a", owner_), IsOk());  // a is now the newest
  ASSERT_THAT(Get(cache, "c", owner_), IsOk());  // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.computations(), 3u);
  ASSERT_THAT(Get(cache, "a", owner_), IsOk());
  EXPECT_EQ(cache.computations(), 3u);
  ASSERT_THAT(Get(cache, "b", owner_), IsOk());
  EXPECT_EQ(cache.computations(), 4u);
}

TEST_F(NodeScoresCacheTest, DefaultCapacityIsEight) {
  NodeScoresCache cache;
  for (int i = 0; i < 12; ++i) {
    ASSERT_THAT(Get(cache, std::to_string(i), owner_), IsOk());
  }
  EXPECT_EQ(cache.size(), 8u);
}

// Same key, another (or a freed) dataset object: never the old scores.
TEST_F(NodeScoresCacheTest, AnotherOwnerIsAMiss) {
  NodeScoresCache cache;
  ASSERT_THAT(Get(cache, "k", owner_), IsOk());
  auto other = std::make_shared<int>(2);
  ASSERT_THAT(Get(cache, "k", other), IsOk());
  EXPECT_EQ(cache.computations(), 2u);
  ASSERT_THAT(Get(cache, "k", other), IsOk());
  EXPECT_EQ(cache.computations(), 2u);
  other.reset();
  auto fresh = std::make_shared<int>(3);
  ASSERT_THAT(Get(cache, "k", fresh), IsOk());
  EXPECT_EQ(cache.computations(), 3u);
}

TEST_F(NodeScoresCacheTest, FailuresAreNotCached) {
  NodeScoresCache cache;
  auto fail = [&]() -> absl::StatusOr<Scores> {
    return absl::ResourceExhaustedError("busy");
  };
  EXPECT_THAT(
      cache.GetOrCompute("k", owner_, absl::InfiniteFuture(), fail),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("busy")));
  EXPECT_EQ(cache.size(), 0u);
  ASSERT_THAT(Get(cache, "k", owner_), IsOk());
  EXPECT_EQ(cache.computations(), 2u);
}

// The first call blocks inside its computation; the others (arriving while
// it is in flight, or after: either way) share its one result.
TEST_F(NodeScoresCacheTest, ConcurrentIdenticalMissesComputeOnce) {
  NodeScoresCache cache;
  absl::Notification entered, release;
  Scores computed;
  std::thread first([&] {
    absl::StatusOr<Scores> s = cache.GetOrCompute(
        "k", owner_, absl::InfiniteFuture(), [&]() -> absl::StatusOr<Scores> {
          entered.Notify();
          release.WaitForNotification();
          return MakeScores(4);
        });
    ASSERT_THAT(s, IsOk());
    computed = *s;
  });
  entered.WaitForNotification();
  // A waiter whose deadline passes gives up; the computation goes on.
  EXPECT_THAT(cache.GetOrCompute(
                  "k", owner_, absl::Now() + absl::Milliseconds(20),
                  [&]() -> absl::StatusOr<Scores> { return MakeScores(5); }),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("cached once computed")));
  std::vector<Scores> seen(3);
  std::vector<std::thread> others;
  for (size_t i = 0; i < seen.size(); ++i) {
    others.emplace_back([&, i] {
      absl::StatusOr<Scores> s = Get(cache, "k", owner_);
      ASSERT_THAT(s, IsOk());
      seen[i] = *s;
    });
  }
  release.Notify();
  first.join();
  for (std::thread& t : others) t.join();
  EXPECT_EQ(cache.computations(), 1u);
  for (const Scores& s : seen) EXPECT_EQ(s.get(), computed.get());
  EXPECT_EQ(computed->num_nodes, 4u);
}

// A computation stopped because its caller left (kCancelled) is not what
// the other callers waited for: a waiter computes the scores itself.
TEST_F(NodeScoresCacheTest, AStoppedComputationLetsAWaiterCompute) {
  NodeScoresCache cache;
  absl::Notification entered, release;
  std::thread stopped([&] {
    absl::StatusOr<Scores> s = cache.GetOrCompute(
        "k", owner_, absl::InfiniteFuture(), [&]() -> absl::StatusOr<Scores> {
          entered.Notify();
          release.WaitForNotification();
          return core::util::StoppedError();
        });
    EXPECT_THAT(
        s, StatusIs(absl::StatusCode::kCancelled, HasSubstr("caller left")));
  });
  entered.WaitForNotification();
  std::thread waiter([&] {
    absl::StatusOr<Scores> s = cache.GetOrCompute(
        "k", owner_, absl::InfiniteFuture(),
        [&]() -> absl::StatusOr<Scores> { return MakeScores(7); });
    ASSERT_THAT(s, IsOk());
    EXPECT_EQ((*s)->num_nodes, 7u);
  });
  absl::SleepFor(absl::Milliseconds(20));  // the waiter is waiting
  release.Notify();
  stopped.join();
  waiter.join();
  EXPECT_EQ(cache.computations(), 2u);
}

// A waiter whose own caller leaves (no deadline, cancelled) stops waiting
// for another call's computation within a poll interval, so its heavy-job
// slot is not held until that computation ends; the computation goes on.
TEST_F(NodeScoresCacheTest, ACancelledWaiterStopsWaiting) {
  NodeScoresCache cache;
  absl::Notification entered, release;
  std::thread computing([&] {
    absl::StatusOr<Scores> s = cache.GetOrCompute(
        "k", owner_, absl::InfiniteFuture(), [&]() -> absl::StatusOr<Scores> {
          entered.Notify();
          release.WaitForNotification();
          return MakeScores(3);
        });
    EXPECT_THAT(s, IsOk());
  });
  entered.WaitForNotification();
  std::atomic<bool> left{false};
  std::thread waiter([&] {
    const absl::Time start = absl::Now();
    absl::StatusOr<Scores> s = cache.GetOrCompute(
        "k", owner_, absl::InfiniteFuture(),
        [&]() -> absl::StatusOr<Scores> { return MakeScores(8); },
        [&] { return left.load(); });
    EXPECT_THAT(
        s, StatusIs(absl::StatusCode::kCancelled, HasSubstr("caller left")));
    EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  });
  absl::SleepFor(absl::Milliseconds(30));  // the waiter is waiting
  left = true;
  waiter.join();  // returns while the computation is still blocked
  release.Notify();
  computing.join();
  EXPECT_EQ(cache.computations(), 1u);
}

}  // namespace
}  // namespace dpq::server::buyer
