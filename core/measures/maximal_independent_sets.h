// The maximal consistency measure I_MC: the number of maximal consistent
// subsets, i.e. of maximal independent sets of the conflict graph (paper
// Table 2; #P-complete in general). Counted exactly for small conflict
// graphs only; otherwise a clear error (docs/core.md "Exact measures").
#ifndef DPQ_CORE_MEASURES_MAXIMAL_INDEPENDENT_SETS_H_
#define DPQ_CORE_MEASURES_MAXIMAL_INDEPENDENT_SETS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/graph/graph.h"

namespace dpq::core::measures {

// Largest accepted MaximalIndependentSetLimits::max_component_nodes.
inline constexpr uint32_t kMaxMisComponentNodes = 4096;

struct MaximalIndependentSetLimits {
  // Connected components with more nodes than this are refused, unless
  // they are complete multipartite (counted in closed form at any size).
  // At most kMaxMisComponentNodes.
  uint32_t max_component_nodes = 60;
  // Enumeration steps (search-tree nodes) allowed in total, over all
  // components. A graph of k nodes can have 3^(k/3) maximal independent
  // sets (Moon-Moser), so this, not the size limit, bounds the time.
  uint64_t max_steps = 10'000'000;
  // The count fails with kDeadlineExceeded once this time has passed.
  absl::Time deadline = absl::InfiniteFuture();
};

// kInvalidArgument if max_component_nodes is outside
// [1, kMaxMisComponentNodes]. O(1).
absl::Status ValidateMaximalIndependentSetLimits(
    const MaximalIndependentSetLimits& limits);

// I_MC of paper Def. 1 as the paper uses it: |MC|, without the "-1" of
// Livshits et al. (paper footnote 1). So a consistent database, and the
// empty one, has I_MC = 1.
//
// The count is the product over connected components of the count per
// component (isolated nodes contribute a factor 1). A complete multipartite
// component contributes its number of parts; any other component is
// enumerated by Bron-Kerbosch with Tomita pivoting on the complement
// relation (maximal independent sets of g = maximal cliques of its
// complement), in O(3^(k/3)) steps for k nodes.
//
// Errors: kFailedPrecondition when a component exceeds
// limits.max_component_nodes (the message names the largest one) or the
// enumeration exceeds limits.max_steps; kOutOfRange when the count does
// not fit in 64 bits; kDeadlineExceeded past limits.deadline;
// kInvalidArgument for invalid limits.
// Time O(n + m) plus the enumeration, at most
// O(limits.max_steps * k^2 / 64) for the largest component of k nodes.
absl::StatusOr<uint64_t> CountMaximalIndependentSets(
    const graph::Graph& g, const MaximalIndependentSetLimits& limits = {});

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_MAXIMAL_INDEPENDENT_SETS_H_
