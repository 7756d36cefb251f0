#include "server/storage/group_commit.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"

namespace dpq::server::storage {
namespace {

struct Op {
  int written = 0;  // how many batches carried it
};

// While the first batch is being written the others queue; they are then
// written in batches of at most max_batch, each op exactly once, and never
// two batches at a time.
TEST(GroupCommitTest, WaitersShareBatchesAndEveryOpIsWrittenOnce) {
  constexpr int kWaiters = 20;
  constexpr size_t kMaxBatch = 8;
  GroupCommit<Op> queue(kMaxBatch);
  absl::Mutex mu;
  std::vector<size_t> batch_sizes;
  std::atomic<int> writing{0};
  std::atomic<int> overlaps{0};
  absl::Notification first_writing, release_first;
  const auto write = [&](absl::Span<Op* const> batch) {
    if (writing.fetch_add(1) != 0) ++overlaps;
    for (Op* op : batch) ++op->written;
    {
      absl::MutexLock lock(&mu);
      batch_sizes.push_back(batch.size());
    }
    if (!first_writing.HasBeenNotified()) {
      first_writing.Notify();
      release_first.WaitForNotification();
    }
    writing.fetch_sub(1);
  };

  Op first;
  std::thread first_thread([&] { queue.Run(first, write); });
  first_writing.WaitForNotification();
  std::vector<Op> ops(kWaiters);
  std::vector<std::thread> waiters;
  for (Op& op : ops) {
    waiters.emplace_back([&queue, &op, &write] { queue.Run(op, write); });
  }
  // Let the waiters queue behind the blocked first batch (a waiter that
  // queues later only makes one more batch).
  absl::SleepFor(absl::Milliseconds(300));
  release_first.Notify();
  first_thread.join();
  for (std::thread& t : waiters) t.join();

  EXPECT_EQ(first.written, 1);
  for (const Op& op : ops) EXPECT_EQ(op.written, 1);
  EXPECT_EQ(overlaps.load(), 0);
  absl::MutexLock lock(&mu);
  ASSERT_FALSE(batch_sizes.empty());
  EXPECT_EQ(batch_sizes.front(), 1u);
  EXPECT_EQ(*std::max_element(batch_sizes.begin(), batch_sizes.end()),
            kMaxBatch);
  size_t total = 0;
  for (size_t n : batch_sizes) total += n;
  EXPECT_EQ(total, static_cast<size_t>(kWaiters) + 1);
}

TEST(GroupCommitTest, ALoneCallerWritesItsOwnBatch) {
  GroupCommit<Op> queue(0);  // treated as 1
  Op op;
  int batches = 0;
  queue.Run(op, [&](absl::Span<Op* const> batch) {
    ++batches;
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_EQ(batch[0], &op);
    ++batch[0]->written;
  });
  EXPECT_EQ(batches, 1);
  EXPECT_EQ(op.written, 1);
}

}  // namespace
}  // namespace dpq::server::storage
