// Group commit: concurrent callers' writes carried by one transaction.
//
// Each caller queues its operation and waits; the first caller that finds
// no batch being written becomes the writer: it takes everything queued so
// far (up to max_batch, in order), writes it with one call of `write`, and
// wakes the callers it carried. Callers queued meanwhile form the next
// batch. Used by the PostgreSQL ledger (postgres_ledger_store.h), where one
// transaction per batch means one round trip, one WAL flush, and one turn
// at the row locks that concurrent reservations of one buyer queue on.
//
//   GroupCommit<Op> queue(64);
//   queue.Run(op, [&](absl::Span<Op* const> batch) { ... set results ... });
//
// Thread-safe. `write` runs on the calling thread without the queue's
// lock held; it must set every op's result before returning.
#ifndef DPQ_SERVER_STORAGE_GROUP_COMMIT_H_
#define DPQ_SERVER_STORAGE_GROUP_COMMIT_H_

#include <algorithm>
#include <cstddef>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"

namespace dpq::server::storage {

template <typename Op>
class GroupCommit {
 public:
  explicit GroupCommit(size_t max_batch)
      : max_batch_(std::max<size_t>(1, max_batch)) {}
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  // Returns once a batch carrying `op` has been written, by this caller or
  // by another.
  void Run(Op& op, absl::FunctionRef<void(absl::Span<Op* const>)> write)
      ABSL_LOCKS_EXCLUDED(mu_) {
    Slot slot{&op, false, this};
    mu_.Lock();
    queue_.push_back(&slot);
    while (true) {
      mu_.Await(absl::Condition(&DoneOrNoWriter, &slot));
      if (slot.done) break;
      // No batch is being written and ours is queued: write the next one
      // (the queue is served in order, so it carries ours once it is
      // among the first max_batch).
      writing_ = true;
      const size_t n = std::min(queue_.size(), max_batch_);
      std::vector<Slot*> slots(queue_.begin(), queue_.begin() + n);
      queue_.erase(queue_.begin(), queue_.begin() + n);
      mu_.Unlock();
      std::vector<Op*> batch;
      batch.reserve(n);
      for (Slot* s : slots) batch.push_back(s->op);
      write(batch);
      mu_.Lock();
      for (Slot* s : slots) s->done = true;
      writing_ = false;
    }
    mu_.Unlock();
  }

 private:
  struct Slot {
    Op* op;
    bool done;  // guarded by mu_
    GroupCommit* queue;
  };
  // Await's condition, evaluated with mu_ held.
  static bool DoneOrNoWriter(Slot* slot) ABSL_NO_THREAD_SAFETY_ANALYSIS {
    return slot->done || !slot->queue->writing_;
  }

  const size_t max_batch_;
  absl::Mutex mu_;
  std::vector<Slot*> queue_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_GROUP_COMMIT_H_
