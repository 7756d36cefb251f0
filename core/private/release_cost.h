// The cost class of a dataset's releases (docs/security.md, "Cost of a
// release"): fixed at registration from its conflict graph's size and
// recorded with the version (state.txt), so that a server decides how to
// admit a release's computation from what the owner saw at registration,
// never from anything computed at request time. The class depends on the
// data (the edge count), so the service reads it only after a release's
// charge (docs/privacy.md, "What timing shows").
#ifndef DPQ_CORE_PRIVATE_RELEASE_COST_H_
#define DPQ_CORE_PRIVATE_RELEASE_COST_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "core/private/measure_release.h"

namespace dpq::core::private_measures {

enum class ReleaseCost {
  kLight,  // at most kHeavyReleaseEdges edges
  kHeavy,  // more: one flow sweep takes seconds and up to 52 bytes per arc
};

// Graphs with more edges than this are heavy: a flow sweep over a
// million-edge network takes about a second and at most about 100 MB
// (graph/max_flow.h: two arcs per edge, 52 bytes each at the peak), so
// below it a release's computation is not worth queueing.
inline constexpr uint64_t kHeavyReleaseEdges = 1'000'000;

ReleaseCost ReleaseCostOf(uint64_t edges);

// "light" or "heavy"; ParseReleaseCost is its inverse (nullopt otherwise).
absl::string_view ReleaseCostName(ReleaseCost cost);
std::optional<ReleaseCost> ParseReleaseCost(absl::string_view name);

// True if `release` computes on the conflict graph at request time: I_MI
// and I_P (every method runs flows or projections) and I_R by
// vertex_cover. False for I_R by cover_bound or exact, whose statistic was
// computed at registration, and for the row count. Public: it reads the
// checked request only.
bool ComputesOnGraph(const MeasureRelease& release);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_RELEASE_COST_H_
