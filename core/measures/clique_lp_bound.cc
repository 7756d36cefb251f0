#include "core/measures/clique_lp_bound.h"

#include <glpk.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/measures/graph_components.h"
#include "core/measures/vertex_cover.h"
#include "core/util/parallel_for.h"
#include "core/util/status_macros.h"

namespace dpq::core::measures {
namespace {

using graph::CliqueFamily;
using graph::Graph;
using graph::NodeId;

// A triangle constraint is added once its y-sum exceeds 1 - kTriangleMargin
// in the floating image of the exact solution, so the triangles left out
// have an exact sum below 1 (the images are within 1e-15 of the exact
// rationals): the final optimum is that of the LP with every triangle.
constexpr double kTriangleMargin = 1e-6;
// The released bound is ceil(value - kCeilTolerance): a fixed shift keeps
// the ceiling 1-Lipschitz and absorbs the rounding of the exact optimum to
// double and of the sum over components (far below 1e-9).
constexpr double kCeilTolerance = 1e-7;
// Half-row subgraphs with fewer edges have their component LPs solved on
// one thread (starting threads costs more than it saves there).
constexpr uint64_t kParallelEdges = 200'000;
// At most this many threads.
constexpr int kMaxWorkers = 8;

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
// FdCliqueFamiliesOfRows's form. Families with no block among the rows
// are dropped.
std::vector<CliqueFamily> FamiliesOfRows(
    const std::vector<CliqueFamily>& families, absl::Span<const NodeId> rows) {
  std::vector<CliqueFamily> out;
  for (const CliqueFamily& f : families) {
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
    if (any) out.push_back(std::move(r));
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

using GlpProb = std::unique_ptr<glp_prob, decltype(&glp_delete_prob)>;

// The LP of one component in GLPK, built once and re-solved as triangle
// rows are added (columns 1..k are the component's y_v, then the z_p).
class ComponentLp {
 public:
  explicit ComponentLp(size_t num_nodes)
      : lp_(glp_create_prob(), &glp_delete_prob), num_nodes_(num_nodes) {
    glp_set_obj_dir(lp_.get(), GLP_MAX);
    AddColumns(num_nodes, /*objective=*/1.0);
  }
  // A new z column; returns its 1-based index.
  int AddColumn() { return AddColumns(1, 0.0); }
  // A row sum_i coefficient_i * column_i <= upper.
  void AddRow(const std::vector<std::pair<int, double>>& terms,
              double upper) {
    const int row = glp_add_rows(lp_.get(), 1);
    glp_set_row_bnds(lp_.get(), row, GLP_UP, 0.0, upper);
    std::vector<int> index(1, 0);
    std::vector<double> value(1, 0.0);
    for (const auto& [column, coefficient] : terms) {
      index.push_back(column);
      value.push_back(coefficient);
    }
    glp_set_mat_row(lp_.get(), row, static_cast<int>(terms.size()),
                    index.data(), value.data());
  }

  // Solves (from the last basis) in floating point, then re-solves from
  // that basis in exact rational arithmetic, so the optimum is the LP's
  // own value, not an approximation. kInternal if GLPK fails.
  absl::StatusOr<double> Maximize() {
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    // The dual simplex: 3x faster than the primal on these LPs (measured on
    // tax-like tables), and the right one after rows are added.
    parm.meth = GLP_DUALP;
    int code = glp_simplex(lp_.get(), &parm);
    if (code == 0 && glp_get_status(lp_.get()) == GLP_OPT) {
      code = glp_exact(lp_.get(), &parm);
    }
    if (code != 0 || glp_get_status(lp_.get()) != GLP_OPT) {
      return absl::InternalError(absl::StrCat(
          "GLPK did not solve the clique LP of a component of ", num_nodes_,
          " nodes (code ", code, ", status ", glp_get_status(lp_.get()),
          ")."));
    }
    return glp_get_obj_val(lp_.get());
  }
  // y_v of the last solution (v local, 0-based).
  double y(uint32_t v) const {
    return glp_get_col_prim(lp_.get(), static_cast<int>(v + 1));
  }

 private:
  int AddColumns(size_t count, double objective) {
    const int first = glp_add_cols(lp_.get(), static_cast<int>(count));
    for (int c = first; c < first + static_cast<int>(count); ++c) {
      glp_set_col_bnds(lp_.get(), c, GLP_DB, 0.0, 1.0);
      glp_set_obj_coef(lp_.get(), c, objective);
    }
    return first;
  }

  GlpProb lp_;
  size_t num_nodes_;
};

// Rows for the blocks of every family within the component: y_v <= z_p for
// v in a part p of two or more nodes, sum_p z_p <= 1 per block (a part of
// one node uses its y_v as z_p).
void AddBlockRows(const std::vector<CliqueFamily>& families,
                  absl::Span<const NodeId> nodes, ComponentLp& lp) {
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
      std::vector<std::pair<int, double>> sum;
      for (uint32_t p : parts_of_block[block]) {
        const std::vector<int>& m = members[p];
        if (m.size() == 1) {
          sum.emplace_back(m[0], 1.0);
          continue;
        }
        const int z = lp.AddColumn();
        for (int y : m) lp.AddRow({{y, 1.0}, {z, -1.0}}, 0.0);
        sum.emplace_back(z, 1.0);
      }
      lp.AddRow(sum, 1.0);
    }
  }
}

// Triangles of the component not yet in the LP, not inside one block, whose
// y-sum exceeds 1 - kTriangleMargin. Enumerated from each triangle's node
// u of largest y (ties: smallest id), which is >= 1/3 - margin/3.
std::vector<std::array<uint32_t, 3>> NearTightTriangles(
    const Graph& g, absl::Span<const NodeId> nodes,
    const std::vector<CliqueFamily>& families, const ComponentLp& lp,
    const absl::flat_hash_set<std::array<uint32_t, 3>>& added) {
  std::vector<double> y(g.num_nodes());
  for (uint32_t v = 0; v < g.num_nodes(); ++v) y[v] = lp.y(v);
  auto before = [&](uint32_t a, uint32_t b) {
    return y[a] > y[b] || (y[a] == y[b] && a < b);
  };
  std::vector<std::array<uint32_t, 3>> out;
  for (uint32_t u = 0; u < g.num_nodes(); ++u) {
    if (y[u] < (1.0 - kTriangleMargin) / 3.0) continue;
    // Neighbours ranked after u, by falling y: a pair's sum can only fall.
    std::vector<uint32_t> next;
    for (NodeId v : g.neighbors(u)) {
      if (before(u, v)) next.push_back(v);
    }
    std::sort(next.begin(), next.end(),
              [&](uint32_t a, uint32_t b) { return before(a, b); });
    for (size_t i = 0; i < next.size(); ++i) {
      const uint32_t v = next[i];
      if (y[u] + 2 * y[v] <= 1.0 - kTriangleMargin) break;
      const auto nv = g.neighbors(v);
      for (size_t j = i + 1; j < next.size(); ++j) {
        const uint32_t w = next[j];
        if (y[u] + y[v] + y[w] <= 1.0 - kTriangleMargin) break;
        if (!std::binary_search(nv.begin(), nv.end(), w)) continue;
        std::array<uint32_t, 3> t = {u, v, w};
        std::sort(t.begin(), t.end());
        // Most near-tight triangles lie in one block: checked first, by
        // array lookups, before the hash set.
        if (HeldByOneBlock(families, {nodes[t[0]], nodes[t[1]], nodes[t[2]]}) ||
            added.contains(t)) {
          continue;
        }
        out.push_back(t);
      }
    }
  }
  return out;
}

// max sum_v y_v over one component: block rows, the rows of the edges no
// block holds, and triangle rows added until no triangle left out is
// near-tight.
absl::StatusOr<double> SolveComponent(const std::vector<CliqueFamily>& families,
                                      absl::Span<const NodeId> nodes,
                                      const Graph& g) {
  ComponentLp lp(nodes.size());
  AddBlockRows(families, nodes, lp);
  for (uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (NodeId v : g.neighbors(u)) {
      if (u >= v) continue;
      if (!HeldByOneBlock(families, {nodes[u], nodes[v]})) {
        lp.AddRow({{static_cast<int>(u + 1), 1.0},
                   {static_cast<int>(v + 1), 1.0}},
                  1.0);
      }
    }
  }
  absl::flat_hash_set<std::array<uint32_t, 3>> added;
  while (true) {
    ASSIGN_OR_RETURN(const double value, lp.Maximize());
    const std::vector<std::array<uint32_t, 3>> cuts =
        NearTightTriangles(g, nodes, families, lp, added);
    if (cuts.empty()) return value;
    for (const auto& t : cuts) {
      added.insert(t);
      lp.AddRow({{static_cast<int>(t[0] + 1), 1.0},
                 {static_cast<int>(t[1] + 1), 1.0},
                 {static_cast<int>(t[2] + 1), 1.0}},
                1.0);
    }
  }
}

// The optimum of one component of H: `solved` is false when the plain LP
// settled it (y is then unused).
struct ComponentOptimum {
  bool solved = false;
  double y = 0;
};

// Each component's optimum, on `workers` threads taking components from a
// shared counter (the values do not depend on which thread solves what).
// The first error, by component index, if any. GLPK keeps an environment
// per thread, allocated by its first call and never freed by itself: each
// thread frees its own once its problems are gone (server threads live
// long, and LeakSanitizer reports it otherwise).
absl::StatusOr<std::vector<ComponentOptimum>> SolveComponents(
    const Graph& g, const std::vector<CliqueFamily>& families,
    const internal::Components& components, int workers) {
  const uint32_t count = components.size();
  std::vector<ComponentOptimum> optima(count);
  std::vector<absl::Status> errors(count);
  std::atomic<uint32_t> next{0};
  auto work = [&] {
    bool used_glpk = false;
    std::vector<uint32_t> position(g.num_nodes(), kNoPosition);
    for (uint32_t c = next++; c < count; c = next++) {
      const absl::Span<const NodeId> nodes = components.nodes(c);
      const Graph local = InducedSubgraph(g, nodes, position);
      // All 1/2 is optimal for the plain LP on H. When that LP is integral
      // and a greedy cover meets it, this LP (between the two) equals it.
      if (nodes.size() % 2 == 0 &&
          GreedyVertexCoverSize(local) == nodes.size() / 2) {
        continue;
      }
      used_glpk = true;
      absl::StatusOr<double> y = SolveComponent(families, nodes, local);
      if (!y.ok()) {
        errors[c] = y.status();
        continue;
      }
      optima[c] = {true, *y};
    }
    if (used_glpk) glp_free_env();
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  for (const absl::Status& e : errors) RETURN_IF_ERROR(e);
  return optima;
}

// `what` names the nodes the families must cover, e.g. "the graph has".
absl::Status CheckFamilySizes(uint32_t num_nodes,
                              const std::vector<CliqueFamily>& families,
                              absl::string_view what) {
  for (const CliqueFamily& f : families) {
    if (f.block.size() != num_nodes || f.part.size() != num_nodes) {
      return absl::InvalidArgumentError(
          absl::StrCat("Clique family '", f.description, "' has ",
                       f.block.size(), " rows; ", what, " ", num_nodes, "."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CliqueLpBound> CliqueLpCoverBound(
    const Graph& g, const std::vector<CliqueFamily>& families,
    int num_threads) {
  RETURN_IF_ERROR(
      CheckFamilySizes(g.num_nodes(), families, "the graph's nodes number"));
  return CliqueLpCoverBoundOverHalfRows(
      g,
      [&families](absl::Span<const NodeId> rows)
          -> absl::StatusOr<std::vector<CliqueFamily>> {
        return FamiliesOfRows(families, rows);
      },
      num_threads);
}

absl::StatusOr<CliqueLpBound> CliqueLpCoverBoundOverHalfRows(
    const Graph& g, const CliqueFamiliesOf& families_of, int num_threads) {
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
  ASSIGN_OR_RETURN(const std::vector<CliqueFamily> families,
                   families_of(half_rows));
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
  ASSIGN_OR_RETURN(const std::vector<ComponentOptimum> optima,
                   SolveComponents(h, families, components, workers));
  CliqueLpBound out;
  double fractional = 0;  // the LP optima of the others, in component order
  for (uint32_t c = 0; c < components.size(); ++c) {
    const uint32_t size = static_cast<uint32_t>(components.nodes(c).size());
    if (!optima[c].solved) {
      integral += size / 2;
      continue;
    }
    ++out.components_solved;
    fractional += static_cast<double>(size) - optima[c].y;
    out.largest_component = std::max(out.largest_component, size);
  }
  out.lp_value = static_cast<double>(integral) + fractional;
  out.bound = integral + static_cast<uint64_t>(std::max(
                             0.0, std::ceil(fractional - kCeilTolerance)));
  return out;
}

}  // namespace dpq::core::measures
