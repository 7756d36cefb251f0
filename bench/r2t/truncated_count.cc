#include "bench/r2t/truncated_count.h"

#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/status_macros.h"

namespace dpq::bench::r2t {
namespace {

using core::graph::Graph;
using core::graph::NodeId;

constexpr uint32_t kUnset = UINT32_MAX;

// Union-find with path halving and union by size, over all node ids.
class DisjointSets {
 public:
  explicit DisjointSets(uint32_t n) : parent_(n), size_(n, 1) {
    std::iota(parent_.begin(), parent_.end(), 0u);
  }
  uint32_t Find(uint32_t v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }
  void Union(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> size_;
};

// The edges with a heavy endpoint, grouped by connected component.
struct ReducedLp {
  uint64_t free_edges = 0;
  std::vector<std::vector<std::pair<NodeId, NodeId>>> components;
};

ReducedLp Reduce(const Graph& g, double tau) {
  ReducedLp r;
  const uint32_t n = g.num_nodes();
  auto heavy = [&](NodeId v) { return static_cast<double>(g.degree(v)) > tau; };
  DisjointSets sets(n);
  std::vector<std::pair<NodeId, NodeId>> lp_edges;
  g.ForEachEdge([&](NodeId u, NodeId v) {
    if (!heavy(u) && !heavy(v)) {
      ++r.free_edges;
      return;
    }
    lp_edges.emplace_back(u, v);
    sets.Union(u, v);
  });
  std::vector<uint32_t> component_of_root(n, kUnset);
  for (const auto& [u, v] : lp_edges) {
    const uint32_t root = sets.Find(u);
    if (component_of_root[root] == kUnset) {
      component_of_root[root] = static_cast<uint32_t>(r.components.size());
      r.components.emplace_back();
    }
    r.components[component_of_root[root]].emplace_back(u, v);
  }
  return r;
}

// Renumbers one component's nodes 0..k-1. `local_id` is shared across
// components (their node sets are disjoint), so it is never reset.
internal::ComponentLp MakeComponentLp(
    const Graph& g, double tau,
    const std::vector<std::pair<NodeId, NodeId>>& edges,
    std::vector<uint32_t>& local_id) {
  internal::ComponentLp lp;
  auto local = [&](NodeId v) {
    if (local_id[v] == kUnset) {
      local_id[v] = lp.num_nodes++;
      // A light node's cap is its degree in G: never binding, kept only so
      // that both solvers see the same LP.
      const double degree = static_cast<double>(g.degree(v));
      lp.capacity.push_back(degree > tau ? tau : degree);
    }
    return local_id[v];
  };
  lp.edges.reserve(edges.size());
  for (const auto& [u, v] : edges) lp.edges.emplace_back(local(u), local(v));
  return lp;
}

}  // namespace

absl::StatusOr<LpSolver> ParseLpSolver(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "glpk") return LpSolver::kGlpk;
  if (lower == "flow") return LpSolver::kMaxFlow;
  return absl::InvalidArgumentError(
      absl::StrCat("LP solver must be 'glpk' or 'flow', but is '", text, "'."));
}

absl::string_view LpSolverName(LpSolver solver) {
  return solver == LpSolver::kGlpk ? "glpk" : "flow";
}

absl::StatusOr<TruncatedCount> TruncatedEdgeCount(const Graph& g, double tau,
                                                  LpSolver solver) {
  if (!std::isfinite(tau) || tau <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Truncation threshold tau must be finite and positive, but is ", tau,
        "."));
  }
  const absl::Time start = absl::Now();
  TruncatedCount result;
  ReducedLp reduced = Reduce(g, tau);
  result.stats.free_edges = reduced.free_edges;
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    if (static_cast<double>(g.degree(v)) > tau) ++result.stats.heavy_nodes;
  }
  double value = static_cast<double>(reduced.free_edges);
  std::vector<uint32_t> local_id(g.num_nodes(), kUnset);
  for (const auto& edges : reduced.components) {
    const internal::ComponentLp lp = MakeComponentLp(g, tau, edges, local_id);
    result.stats.lp_edges += lp.edges.size();
    ++result.stats.lp_components;
    result.stats.largest_lp_edges =
        std::max<uint64_t>(result.stats.largest_lp_edges, lp.edges.size());
    if (solver == LpSolver::kGlpk) {
      ASSIGN_OR_RETURN(const double v, internal::SolveWithGlpk(lp));
      value += v;
    } else {
      value += internal::SolveWithMaxFlow(lp);
    }
  }
  // Never above |E| (LP round-off).
  result.value = std::min(value, static_cast<double>(g.num_edges()));
  result.stats.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return result;
}

}  // namespace dpq::bench::r2t
