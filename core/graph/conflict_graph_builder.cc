#include "core/graph/conflict_graph_builder.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/constraints/dc_pair_key.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/util/status_macros.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using constraints::Operand;
using constraints::Predicate;
using table::ColumnType;
using table::Table;

// Caps a num_threads request: more threads than this only add overhead.
constexpr int kMaxThreads = 256;

// "DC 3 (line 7) `not(t1.A=t2.A&t1.B!=t2.B)`" for messages.
std::string DcName(const DenialConstraint& dc, size_t index) {
  std::string name = absl::StrCat("DC ", index + 1);
  if (dc.line > 0) absl::StrAppend(&name, " (line ", dc.line, ")");
  if (!dc.text.empty()) absl::StrAppend(&name, " `", dc.text, "`");
  return name;
}

absl::Status CheckOperand(const Table& table, const Operand& operand,
                          const DenialConstraint& dc, size_t index) {
  if (operand.is_constant) return absl::OkStatus();
  if (operand.column >= table.num_columns()) {
    return absl::InvalidArgumentError(
        absl::StrCat(DcName(dc, index), " reads column index ", operand.column,
                     ", but the table has ", table.num_columns(), " columns."));
  }
  return absl::OkStatus();
}

bool IsString(ColumnType type) { return type == ColumnType::kString; }

ColumnType OperandType(const Table& table, const Operand& operand) {
  return operand.is_constant ? operand.constant.type
                             : table.column(operand.column).type;
}

absl::Status CheckPredicate(const Table& table, const Predicate& p,
                            const DenialConstraint& dc, size_t index) {
  RETURN_IF_ERROR(CheckOperand(table, p.lhs, dc, index));
  RETURN_IF_ERROR(CheckOperand(table, p.rhs, dc, index));
  if (p.lhs.is_constant && p.rhs.is_constant) {
    return absl::InvalidArgumentError(
        absl::StrCat(DcName(dc, index), " compares two constants (predicate ",
                     constraints::PredicateToString(p, table.schema()), ")."));
  }
  if (IsString(OperandType(table, p.lhs)) !=
      IsString(OperandType(table, p.rhs))) {
    return absl::InvalidArgumentError(absl::StrCat(
        DcName(dc, index), " compares a string with a number (predicate ",
        constraints::PredicateToString(p, table.schema()), ")."));
  }
  return absl::OkStatus();
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string MethodName(const internal::DcPlan& plan) {
  std::string name = plan.has_equality ? "hash" : "";
  const char* inner = "";
  switch (plan.method) {
    case internal::Method::kAll:
      inner = plan.has_equality ? "" : "nested";
      break;
    case internal::Method::kGroup:
      inner = "group";
      break;
    case internal::Method::kSort:
      inner = "sort";
      break;
    case internal::Method::kIeJoin:
      inner = "iejoin";
      break;
  }
  if (!name.empty() && *inner != '\0') name += "+";
  return name + inner;
}

// For each DC, the first earlier DC violated by the same unordered pairs
// (dc_pair_key.h), or -1.
std::vector<int64_t> SamePairsAs(absl::Span<const DenialConstraint> dcs) {
  std::vector<int64_t> same(dcs.size(), -1);
  absl::flat_hash_map<std::string, int64_t> first;
  for (size_t i = 0; i < dcs.size(); ++i) {
    const std::string key = constraints::DcPredicateKey(dcs[i], false);
    auto it = first.find(key);
    if (it == first.end()) {
      it = first.find(constraints::DcPredicateKey(dcs[i], true));
    }
    if (it != first.end()) {
      same[i] = it->second;
      continue;
    }
    first.emplace(key, static_cast<int64_t>(i));
  }
  return same;
}

}  // namespace

absl::Status ValidateConstraintsForTable(
    const Table& table, absl::Span<const DenialConstraint> dcs) {
  if (table.num_rows() > kMaxConflictGraphRows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The table has ", table.num_rows(),
        " rows, but conflict graphs have 32-bit node ids: at most ",
        kMaxConflictGraphRows, " rows."));
  }
  for (size_t i = 0; i < dcs.size(); ++i) {
    for (const Predicate& p : dcs[i].predicates) {
      RETURN_IF_ERROR(CheckPredicate(table, p, dcs[i], i));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ConflictGraph> BuildConflictGraph(
    const Table& table, absl::Span<const DenialConstraint> dcs,
    const ConflictGraphOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (options.num_threads < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_threads must be >= 0 (0 = one per hardware "
                     "thread), but is ",
                     options.num_threads, "."));
  }
  if (options.max_edges == 0) {
    return absl::InvalidArgumentError("max_edges must be positive, but is 0.");
  }
  RETURN_IF_ERROR(ValidateConstraintsForTable(table, dcs));
  int num_threads = options.num_threads;
  if (num_threads == 0) {
    num_threads = static_cast<int>(std::thread::hardware_concurrency());
  }
  num_threads = std::clamp(num_threads, 1, kMaxThreads);

  ConflictGraph result;
  ConflictGraphStats& stats = result.stats;
  stats.num_threads = num_threads;
  const uint32_t num_nodes = static_cast<uint32_t>(table.num_rows());
  // The DCs' edges so far, packed u << 32 | v, u < v, in parts of any
  // order: each DC's are distinct, across DCs they may repeat. `listed` is
  // the sum of the DCs' distinct counts, an upper bound on the union's.
  std::vector<std::vector<uint64_t>> parts;
  uint64_t listed = 0;
  size_t listed_dcs = 0;
  const std::vector<int64_t> same_as = SamePairsAs(dcs);
  // Its buckets and scratch are freed before the graph is assembled.
  std::optional<internal::SameColumnPlanner> same_column(std::in_place, table,
                                                         dcs, num_threads);
  const std::vector<size_t> order = same_column->order();
  stats.per_dc.resize(dcs.size());
  for (size_t i : order) {
    if (same_as[i] >= 0) continue;
    if (absl::Now() > options.deadline) {
      return absl::DeadlineExceededError(
          absl::StrCat("Deadline exceeded building the conflict graph, before ",
                       DcName(dcs[i], i), "."));
    }
    const auto dc_start = std::chrono::steady_clock::now();
    // The planner's DCs come first: free its buckets and scratch before
    // the others are planned.
    if (same_column.has_value() && !same_column->Handles(i)) {
      same_column.reset();
    }
    std::optional<internal::DcPlan> on_codes =
        same_column.has_value() ? same_column->Plan(i) : std::nullopt;
    internal::DcPlan plan;
    if (on_codes.has_value()) {
      plan = *std::move(on_codes);
    } else {
      ASSIGN_OR_RETURN(plan, internal::PlanDc(table, dcs[i], num_threads));
    }
    internal::EnumerateLimits limits;
    // Unordered enumeration yields each edge once, ordered at most twice.
    limits.max_emitted =
        plan.symmetric ? options.max_edges : 2 * options.max_edges;
    limits.deadline = options.deadline;
    std::vector<std::vector<uint64_t>> per_worker;
    const internal::EnumerateOutcome outcome =
        internal::EnumerateDc(plan, num_threads, limits, &per_worker);
    if (outcome == internal::EnumerateOutcome::kTooManyEdges) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The conflict graph has more than max_edges = ", options.max_edges,
          " edges: ", DcName(dcs[i], i), " alone exceeds it."));
    }
    if (outcome == internal::EnumerateOutcome::kDeadlineExceeded) {
      return absl::DeadlineExceededError(
          absl::StrCat("Deadline exceeded building the conflict graph, in ",
                       DcName(dcs[i], i), "."));
    }
    // A symmetric enumeration yields each unordered pair once; an ordered
    // one may yield a pair in both orientations.
    uint64_t dc_pairs = 0;
    if (plan.symmetric) {
      for (const std::vector<uint64_t>& w : per_worker) dc_pairs += w.size();
    } else {
      std::vector<uint64_t> unique =
          internal::SortMergeUnique(std::move(per_worker), num_threads);
      dc_pairs = unique.size();
      per_worker.clear();
      per_worker.push_back(std::move(unique));
    }
    DcBuildStats& dc_stats = stats.per_dc[i];
    dc_stats.violating_pairs = dc_pairs;
    dc_stats.num_blocks = plan.num_blocks();
    dc_stats.eligible_t1 = plan.eligible_t1;
    dc_stats.eligible_t2 = plan.eligible_t2;
    dc_stats.method = MethodName(plan);
    if (dc_pairs > options.max_edges) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The conflict graph has more than max_edges = ", options.max_edges,
          " edges: ", DcName(dcs[i], i), " alone has ", dc_pairs, "."));
    }
    // Free the plan's rows and key columns before the edges grow.
    plan = internal::DcPlan();
    // The union waits for the graph's construction (one pass on every
    // core) unless the lists' total could exceed the limit: then the union
    // so far decides.
    listed += dc_pairs;
    ++listed_dcs;
    for (std::vector<uint64_t>& w : per_worker) parts.push_back(std::move(w));
    if (listed > options.max_edges && listed_dcs > 1) {
      std::vector<uint64_t> so_far =
          internal::SortMergeUnique(std::move(parts), num_threads);
      parts.clear();
      listed = so_far.size();
      listed_dcs = 1;
      if (so_far.size() > options.max_edges) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "The conflict graph has more than max_edges = ", options.max_edges,
            " edges (", so_far.size(), " after adding ", DcName(dcs[i], i),
            ")."));
      }
      parts.push_back(std::move(so_far));
    }
    dc_stats.seconds = SecondsSince(dc_start);
  }

  same_column.reset();
  for (size_t i = 0; i < dcs.size(); ++i) {
    if (same_as[i] < 0) continue;
    const DcBuildStats& first = stats.per_dc[same_as[i]];
    DcBuildStats& copy = stats.per_dc[i];
    copy = first;
    copy.seconds = 0;
    copy.same_pairs_as = same_as[i];
    // A mirror image reads t1's filters as t2's.
    if (constraints::DcPredicateKey(dcs[i], false) !=
        constraints::DcPredicateKey(dcs[same_as[i]], false)) {
      std::swap(copy.eligible_t1, copy.eligible_t2);
    }
  }
  result.graph =
      Graph::FromPackedPairs(num_nodes, std::move(parts), num_threads);
  stats.num_edges = result.graph.num_edges();
  stats.build_seconds = SecondsSince(start);
  return result;
}

}  // namespace dpq::core::graph
