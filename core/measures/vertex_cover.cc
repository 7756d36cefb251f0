#include "core/measures/vertex_cover.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/double_cover_matching.h"
#include "core/measures/graph_components.h"
#include "core/util/status_macros.h"

namespace dpq::core::measures {
namespace {

using graph::Graph;
using graph::NodeId;
using internal::Components;
using internal::DoubleCoverMatching;
using internal::kNoMate;

uint64_t CeilHalf(uint64_t doubled) { return (doubled + 1) / 2; }

// ---------------------------------------------------------------------------
// Degree-1 reductions and the greedy heuristic on the sparse graph.

class Peeler {
 public:
  explicit Peeler(const Graph& g)
      : g_(g), alive_(g.num_nodes(), 1), degree_(g.num_nodes()) {
    for (NodeId v = 0; v < g.num_nodes(); ++v) {
      degree_[v] = g.degree(v);
      if (degree_[v] == 1) degree_one_.push_back(v);
    }
  }

  // Applies the degree-1 rule until no node has degree 1 (each application
  // is safe: some minimum cover contains the neighbour of a degree-1 node),
  // then drops isolated nodes. Returns the number of nodes put into the
  // cover. O(n + m) over the object's lifetime.
  uint64_t ReduceDegreeOne() {
    uint64_t taken = 0;
    while (ApplyDegreeOneRule([&](NodeId) { ++taken; })) {
    }
    for (NodeId v = 0; v < g_.num_nodes(); ++v) {
      if (alive_[v] && degree_[v] == 0) alive_[v] = 0;
    }
    return taken;
  }

  // Finishes a cover greedily (degree-1 rule first, else a node of maximum
  // degree) and calls on_take(v) for every node put into it. O(n + m).
  template <typename F>
  void Greedy(F&& on_take) {
    buckets_.assign(g_.max_degree() + 1, {});
    for (NodeId v = 0; v < g_.num_nodes(); ++v) {
      if (alive_[v] && degree_[v] > 0) buckets_[degree_[v]].push_back(v);
    }
    uint32_t top = g_.max_degree();
    while (true) {
      if (ApplyDegreeOneRule(on_take)) continue;
      while (top > 0) {
        std::vector<NodeId>& bucket = buckets_[top];
        while (!bucket.empty() &&
               (!alive_[bucket.back()] || degree_[bucket.back()] != top)) {
          bucket.pop_back();
        }
        if (!bucket.empty()) break;
        --top;
      }
      if (top == 0) break;
      const NodeId v = buckets_[top].back();
      buckets_[top].pop_back();
      Remove(v);
      on_take(v);
    }
    buckets_.clear();
  }

  const std::vector<uint8_t>& alive() const { return alive_; }

 private:
  // Applies the degree-1 rule once if some node has degree 1; false if none
  // is left.
  template <typename F>
  bool ApplyDegreeOneRule(F&& on_take) {
    while (!degree_one_.empty()) {
      const NodeId v = degree_one_.back();
      degree_one_.pop_back();
      if (!alive_[v] || degree_[v] != 1) continue;
      for (NodeId u : g_.neighbors(v)) {
        if (!alive_[u]) continue;
        Remove(u);
        on_take(u);
        break;
      }
      alive_[v] = 0;  // now isolated
      return true;
    }
    return false;
  }

  void Remove(NodeId v) {
    alive_[v] = 0;
    for (NodeId w : g_.neighbors(v)) {
      if (!alive_[w]) continue;
      const uint32_t d = --degree_[w];
      if (d == 1) degree_one_.push_back(w);
      // Lazy deletion: the stale entry in the old bucket is skipped when
      // popped. Degrees only decrease, so there are O(m) entries in all.
      if (!buckets_.empty() && d > 0) buckets_[d].push_back(w);
    }
  }

  const Graph& g_;
  std::vector<uint8_t> alive_;
  std::vector<uint32_t> degree_;
  std::vector<NodeId> degree_one_;
  // Nodes by current degree, used during Greedy only.
  std::vector<std::vector<NodeId>> buckets_;
};

// ---------------------------------------------------------------------------
// Branch and bound on one component, as a dense bit matrix.

// A search budget shared by all components.
struct SearchBudget {
  uint64_t nodes_left;
  absl::Time deadline;
  uint64_t nodes_used = 0;
  bool out_of_nodes = false;
  bool past_deadline = false;
};

class ComponentSearch {
 public:
  // `nodes`: the component's nodes in ascending order; `active`: the nodes
  // of the reduced graph (the component's neighbours among them are inside
  // the component).
  ComponentSearch(const Graph& g, absl::Span<const NodeId> nodes,
                  absl::Span<const uint8_t> active)
      : k_(static_cast<uint32_t>(nodes.size())),
        words_((k_ + 63) / 64),
        adjacency_(static_cast<size_t>(k_) * words_, 0),
        degree_(k_) {
    for (uint32_t i = 0; i < k_; ++i) {
      for (NodeId w : g.neighbors(nodes[i])) {
        if (!active[w]) continue;
        const uint32_t j = static_cast<uint32_t>(
            std::lower_bound(nodes.begin(), nodes.end(), w) - nodes.begin());
        Set(Row(i), j);
      }
    }
  }

  struct Outcome {
    uint64_t lower;
    uint64_t upper;
    bool exact;
  };

  // Minimum cover of the component, given a known cover size `upper` (the
  // incumbent) and a known lower bound `lower`. Stops early, with bounds
  // only, when the budget runs out.
  Outcome Run(uint64_t lower, uint64_t upper, SearchBudget& budget) {
    best_ = upper;
    std::vector<Frame> stack(1);
    stack[0].alive.assign(words_, ~uint64_t{0});
    if (k_ % 64 != 0) stack[0].alive.back() = (uint64_t{1} << (k_ % 64)) - 1;
    stack[0].cost = 0;
    size_t depth = 1;
    bool at_root = true;
    Frame current;
    while (depth > 0 && best_ > lower) {
      if (budget.nodes_left == 0) {
        budget.out_of_nodes = true;
        break;
      }
      if ((budget.nodes_used & 1023) == 0 && absl::Now() >= budget.deadline) {
        budget.past_deadline = true;
        break;
      }
      --budget.nodes_left;
      ++budget.nodes_used;
      std::swap(current, stack[--depth]);
      Reduce(current);
      if (current.cost >= best_) continue;
      const uint32_t remaining = Count(current.alive.data());
      if (remaining == 0) {
        best_ = current.cost;
        continue;
      }
      uint64_t bound = current.cost + CliqueCoverBound(current.alive);
      if (bound < best_) {
        bound = std::max(bound, current.cost + CeilHalf(LpDoubled(current)));
      }
      if (at_root) {
        lower = std::max(lower, bound);
        at_root = false;
      }
      if (bound >= best_) continue;
      // Branch on a node v of maximum degree: some minimum cover contains v
      // or, if not, all of N(v).
      uint32_t v = 0;
      uint32_t v_degree = 0;
      ForEachBit(current.alive.data(), [&](uint32_t i) {
        if (degree_[i] > v_degree) {
          v_degree = degree_[i];
          v = i;
        }
      });
      if (stack.size() < depth + 2) stack.resize(depth + 2);
      Frame& take_neighbors = stack[depth++];
      take_neighbors.alive = current.alive;
      for (size_t w = 0; w < words_; ++w) {
        take_neighbors.alive[w] &= ~Row(v)[w];
      }
      Clear(take_neighbors.alive.data(), v);
      take_neighbors.cost = current.cost + v_degree;
      // Pushed last, so explored first: taking v is the greedy choice.
      Frame& take_v = stack[depth++];
      take_v.alive = current.alive;
      Clear(take_v.alive.data(), v);
      take_v.cost = current.cost + 1;
    }
    const bool exact = best_ <= lower || depth == 0;
    return Outcome{exact ? best_ : lower, best_, exact};
  }

 private:
  struct Frame {
    std::vector<uint64_t> alive;
    uint64_t cost = 0;
  };

  uint64_t* Row(uint32_t i) { return adjacency_.data() + size_t{i} * words_; }
  const uint64_t* Row(uint32_t i) const {
    return adjacency_.data() + size_t{i} * words_;
  }
  static bool Test(const uint64_t* s, uint32_t i) {
    return (s[i >> 6] >> (i & 63)) & 1;
  }
  static void Set(uint64_t* s, uint32_t i) {
    s[i >> 6] |= uint64_t{1} << (i & 63);
  }
  static void Clear(uint64_t* s, uint32_t i) {
    s[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  uint32_t Count(const uint64_t* s) const {
    uint32_t c = 0;
    for (size_t w = 0; w < words_; ++w) c += std::popcount(s[w]);
    return c;
  }
  uint32_t CountAnd(const uint64_t* a, const uint64_t* b) const {
    uint32_t c = 0;
    for (size_t w = 0; w < words_; ++w) c += std::popcount(a[w] & b[w]);
    return c;
  }
  template <typename F>
  void ForEachBit(const uint64_t* s, F&& f) const {
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t bits = s[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<uint32_t>(w * 64 + std::countr_zero(bits)));
      }
    }
  }
  template <typename F>
  void ForEachBitAnd(const uint64_t* a, const uint64_t* b, F&& f) const {
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t bits = a[w] & b[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<uint32_t>(w * 64 + std::countr_zero(bits)));
      }
    }
  }

  // Applies, to exhaustion, the reductions that keep some minimum cover:
  // degree 0 (drop), degree 1 (take the neighbour), degree 2 with adjacent
  // neighbours (take both: a triangle needs two of its nodes). Leaves
  // degree_ exact for the remaining nodes. O(k^2 / 64) per call.
  void Reduce(Frame& f) {
    uint64_t* alive = f.alive.data();
    worklist_.clear();
    ForEachBit(alive, [&](uint32_t i) {
      degree_[i] = CountAnd(Row(i), alive);
      if (degree_[i] <= 2) worklist_.push_back(i);
    });
    const auto remove = [&](uint32_t u) {
      Clear(alive, u);
      ForEachBitAnd(Row(u), alive, [&](uint32_t w) {
        if (--degree_[w] <= 2) worklist_.push_back(w);
      });
    };
    while (!worklist_.empty()) {
      const uint32_t i = worklist_.back();
      worklist_.pop_back();
      if (!Test(alive, i)) continue;
      if (degree_[i] == 0) {
        Clear(alive, i);
      } else if (degree_[i] == 1) {
        uint32_t u = 0;
        ForEachBitAnd(Row(i), alive, [&](uint32_t w) { u = w; });
        remove(u);
        ++f.cost;
        Clear(alive, i);
      } else if (degree_[i] == 2) {
        uint32_t a = k_, b = k_;
        ForEachBitAnd(Row(i), alive,
                      [&](uint32_t w) { (a == k_ ? a : b) = w; });
        if (Test(Row(a), b)) {
          remove(a);
          remove(b);
          f.cost += 2;
          Clear(alive, i);
        }
      }
    }
  }

  // Greedy clique cover of the alive nodes: a cover holds all but at most
  // one node of every clique, so it has >= (nodes - cliques) nodes. Tight
  // on complete multipartite graphs, where the LP bound is weak.
  // O(k * (cliques + k / 64)).
  uint64_t CliqueCoverBound(const std::vector<uint64_t>& alive) {
    uint32_t cliques = 0;
    uint32_t nodes = 0;
    ForEachBit(alive.data(), [&](uint32_t i) {
      ++nodes;
      for (uint32_t q = 0; q < cliques; ++q) {
        uint64_t* common = clique_pool_.data() + size_t{q} * words_;
        if (Test(common, i)) {
          for (size_t w = 0; w < words_; ++w) common[w] &= Row(i)[w];
          return;
        }
      }
      if (clique_pool_.size() < size_t{cliques + 1} * words_) {
        clique_pool_.resize(size_t{cliques + 1} * words_);
      }
      uint64_t* common = clique_pool_.data() + size_t{cliques} * words_;
      for (size_t w = 0; w < words_; ++w) common[w] = Row(i)[w] & alive[w];
      ++cliques;
    });
    return nodes - cliques;
  }

  // Twice the LP bound of the alive subgraph, via a compact copy in CSR
  // form. O(k^2 / 64 + m sqrt(k)).
  uint64_t LpDoubled(const Frame& f) {
    local_id_.assign(k_, 0);
    uint32_t a = 0;
    ForEachBit(f.alive.data(), [&](uint32_t i) { local_id_[i] = a++; });
    offsets_.assign(1, 0);
    targets_.clear();
    ForEachBit(f.alive.data(), [&](uint32_t i) {
      ForEachBitAnd(Row(i), f.alive.data(),
                    [&](uint32_t j) { targets_.push_back(local_id_[j]); });
      offsets_.push_back(static_cast<uint32_t>(targets_.size()));
    });
    const auto neighbors = [&](NodeId u) {
      return absl::MakeConstSpan(targets_.data() + offsets_[u],
                                 offsets_[u + 1] - offsets_[u]);
    };
    const std::vector<NodeId> mate = DoubleCoverMatching(a, neighbors, {});
    return static_cast<uint64_t>(std::count_if(
        mate.begin(), mate.end(), [](NodeId m) { return m != kNoMate; }));
  }

  const uint32_t k_;
  const size_t words_;
  std::vector<uint64_t> adjacency_;  // k_ rows of words_ words
  std::vector<uint32_t> degree_;
  std::vector<uint32_t> worklist_;
  std::vector<uint64_t> clique_pool_;
  std::vector<uint32_t> local_id_;
  std::vector<uint32_t> offsets_;
  std::vector<NodeId> targets_;
  uint64_t best_ = 0;
};

}  // namespace

absl::Status ValidateVertexCoverLimits(const VertexCoverLimits& limits) {
  if (limits.max_component_nodes < 1 ||
      limits.max_component_nodes > kMaxVertexCoverComponentNodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_component_nodes must be in [1, ", kMaxVertexCoverComponentNodes,
        "], but is ", limits.max_component_nodes, "."));
  }
  return absl::OkStatus();
}

uint64_t VertexCoverLpDoubled(const Graph& g) {
  const std::vector<NodeId> mate = DoubleCoverMatching(
      g.num_nodes(), [&g](NodeId u) { return g.neighbors(u); }, {});
  return static_cast<uint64_t>(std::count_if(
      mate.begin(), mate.end(), [](NodeId m) { return m != kNoMate; }));
}

std::vector<uint8_t> HalfIntegralLpSolution(const Graph& g,
                                            absl::Span<const uint8_t> active) {
  const uint32_t n = g.num_nodes();
  const auto is_active = [&](NodeId v) {
    return active.empty() || active[v] != 0;
  };
  std::vector<uint8_t> left_in_z;
  const std::vector<NodeId> mate_left = DoubleCoverMatching(
      n, [&g](NodeId u) { return g.neighbors(u); }, active, &left_in_z,
      /*closed=*/true);
  // Koenig: Z = the copies reached from the free left copies by
  // alternating paths (any edge left to right, the matching back); the
  // minimum cover of the double cover is (left copies outside Z) plus
  // (right copies in Z), one per matching edge. A right copy in Z is
  // matched (the matching is maximum) and its mate is then in Z; a matched
  // left copy in Z was reached through its mate. So the right copy of v is
  // in Z iff v's right copy is matched to a left copy in Z.
  std::vector<NodeId> mate_right(n, kNoMate);
  for (NodeId u = 0; u < n; ++u) {
    if (mate_left[u] != kNoMate) mate_right[mate_left[u]] = u;
  }
  std::vector<uint8_t> x2(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    if (!is_active(v)) continue;
    const bool right_in_z =
        mate_right[v] != kNoMate && left_in_z[mate_right[v]];
    x2[v] = static_cast<uint8_t>((left_in_z[v] ? 0 : 1) + (right_in_z ? 1 : 0));
  }
  return x2;
}

uint64_t GreedyVertexCoverSize(const Graph& g) {
  Peeler peeler(g);
  uint64_t size = 0;
  peeler.Greedy([&](NodeId) { ++size; });
  return size;
}

absl::StatusOr<VertexCoverResult> MinimumVertexCover(
    const Graph& g, const VertexCoverLimits& limits) {
  RETURN_IF_ERROR(ValidateVertexCoverLimits(limits));
  VertexCoverResult result;
  result.stable_greedy_size = graph::StableGreedyVertexCoverSize(g);
  result.lp_doubled = VertexCoverLpDoubled(g);

  // Degree-0/1 reductions on the whole graph: forests vanish here, and the
  // rest falls apart into the components that need real work.
  Peeler peeler(g);
  const uint64_t forced = peeler.ReduceDegreeOne();
  const std::vector<uint8_t> active = peeler.alive();
  const Components components = Components::Find(g, active);
  const uint32_t num_components = components.size();

  // Per component: LP bound on the reduced graph and greedy cover size.
  std::vector<uint64_t> lower(num_components, 0);
  std::vector<uint64_t> upper(num_components, 0);
  {
    const std::vector<NodeId> mate = DoubleCoverMatching(
        g.num_nodes(), [&g](NodeId u) { return g.neighbors(u); }, active);
    for (NodeId v = 0; v < g.num_nodes(); ++v) {
      if (mate[v] != kNoMate) ++lower[components.component_of(v)];
    }
    for (uint64_t& doubled : lower) doubled = CeilHalf(doubled);
    peeler.Greedy([&](NodeId v) { ++upper[components.component_of(v)]; });
  }

  // Smallest components first, so one hard component cannot starve the
  // many easy ones of the shared budget.
  std::vector<uint32_t> order(num_components);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return components.nodes(a).size() < components.nodes(b).size();
  });
  SearchBudget budget{limits.max_branch_nodes, limits.deadline};
  uint32_t num_inexact = 0;
  std::string first_reason;
  for (uint32_t c : order) {
    const uint32_t k = static_cast<uint32_t>(components.nodes(c).size());
    if (lower[c] == upper[c]) continue;
    if (std::optional<std::vector<uint32_t>> parts =
            internal::CompleteMultipartiteParts(g, components, c)) {
      lower[c] = upper[c] = k - *std::max_element(parts->begin(), parts->end());
      continue;
    }
    std::string reason;
    if (k > limits.max_component_nodes) {
      reason = absl::StrCat(
          "a component with ", k,
          " nodes exceeds max_component_nodes = ", limits.max_component_nodes);
    } else if (!budget.out_of_nodes && !budget.past_deadline &&
               absl::Now() >= budget.deadline) {
      budget.past_deadline = true;
    }
    if (reason.empty() && !budget.out_of_nodes && !budget.past_deadline) {
      ComponentSearch search(g, components.nodes(c), active);
      const ComponentSearch::Outcome outcome =
          search.Run(lower[c], upper[c], budget);
      lower[c] = outcome.lower;
      upper[c] = outcome.upper;
      if (outcome.exact) continue;
    }
    if (reason.empty()) {
      reason =
          budget.past_deadline
              ? std::string("the deadline passed")
              : absl::StrCat("the branch budget of ", limits.max_branch_nodes,
                             " nodes (max_branch_nodes) was used up");
    }
    if (num_inexact++ == 0) first_reason = std::move(reason);
  }

  uint64_t lower_sum = forced;
  uint64_t upper_sum = forced;
  for (uint32_t c = 0; c < num_components; ++c) {
    lower_sum += lower[c];
    upper_sum += upper[c];
  }
  result.branch_nodes = budget.nodes_used;
  result.lower_bound = std::max(lower_sum, CeilHalf(result.lp_doubled));
  result.upper_bound = std::min(upper_sum, result.stable_greedy_size);
  if (num_inexact == 0) {
    result.exact = upper_sum;
    result.lower_bound = result.upper_bound = upper_sum;
  } else {
    result.not_exact_reason = absl::StrCat(
        num_inexact, " of ", num_components,
        " components have bounds only; first: ", first_reason, ".");
  }
  return result;
}

uint64_t CoverLowerBound(const graph::Graph& g) {
  return (VertexCoverLpDoubled(g) + 1) / 2;
}

absl::StatusOr<uint64_t> ExactRepairOrExplain(const graph::Graph& g,
                                              const VertexCoverLimits& limits) {
  ASSIGN_OR_RETURN(const VertexCoverResult r, MinimumVertexCover(g, limits));
  if (r.exact.has_value()) return *r.exact;
  return absl::FailedPreconditionError(absl::StrCat(
      "The exact minimum repair (I_R) could not be proven within the solver's "
      "limits: ",
      r.not_exact_reason, " Bounds found: ", r.lower_bound,
      " <= I_R <= ", r.upper_bound,
      ". Register without exact_repair (buyers then get the cover_bound "
      "lower bound), or raise the limits."));
}

}  // namespace dpq::core::measures
