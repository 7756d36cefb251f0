// HeavyReleaseQueue: at most max_running computations at once, slots handed
// round robin across buyers, and a call that ends while queued leaves the
// queue with its charge standing.
#include "server/buyer/heavy_release_queue.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::buyer {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

// Waits (a few seconds at most) until `queue` has `n` waiters.
void WaitForQueued(const HeavyReleaseQueue& queue, int n) {
  const absl::Time give_up = absl::Now() + absl::Seconds(20);
  while (queue.queued() < n && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(2));
  }
  ASSERT_EQ(queue.queued(), n);
}

TEST(HeavyReleaseQueueTest, RunsAtMostMaxRunningAtOnce) {
  HeavyReleaseQueue queue(2);
  std::atomic<int> now{0}, most{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 12; ++i) {
    callers.emplace_back([&, i] {
      auto slot = queue.Acquire(i % 2 == 0 ? "alice" : "bob", CallContext{});
      ASSERT_TRUE(slot.ok()) << slot.status();
      const int running = ++now;
      int seen = most.load();
      while (running > seen && !most.compare_exchange_weak(seen, running)) {
      }
      absl::SleepFor(absl::Milliseconds(5));
      --now;
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(most.load(), 2);
  EXPECT_EQ(queue.running(), 0);
  EXPECT_EQ(queue.queued(), 0);
}

// Alice queues five calls, then Bob one: Bob's is served second, not
// sixth (round robin), and the rest of Alice's in arrival order.
TEST(HeavyReleaseQueueTest, SlotsGoRoundRobinAcrossBuyers) {
  HeavyReleaseQueue queue(1);
  std::optional<HeavyReleaseQueue::Slot> held;
  {
    auto slot = queue.Acquire("carol", CallContext{});
    ASSERT_TRUE(slot.ok());
    held.emplace(*std::move(slot));
  }
  absl::Mutex mu;
  std::vector<std::string> order;
  std::vector<std::thread> callers;
  auto call = [&](std::string who) {
    auto slot = queue.Acquire(who.substr(0, who.find('#')), CallContext{});
    ASSERT_TRUE(slot.ok());
    absl::MutexLock lock(&mu);
    order.push_back(who);
  };
  for (int i = 1; i <= 5; ++i) {
    callers.emplace_back(call, "alice#" + std::to_string(i));
    WaitForQueued(queue, i);  // one at a time: their arrival order is fixed
  }
  callers.emplace_back(call, "bob#1");
  WaitForQueued(queue, 6);
  held.reset();  // carol's release ends
  for (std::thread& t : callers) t.join();
  EXPECT_THAT(order, ::testing::ElementsAre("alice#1", "bob#1", "alice#2",
                                            "alice#3", "alice#4", "alice#5"));
}

// A call whose deadline passes in the queue gets DEADLINE_EXCEEDED saying
// the charge stands, and leaves the queue.
TEST(HeavyReleaseQueueTest, ADeadlineWhileQueuedKeepsTheCharge) {
  HeavyReleaseQueue queue(1);
  auto held = queue.Acquire("alice", CallContext{});
  ASSERT_TRUE(held.ok());
  CallContext call;
  call.deadline = absl::Now() + absl::Milliseconds(150);
  const auto late = queue.Acquire("bob", call);
  EXPECT_THAT(late.status(),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("the charge stands: retry with the same "
                                 "request_id")));
  EXPECT_EQ(queue.queued(), 0);
  // Cancelled while queued: CANCELLED.
  std::atomic<bool> cancelled{false};
  CallContext cancellable;
  cancellable.cancelled = [&] { return cancelled.load(); };
  std::thread canceller([&] {
    WaitForQueued(queue, 1);
    cancelled = true;
  });
  EXPECT_THAT(queue.Acquire("bob", cancellable).status(),
              StatusIs(absl::StatusCode::kCancelled, HasSubstr("max_heavy")));
  canceller.join();
  EXPECT_EQ(queue.queued(), 0);
  EXPECT_EQ(queue.running(), 1);
}

}  // namespace
}  // namespace dpq::server::buyer
