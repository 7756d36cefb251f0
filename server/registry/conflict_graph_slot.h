// The conflict graph of one dataset version, built once (at registration,
// or in the background after a server start, so no buyer pays for it;
// docs/service.md, "Conflict graphs are built at registration") and
// waited for by the releases that need it.
//
// A slot belongs to exactly one LoadedDataset version: a replaced or
// deleted version's graph can never answer for another version, because
// the new version has its own slot.
#ifndef DPQ_SERVER_REGISTRY_CONFLICT_GRAPH_SLOT_H_
#define DPQ_SERVER_REGISTRY_CONFLICT_GRAPH_SLOT_H_

#include <functional>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/degree_bound.h"

namespace dpq::server::registry {

// What a finished build holds: the graph and the degree bounds of the
// optimized threshold selection.
struct ConflictGraphData {
  core::graph::ConflictGraph graph;
  std::vector<core::private_measures::DcDegreeBound> degree_bounds;
  // private_measures::ComputeCoverBound of the table: what cover_bound
  // releases (with noise), computed with the graph so every release of
  // this version reuses it.
  uint64_t cover_bound = 0;
};

// What registration recorded of a version's graph (state.txt, and its copy
// in the catalog): a rebuild after a start or on another replica must
// reproduce it (CheckRebuild in dataset_builder.h). An empty field was not
// recorded (a version stored before it was).
struct RecordedGraph {
  std::optional<uint64_t> edges;
  std::optional<uint64_t> cover_bound;
  std::optional<std::vector<core::private_measures::DcDegreeBound>>
      degree_bounds;
  // Whether degree_bounds includes the cross-keyed bounds (VersionState).
  bool cross_bounds_recorded = false;

  bool complete() const {
    return edges.has_value() && cover_bound.has_value() &&
           degree_bounds.has_value() && cross_bounds_recorded;
  }
};

// Thread-safe. States: pending -> building -> ready | failed, or
// pending -> cancelled (the version was replaced or deleted before its
// build started: nobody current needs it any more). A failed slot is a
// version this replica refuses (DatasetRegistry::Get): a registration
// never publishes one, so only a rebuild that failed or did not reproduce
// the recorded graph fails it; dpq_datasets_refused counts them while
// they live.
class ConflictGraphSlot {
 public:
  enum class State { kPending, kBuilding, kReady, kFailed, kCancelled };

  ConflictGraphSlot() = default;
  ConflictGraphSlot(const ConflictGraphSlot&) = delete;
  ConflictGraphSlot& operator=(const ConflictGraphSlot&) = delete;
  ~ConflictGraphSlot();

  // pending -> building. False if the slot was cancelled (skip the build).
  bool TryStart() ABSL_LOCKS_EXCLUDED(mu_);
  // building -> ready / failed; wakes every waiter. `error` is for the
  // operator and admins (error()), never for buyers.
  void SetReady(ConflictGraphData data) ABSL_LOCKS_EXCLUDED(mu_);
  void SetFailed(absl::Status error) ABSL_LOCKS_EXCLUDED(mu_);
  // pending -> cancelled with `reason` (kAborted); no effect otherwise (a
  // running build finishes, and requests that hold this version get it).
  void Cancel(absl::Status reason) ABSL_LOCKS_EXCLUDED(mu_);

  // Blocks until the graph is ready, then returns it (valid as long as the
  // slot lives). Releases call it after their reservation, so every error
  // says the charge stands (never "nothing was charged").
  // kDeadlineExceeded once `deadline` passes, kCancelled once
  // `cancelled` returns true (polled every 50 ms), kUnavailable without
  // the cause if it failed (the charge stands; a retry with the same
  // request_id resumes it where the dataset is served), the cancel reason
  // if the slot was cancelled.
  absl::StatusOr<const ConflictGraphData*> Wait(
      absl::Time deadline,
      const std::function<bool()>& cancelled = nullptr) const
      ABSL_LOCKS_EXCLUDED(mu_);

  State state() const ABSL_LOCKS_EXCLUDED(mu_);
  // The data if ready, else nullptr. Never blocks.
  const ConflictGraphData* ready_data() const ABSL_LOCKS_EXCLUDED(mu_);
  // The build's error if it failed or was cancelled, else OK.
  absl::Status error() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable absl::Mutex mu_;
  mutable absl::CondVar changed_;
  State state_ ABSL_GUARDED_BY(mu_) = State::kPending;
  std::optional<ConflictGraphData> data_ ABSL_GUARDED_BY(mu_);
  absl::Status error_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_CONFLICT_GRAPH_SLOT_H_
