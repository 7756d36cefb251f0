#include "core/measures/clique_lp_bound.h"

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/measures/certified_packing_lp.h"
#include "core/measures/double_cover_matching.h"
#include "core/measures/graph_components.h"
#include "core/measures/vertex_cover.h"
#include "core/util/parallel_for.h"
#include "core/util/status_macros.h"

namespace dpq::core::measures {
namespace {

using graph::ChainFamily;
using graph::CliqueFamily;
using graph::Graph;
using graph::NodeId;

// Half-row subgraphs with fewer edges have their component LPs solved on
// one thread (starting threads costs more than it saves there).
constexpr uint64_t kParallelEdges = 200'000;
// At most this many threads.
constexpr int kMaxWorkers = 8;

// A non-negative 128-bit integer as a GMP integer (exact).
mpz_class ToMpz(__int128 v) {
  const auto u = static_cast<unsigned __int128>(v);
  mpz_class high(static_cast<unsigned long>(u >> 64));  // NOLINT(runtime/int)
  mpz_class low(static_cast<unsigned long>(u));         // NOLINT(runtime/int)
  return (high << 64) + low;
}

// The subgraph of `g` induced by `rows` (ascending), row rows[i] as node
// i. `position` has one entry per node of `g`, all kNoPosition: the
// scratch that renumbers the rows, left as it was found (so one serves
// many calls: a component at a time).
constexpr uint32_t kNoPosition = UINT32_MAX;
Graph InducedSubgraph(const Graph& g, absl::Span<const NodeId> rows,
                      std::vector<uint32_t>& position) {
  for (size_t i = 0; i < rows.size(); ++i) {
    position[rows[i]] = static_cast<uint32_t>(i);
  }
  std::vector<graph::Edge> edges;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (NodeId v : g.neighbors(rows[i])) {
      // Ascending rows and neighbours, renumbered in order: sorted and
      // unique.
      if (v > rows[i] && position[v] != kNoPosition) {
        edges.emplace_back(static_cast<NodeId>(i), position[v]);
      }
    }
  }
  for (NodeId v : rows) position[v] = kNoPosition;
  return Graph::FromSortedUniqueEdges(static_cast<uint32_t>(rows.size()),
                                      edges);
}

// Each family restricted to `rows` (ascending), indexed by position:
// FdCliqueFamiliesOfRows's and OrderChainFamiliesOfRows's form. Families
// with no member among the rows are dropped.
CliqueConstraints FamiliesOfRows(const CliqueConstraints& families,
                                 absl::Span<const NodeId> rows) {
  CliqueConstraints out;
  for (const CliqueFamily& f : families.blocks) {
    CliqueFamily r;
    r.description = f.description;
    r.num_blocks = f.num_blocks;
    r.num_parts = f.num_parts;
    r.block.reserve(rows.size());
    r.part.reserve(rows.size());
    bool any = false;
    for (NodeId v : rows) {
      r.block.push_back(f.block[v]);
      r.part.push_back(f.part[v]);
      any = any || f.block[v] != CliqueFamily::kNone;
    }
    if (any) out.blocks.push_back(std::move(r));
  }
  for (const ChainFamily& f : families.chains) {
    ChainFamily r;
    r.description = f.description;
    r.arity = f.arity;
    r.strict = f.strict;
    r.group.reserve(rows.size());
    r.keys.reserve(rows.size() * f.arity);
    bool any = false;
    for (NodeId v : rows) {
      r.group.push_back(f.group[v]);
      any = any || f.group[v] != ChainFamily::kNone;
      const auto key = f.keys.begin() + static_cast<ptrdiff_t>(v) * f.arity;
      r.keys.insert(r.keys.end(), key, key + f.arity);
    }
    if (any) out.chains.push_back(std::move(r));
  }
  return out;
}

// The block of `f` holding u and v in different parts, if any.
bool SameBlockOtherPart(const CliqueFamily& f, NodeId u, NodeId v) {
  return f.block[u] != CliqueFamily::kNone && f.block[u] == f.block[v] &&
         f.part[u] != f.part[v];
}

// True if one block holds the clique `nodes` in pairwise different parts
// (its constraint is then already one of that block's).
bool HeldByOneBlock(const std::vector<CliqueFamily>& families,
                    std::initializer_list<NodeId> nodes) {
  for (const CliqueFamily& f : families) {
    bool held = true;
    for (auto a = nodes.begin(); held && a != nodes.end(); ++a) {
      for (auto b = a + 1; held && b != nodes.end(); ++b) {
        held = SameBlockOtherPart(f, *a, *b);
      }
    }
    if (held) return true;
  }
  return false;
}

// Rows for the blocks of every family within the component: y_v <= z_p for
// v in a part p of two or more nodes, sum_p z_p <= 1 per block (a part of
// one node uses its y_v as z_p).
void AddBlockRows(const std::vector<CliqueFamily>& families,
                  absl::Span<const NodeId> nodes, CertifiedPackingLp& lp) {
  for (const CliqueFamily& f : families) {
    std::vector<uint32_t> block_order;
    absl::flat_hash_map<uint32_t, std::vector<uint32_t>> parts_of_block;
    absl::flat_hash_map<uint32_t, std::vector<int>> members;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const NodeId v = nodes[i];
      if (f.block[v] == CliqueFamily::kNone) continue;
      std::vector<int>& m = members[f.part[v]];
      if (m.empty()) {
        std::vector<uint32_t>& parts = parts_of_block[f.block[v]];
        if (parts.empty()) block_order.push_back(f.block[v]);
        parts.push_back(f.part[v]);
      }
      m.push_back(static_cast<int>(i + 1));
    }
    for (uint32_t block : block_order) {
      std::vector<std::pair<int, int32_t>> sum;
      for (uint32_t p : parts_of_block[block]) {
        const std::vector<int>& m = members[p];
        if (m.size() == 1) {
          sum.emplace_back(m[0], 1);
          continue;
        }
        const int z = lp.AddColumns(1, /*objective=*/0);
        for (int y : m) lp.AddRow({{y, 1}, {z, -1}}, 0);
        sum.emplace_back(z, 1);
      }
      lp.AddRow(sum, 1);
    }
  }
}

// The triangles of the component whose exact y-sum is at least 1 and that
// are neither in the LP nor inside one block, and whether one of them
// exceeds 1 (then y violates the LP over all triangles). y_v is
// y.numerators[v] / y.denominator, exactly, so no rounding decides
// either. Enumerated from each triangle's node u of largest y (ties:
// smallest id), which is at least 1/3 of the sum.
struct TriangleCuts {
  std::vector<std::array<uint32_t, 3>> triangles;
  bool any_violated = false;
};
TriangleCuts TightTriangles(
    const Graph& g, absl::Span<const NodeId> nodes,
    const std::vector<CliqueFamily>& families, const ScaledIntegers& y,
    const absl::flat_hash_set<std::array<uint32_t, 3>>& added) {
  // Numerators are at most the denominator, below 2^46: sums of three fit.
  const std::vector<int64_t>& n = y.numerators;
  const int64_t one = y.denominator;
  auto before = [&](uint32_t a, uint32_t b) {
    return n[a] > n[b] || (n[a] == n[b] && a < b);
  };
  TriangleCuts out;
  for (uint32_t u = 0; u < g.num_nodes(); ++u) {
    if (3 * n[u] < one) continue;
    // Neighbours ranked after u, by falling y: a pair's sum can only fall.
    std::vector<uint32_t> next;
    for (NodeId v : g.neighbors(u)) {
      if (before(u, v)) next.push_back(v);
    }
    std::sort(next.begin(), next.end(),
              [&](uint32_t a, uint32_t b) { return before(a, b); });
    for (size_t i = 0; i < next.size(); ++i) {
      const uint32_t v = next[i];
      if (n[u] + 2 * n[v] < one) break;
      const auto nv = g.neighbors(v);
      for (size_t j = i + 1; j < next.size(); ++j) {
        const uint32_t w = next[j];
        const int64_t sum = n[u] + n[v] + n[w];
        if (sum < one) break;
        if (!std::binary_search(nv.begin(), nv.end(), w)) continue;
        std::array<uint32_t, 3> t = {u, v, w};
        std::sort(t.begin(), t.end());
        // Most tight triangles lie in one block: checked first, by array
        // lookups, before the hash set. Both kinds are rows the solution
        // satisfies, so neither can be the violated one.
        if (HeldByOneBlock(families, {nodes[t[0]], nodes[t[1]], nodes[t[2]]}) ||
            added.contains(t)) {
          continue;
        }
        out.triangles.push_back(t);
        out.any_violated = out.any_violated || sum > one;
      }
    }
  }
  return out;
}

// Sorts the component's nodes `order` (local ids, row nodes[i]) by f's
// group, then keys, then id: a linear extension of R, since R(u, v) puts
// u's keys at most v's, all equal only where R holds both ways.
void SortByKeys(const ChainFamily& f, absl::Span<const NodeId> nodes,
                std::vector<uint32_t>& order) {
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const NodeId ra = nodes[a], rb = nodes[b];
    if (f.group[ra] != f.group[rb]) return f.group[ra] < f.group[rb];
    for (uint32_t j = 0; j < f.arity; ++j) {
      const int64_t ka = f.keys[static_cast<size_t>(ra) * f.arity + j];
      const int64_t kb = f.keys[static_cast<size_t>(rb) * f.arity + j];
      if (ka != kb) return ka < kb;
    }
    return a < b;
  });
}

// The minimum vertex cover of a component whose every edge one chain
// family's R explains (R(u, v) or R(v, u)), or nullopt if no family does.
// The component is then the comparability graph of R (R implies a
// conflict), a perfect graph: its clique constraints, which are the
// chains, describe its stable-set polytope (Lovasz; Chvatal), so the LP
// optimum is the stability number alpha and the cover LP is |nodes| -
// alpha, the same value the simplex would certify. By Dilworth (Fulkerson's
// form), alpha = the fewest chains covering the nodes = |nodes| - a maximum
// matching of the bipartite graph that joins u to v for each edge with u
// before v in the linear extension (R transitive): so the cover is that
// matching's size, an integer found without an LP.
std::optional<uint32_t> ComparabilityCover(
    const Graph& g, absl::Span<const NodeId> nodes,
    const std::vector<ChainFamily>& chains) {
  for (const ChainFamily& f : chains) {
    bool explains = true;
    for (uint32_t u = 0; explains && u < g.num_nodes(); ++u) {
      for (NodeId v : g.neighbors(u)) {
        if (v > u && !f.Precedes(nodes[u], nodes[v]) &&
            !f.Precedes(nodes[v], nodes[u])) {
          explains = false;
          break;
        }
      }
    }
    if (!explains) continue;
    std::vector<uint32_t> order(g.num_nodes());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    SortByKeys(f, nodes, order);
    std::vector<uint32_t> rank(g.num_nodes());
    for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    std::vector<uint32_t> offsets = {0};
    std::vector<NodeId> later;  // per node, its neighbours after it, ascending
    for (uint32_t u = 0; u < g.num_nodes(); ++u) {
      for (NodeId v : g.neighbors(u)) {
        if (rank[v] > rank[u]) later.push_back(v);
      }
      offsets.push_back(static_cast<uint32_t>(later.size()));
    }
    const auto neighbors = [&](NodeId u) {
      return absl::MakeConstSpan(later.data() + offsets[u],
                                 offsets[u + 1] - offsets[u]);
    };
    const std::vector<NodeId> mate =
        internal::DoubleCoverMatching(g.num_nodes(), neighbors, {});
    return static_cast<uint32_t>(
        std::count_if(mate.begin(), mate.end(),
                      [](NodeId m) { return m != internal::kNoMate; }));
  }
  return std::nullopt;
}

// Per node v of the component, the heaviest chain of a chain family that
// ends at v, when its exact y-sum exceeds 1 and it is not in the LP yet
// (`added`, as sorted node lists): the violated chain rows. Nodes at
// y = 0 are left out (a chain keeps its weight without them, and R is
// transitive). The others, in the order of their keys (a linear extension
// of R: R(u, v) puts u's keys at most v's, equal only where both orders
// hold), take best(v) = y_v + max best(u) over the neighbours u before v
// with R(u, v): R implies a conflict, so the edges are all that is read.
std::vector<std::vector<uint32_t>> ViolatedChains(
    const Graph& g, absl::Span<const NodeId> nodes,
    const std::vector<ChainFamily>& chains, const ScaledIntegers& y,
    const absl::flat_hash_set<std::vector<uint32_t>>& added) {
  const std::vector<int64_t>& n = y.numerators;
  const __int128 one = y.denominator;
  std::vector<std::vector<uint32_t>> out;
  absl::flat_hash_set<std::vector<uint32_t>> found;
  constexpr uint32_t kOut = UINT32_MAX;
  std::vector<uint32_t> rank(g.num_nodes(), kOut);
  std::vector<__int128> best(g.num_nodes(), 0);
  std::vector<uint32_t> from(g.num_nodes(), kOut);
  for (const ChainFamily& f : chains) {
    std::vector<uint32_t> order;
    for (uint32_t v = 0; v < g.num_nodes(); ++v) {
      if (n[v] > 0 && f.group[nodes[v]] != ChainFamily::kNone &&
          !g.neighbors(v).empty()) {
        order.push_back(v);
      }
    }
    SortByKeys(f, nodes, order);
    for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    for (uint32_t v : order) {
      best[v] = n[v];
      from[v] = kOut;
      for (NodeId u : g.neighbors(v)) {
        if (rank[u] == kOut || rank[u] >= rank[v] ||
            !f.Precedes(nodes[u], nodes[v])) {
          continue;
        }
        if (n[v] + best[u] > best[v]) {
          best[v] = n[v] + best[u];
          from[v] = u;
        }
      }
      if (best[v] <= one) continue;
      std::vector<uint32_t> chain;
      for (uint32_t w = v; w != kOut; w = from[w]) chain.push_back(w);
      std::sort(chain.begin(), chain.end());
      if (!added.contains(chain) && found.insert(chain).second) {
        out.push_back(std::move(chain));
      }
    }
    for (uint32_t v : order) rank[v] = kOut;
  }
  return out;
}

// Y = max sum_v y_v over one component, enclosed exactly (or, with
// kExact, found exactly): block rows, the rows of the edges no block
// holds, and triangle and chain rows added while the certified solution of
// the rows so far violates a triangle or a chain left out. When none is
// violated, that solution is feasible for the LP with every triangle and
// chain (so its value is at most Y), and its dual certificate (zero on the
// rows left out) bounds that LP too (so the upper end is at least Y).
absl::StatusOr<CertifiedPackingLp::Bounds> SolveComponent(
    const CliqueConstraints& constraints, absl::Span<const NodeId> nodes,
    const Graph& g, CertifiedPackingLp::Precision precision) {
  const std::vector<CliqueFamily>& families = constraints.blocks;
  CertifiedPackingLp lp;
  lp.AddColumns(static_cast<int>(nodes.size()), /*objective=*/1);
  AddBlockRows(families, nodes, lp);
  for (uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (NodeId v : g.neighbors(u)) {
      if (u >= v) continue;
      if (!HeldByOneBlock(families, {nodes[u], nodes[v]})) {
        lp.AddRow({{static_cast<int>(u + 1), 1}, {static_cast<int>(v + 1), 1}},
                  1);
      }
    }
  }
  const std::string what =
      absl::StrCat("the clique LP of a component of ", nodes.size(), " nodes");
  absl::flat_hash_set<std::array<uint32_t, 3>> added;
  absl::flat_hash_set<std::vector<uint32_t>> added_chains;
  while (true) {
    ASSIGN_OR_RETURN(CertifiedPackingLp::Bounds bounds,
                     lp.Maximize(what, precision));
    // Tight triangles join the violated ones, as cuts the next solution
    // would otherwise soon violate.
    const TriangleCuts cuts =
        TightTriangles(g, nodes, families, bounds.primal, added);
    std::vector<std::vector<uint32_t>> chains = ViolatedChains(
        g, nodes, constraints.chains, bounds.primal, added_chains);
    if (!cuts.any_violated && chains.empty()) return bounds;
    for (std::vector<uint32_t>& chain : chains) {
      std::vector<std::pair<int, int32_t>> row;
      for (uint32_t v : chain) row.emplace_back(static_cast<int>(v + 1), 1);
      lp.AddRow(row, 1);
      added_chains.insert(std::move(chain));
    }
    for (const auto& t : cuts.triangles) {
      added.insert(t);
      lp.AddRow({{static_cast<int>(t[0] + 1), 1},
                 {static_cast<int>(t[1] + 1), 1},
                 {static_cast<int>(t[2] + 1), 1}},
                1);
    }
  }
}

// The optimum of one component of H: `solved` is false when the plain LP
// settled it (the bounds are then unused).
struct ComponentOptimum {
  bool solved = false;
  ExactRational lower;  // of Y, exact
  ExactRational upper;
};

// The optima of the components listed in `which` (all if empty), as
// `precision` asks, on `workers` threads taking components from a shared
// counter (the values do not depend on which thread solves what). The
// first error, by component index, if any. GLPK keeps an environment
// per thread, allocated by its first call and never freed by itself: each
// thread frees its own once its problems are gone (server threads live
// long, and LeakSanitizer reports it otherwise).
absl::Status SolveComponents(const Graph& g, const CliqueConstraints& families,
                             const internal::Components& components,
                             const std::vector<uint32_t>& which,
                             CertifiedPackingLp::Precision precision,
                             bool comparability_shortcut, int workers,
                             std::vector<ComponentOptimum>& optima) {
  const uint32_t count =
      which.empty() ? components.size() : static_cast<uint32_t>(which.size());
  std::vector<absl::Status> errors(count);
  std::atomic<uint32_t> next{0};
  auto work = [&] {
    bool used_glpk = false;
    std::vector<uint32_t> position(g.num_nodes(), kNoPosition);
    for (uint32_t i = next++; i < count; i = next++) {
      const uint32_t c = which.empty() ? i : which[i];
      const absl::Span<const NodeId> nodes = components.nodes(c);
      const Graph local = InducedSubgraph(g, nodes, position);
      // All 1/2 is optimal for the plain LP on H. When that LP is integral
      // and a greedy cover meets it, this LP (between the two) equals it.
      if (nodes.size() % 2 == 0 &&
          GreedyVertexCoverSize(local) == nodes.size() / 2) {
        continue;
      }
      if (const std::optional<uint32_t> cover =
              comparability_shortcut
                  ? ComparabilityCover(local, nodes, families.chains)
                  : std::nullopt) {
        const int64_t y = static_cast<int64_t>(nodes.size()) - *cover;
        optima[c] = {true, {y, 1}, {y, 1}};
        continue;
      }
      used_glpk = true;
      absl::StatusOr<CertifiedPackingLp::Bounds> y =
          SolveComponent(families, nodes, local, precision);
      if (!y.ok()) {
        errors[i] = y.status();
        continue;
      }
      optima[c] = {true, y->lower, y->upper};
    }
    if (used_glpk) CertifiedPackingLp::FreeThreadEnvironment();
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  for (const absl::Status& e : errors) RETURN_IF_ERROR(e);
  return absl::OkStatus();
}

// (size * q - p) / q: a component's cover LP, size - Y, for Y = p / q.
mpq_class CoverOf(uint32_t size, const ExactRational& y) {
  mpq_class out(
      ToMpz(static_cast<__int128>(size) * y.denominator - y.numerator),
      ToMpz(y.denominator));
  out.canonicalize();
  return out;
}

// ceil(v), exactly.
mpz_class Ceiling(const mpq_class& v) {
  mpz_class out;
  mpz_cdiv_q(out.get_mpz_t(), v.get_num_mpz_t(), v.get_den_mpz_t());
  return out;
}

// `what` names the nodes the families must cover, e.g. "the graph has".
absl::Status CheckFamilySizes(uint32_t num_nodes,
                              const CliqueConstraints& families,
                              absl::string_view what) {
  auto wrong = [&](const std::string& description, size_t rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("Clique family '", description, "' has ", rows, " rows; ",
                     what, " ", num_nodes, "."));
  };
  for (const CliqueFamily& f : families.blocks) {
    if (f.block.size() != num_nodes || f.part.size() != num_nodes) {
      return wrong(f.description, f.block.size());
    }
  }
  for (const ChainFamily& f : families.chains) {
    if (f.group.size() != num_nodes ||
        f.keys.size() != static_cast<size_t>(num_nodes) * f.arity ||
        f.strict.size() != f.arity) {
      return wrong(f.description, f.group.size());
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CliqueLpBound> CliqueLpCoverBound(
    const Graph& g, const CliqueConstraints& families, int num_threads,
    bool comparability_shortcut) {
  RETURN_IF_ERROR(
      CheckFamilySizes(g.num_nodes(), families, "the graph's nodes number"));
  return CliqueLpCoverBoundOverHalfRows(
      g,
      [&families](
          absl::Span<const NodeId> rows) -> absl::StatusOr<CliqueConstraints> {
        return FamiliesOfRows(families, rows);
      },
      num_threads, comparability_shortcut);
}

absl::StatusOr<CliqueLpBound> CliqueLpCoverBoundOverHalfRows(
    const Graph& g, const CliqueFamiliesOf& families_of, int num_threads,
    bool comparability_shortcut) {
  // Nemhauser-Trotter: with x an optimal half-integral solution of the
  // plain LP, V1 = {x = 1}, V0 = {x = 0} and H = {x = 1/2}, this LP's
  // optimum is |V1| + its optimum on H (families restricted to H, the same
  // construction on the table of H's rows). At most: put V1 at y = 0 and
  // V0 at y = 1 next to an optimum of H; a constraint with a node a of V0
  // has all its other nodes adjacent to a, hence in V1 (x_a = 0 forces
  // x = 1 on N(a)), so it reads y_a = 1 <= 1 (a block sum: a's part at 1,
  // every other part in V1 at 0). At least: V1 can be matched into V0, so
  // any feasible y has sum over V0 and V1 <= |V0| (y_a + y_b <= 1 per
  // matched pair, <= 1 per unmatched node of V0), and y on H is feasible
  // for H. So the LP is solved on the subgraph H induces only, with H's
  // rows renumbered 0..|H|-1: every array below is H's size, not g's.
  // On one thread: its augmenting-path searches cost about one pass over
  // the edges (double_cover_matching.h), as much as splitting the
  // components between threads would (31 ms at 1M tax rows, against 51 ms
  // split over two threads).
  const std::vector<uint8_t> x2 = HalfIntegralLpSolution(g);
  uint64_t integral = 0;  // |V1| plus the components settled without an LP
  std::vector<NodeId> half_rows;
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    integral += x2[v] == 2;
    if (x2[v] == 1) half_rows.push_back(v);
  }
  // Only H's rows enter the component LPs: the families over them have
  // the same constraints there (graph/fd_cliques.h, FdCliqueFamiliesOfRows).
  ASSIGN_OR_RETURN(const CliqueConstraints families, families_of(half_rows));
  std::vector<uint32_t> position(g.num_nodes(), kNoPosition);
  const Graph h = InducedSubgraph(g, half_rows, position);
  RETURN_IF_ERROR(CheckFamilySizes(
      h.num_nodes(), families,
      "the rows asked for (those the plain LP leaves at 1/2) number"));
  // The components of H's subgraph, numbered by smallest node as over g's
  // node ids: the optima are summed in the same order either way.
  const internal::Components components = internal::Components::Find(h);
  const int workers =
      h.num_edges() >= kParallelEdges
          ? std::min(util::ResolveThreads(num_threads), kMaxWorkers)
          : 1;
  std::vector<ComponentOptimum> optima(components.size());
  RETURN_IF_ERROR(SolveComponents(h, families, components, {},
                                  CertifiedPackingLp::Precision::kBounds,
                                  comparability_shortcut, workers, optima));
  // The sum and its ceiling in exact rationals (GMP): no rounding decides
  // the released integer, whatever the number of components. The cover LP
  // lies between the sums of the components' ends; where their ceilings
  // differ, the components whose ends are apart are solved exactly (the
  // simplex), after which they meet.
  CliqueLpBound out;
  mpq_class low = 0, high = 0;  // sum of size - Y over solved components
  std::vector<uint32_t> apart;
  auto sum = [&] {
    low = high = 0;
    apart.clear();
    out.components_solved = 0;
    for (uint32_t c = 0; c < components.size(); ++c) {
      if (!optima[c].solved) continue;
      const uint32_t size = static_cast<uint32_t>(components.nodes(c).size());
      ++out.components_solved;
      out.largest_component = std::max(out.largest_component, size);
      const mpq_class least = CoverOf(size, optima[c].upper);
      const mpq_class most = CoverOf(size, optima[c].lower);
      low += least;
      high += most;
      if (least != most) apart.push_back(c);
    }
  };
  sum();
  if (Ceiling(low) != Ceiling(high)) {
    RETURN_IF_ERROR(SolveComponents(h, families, components, apart,
                                    CertifiedPackingLp::Precision::kExact,
                                    comparability_shortcut, workers, optima));
    sum();
    if (Ceiling(low) != Ceiling(high)) {
      return absl::InternalError(
          "The clique LP's exact optima left the cover bound undecided.");
    }
  }
  for (uint32_t c = 0; c < components.size(); ++c) {
    if (!optima[c].solved) integral += components.nodes(c).size() / 2;
  }
  // Both ends have the same ceiling now (equal where every component is
  // exact), and the cover LP lies between them.
  out.lp_value = static_cast<double>(integral) + high.get_d();
  out.bound = integral + Ceiling(high).get_ui();
  return out;
}

}  // namespace dpq::core::measures
