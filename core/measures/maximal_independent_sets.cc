#include "core/measures/maximal_independent_sets.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/graph/graph.h"
#include "core/measures/graph_components.h"
#include "core/util/status_macros.h"

namespace dpq::core::measures {
namespace {

using graph::Graph;
using graph::NodeId;
using internal::Components;

// Counts the maximal independent sets of one component by Bron-Kerbosch
// with Tomita pivoting on the complement ("compatibility") relation: two
// tuples are compatible when they do not conflict. All sets are bitsets of
// words_ words over the component's local ids.
class MisCounter {
 public:
  // Shares `steps_left` (decremented per search-tree node) across components.
  MisCounter(const Graph& g, absl::Span<const NodeId> nodes,
             uint64_t& steps_left, absl::Time deadline)
      : k_(static_cast<uint32_t>(nodes.size())),
        words_((k_ + 63) / 64),
        compatible_(size_t{k_} * words_, 0),
        pool_(size_t{k_ + 2} * 3 * words_, 0),
        steps_left_(steps_left),
        deadline_(deadline) {
    // Start from "compatible with every other node", then clear conflicts.
    for (uint32_t i = 0; i < k_; ++i) {
      uint64_t* row = Row(i);
      for (uint32_t j = 0; j < k_; ++j) {
        if (j != i) Set(row, j);
      }
      for (NodeId w : g.neighbors(nodes[i])) {
        const uint32_t j = static_cast<uint32_t>(
            std::lower_bound(nodes.begin(), nodes.end(), w) - nodes.begin());
        Clear(row, j);
      }
    }
  }

  // The count, or kFailedPrecondition/kDeadlineExceeded when a limit is hit.
  absl::StatusOr<uint64_t> Count() {
    uint64_t* p = Candidates(0);
    for (uint32_t i = 0; i < k_; ++i) Set(p, i);
    std::fill(Excluded(0), Excluded(0) + words_, 0);
    const uint64_t count = Expand(0);
    if (!status_.ok()) return status_;
    return count;
  }

 private:
  // Slices of pool_ for recursion depth d: P (nodes that may still join),
  // X (nodes that may not, but whose absence a maximal set must justify),
  // and the branching candidates.
  uint64_t* Candidates(uint32_t d) { return pool_.data() + (3 * d) * words_; }
  uint64_t* Excluded(uint32_t d) { return pool_.data() + (3 * d + 1) * words_; }
  uint64_t* Branch(uint32_t d) { return pool_.data() + (3 * d + 2) * words_; }
  const uint64_t* Row(uint32_t i) const {
    return compatible_.data() + size_t{i} * words_;
  }
  uint64_t* Row(uint32_t i) { return compatible_.data() + size_t{i} * words_; }
  static void Set(uint64_t* s, uint32_t i) {
    s[i >> 6] |= uint64_t{1} << (i & 63);
  }
  static void Clear(uint64_t* s, uint32_t i) {
    s[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  bool Empty(const uint64_t* s) const {
    for (size_t w = 0; w < words_; ++w) {
      if (s[w] != 0) return false;
    }
    return true;
  }

  // Number of maximal independent sets that extend the current set R
  // (implicit: the nodes chosen on the path to depth d) using nodes of P,
  // and that contain no node of X. Depth <= k_, since R grows each level.
  uint64_t Expand(uint32_t d) {
    if (steps_left_ == 0) {
      status_ = absl::FailedPreconditionError(
          "I_MC enumeration exceeded its step limit (max_steps); counting "
          "maximal independent sets is #P-complete, so it is computed only "
          "for small conflict graphs.");
      return 0;
    }
    --steps_left_;
    if ((++steps_ & 1023) == 0 && absl::Now() >= deadline_) {
      status_ = absl::DeadlineExceededError(
          "I_MC enumeration stopped at the deadline.");
      return 0;
    }
    uint64_t* p = Candidates(d);
    uint64_t* x = Excluded(d);
    if (Empty(p)) return Empty(x) ? 1 : 0;  // R is maximal iff X is empty
    // Tomita pivot: u in P or X with the most compatible nodes in P; only
    // nodes of P incompatible with u (or u itself) need to be branched on,
    // since every maximal set contains u or one of them.
    uint32_t pivot = 0;
    int best = -1;
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t bits = p[w] | x[w]; bits != 0; bits &= bits - 1) {
        const uint32_t u =
            static_cast<uint32_t>(w * 64 + std::countr_zero(bits));
        int common = 0;
        for (size_t v = 0; v < words_; ++v) {
          common += std::popcount(p[v] & Row(u)[v]);
        }
        if (common > best) {
          best = common;
          pivot = u;
        }
      }
    }
    uint64_t* branch = Branch(d);
    for (size_t w = 0; w < words_; ++w) branch[w] = p[w] & ~Row(pivot)[w];
    uint64_t count = 0;
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t bits = branch[w]; bits != 0; bits &= bits - 1) {
        const uint32_t v =
            static_cast<uint32_t>(w * 64 + std::countr_zero(bits));
        uint64_t* child_p = Candidates(d + 1);
        uint64_t* child_x = Excluded(d + 1);
        for (size_t i = 0; i < words_; ++i) {
          child_p[i] = p[i] & Row(v)[i];
          child_x[i] = x[i] & Row(v)[i];
        }
        count += Expand(d + 1);
        if (!status_.ok()) return 0;
        Clear(p, v);
        Set(x, v);
      }
    }
    return count;
  }

  const uint32_t k_;
  const size_t words_;
  std::vector<uint64_t> compatible_;  // k_ rows of words_ words
  std::vector<uint64_t> pool_;        // 3 bitsets per recursion depth
  uint64_t& steps_left_;
  const absl::Time deadline_;
  uint64_t steps_ = 0;
  absl::Status status_;
};

}  // namespace

absl::Status ValidateMaximalIndependentSetLimits(
    const MaximalIndependentSetLimits& limits) {
  if (limits.max_component_nodes < 1 ||
      limits.max_component_nodes > kMaxMisComponentNodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_component_nodes must be in [1, ", kMaxMisComponentNodes,
        "], but is ", limits.max_component_nodes, "."));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> CountMaximalIndependentSets(
    const Graph& g, const MaximalIndependentSetLimits& limits) {
  RETURN_IF_ERROR(ValidateMaximalIndependentSetLimits(limits));
  const Components components = Components::Find(g);

  // First pass, cheap: closed forms, and refuse oversized components before
  // any exponential work starts.
  uint64_t count = 1;
  bool overflow = false;
  std::vector<uint32_t> to_enumerate;
  uint32_t largest_refused = 0;
  for (uint32_t c = 0; c < components.size(); ++c) {
    const uint32_t k = static_cast<uint32_t>(components.nodes(c).size());
    if (k == 1) continue;
    if (std::optional<std::vector<uint32_t>> parts =
            internal::CompleteMultipartiteParts(g, components, c)) {
      overflow |= __builtin_mul_overflow(count, parts->size(), &count);
    } else if (k > limits.max_component_nodes) {
      largest_refused = std::max(largest_refused, k);
    } else {
      to_enumerate.push_back(c);
    }
  }
  if (largest_refused > 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "I_MC is computed only for small conflict graphs: a component with ",
        largest_refused, " nodes exceeds the limit of ",
        limits.max_component_nodes,
        " (max_component_nodes; counting maximal independent sets is "
        "#P-complete)."));
  }
  uint64_t steps_left = limits.max_steps;
  for (uint32_t c : to_enumerate) {
    // No point in spending the budget once the count cannot be represented.
    if (overflow) break;
    // The counter checks the clock only every 1024 steps; many small
    // components must not slip past the deadline either.
    if (absl::Now() >= limits.deadline) {
      return absl::DeadlineExceededError(
          "I_MC enumeration stopped at the deadline.");
    }
    MisCounter counter(g, components.nodes(c), steps_left, limits.deadline);
    ASSIGN_OR_RETURN(const uint64_t component_count, counter.Count());
    overflow |= __builtin_mul_overflow(count, component_count, &count);
  }
  if (overflow) {
    return absl::OutOfRangeError(
        "I_MC does not fit in 64 bits: the conflict graph has more than "
        "2^64 - 1 maximal consistent subsets.");
  }
  return count;
}

}  // namespace dpq::core::measures
