#include "bench/experiments/general_dc_tables.h"

#include <algorithm>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/experiments/experiment_data.h"
#include "core/constraints/dc_parser.h"
#include "core/graph/fd_cliques.h"
#include "core/measures/clique_lp_bound.h"
#include "core/measures/measure.h"
#include "core/util/status_macros.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {
namespace {

using core::measures::Measure;

struct NamedTable {
  std::string name;
  TableWithDcs table;
};

absl::StatusOr<TableWithDcs> FromRows(
    const std::vector<core::table::ColumnSpec>& columns,
    std::vector<std::vector<generators::Cell>> rows, const std::string& dcs) {
  TableWithDcs out;
  ASSIGN_OR_RETURN(out.cells.schema, core::table::Schema::Create(columns));
  out.cells.rows = std::move(rows);
  ASSIGN_OR_RETURN(out.dcs, core::constraints::ParseDenialConstraints(
                                dcs, out.cells.schema));
  return out;
}

// A shared dataset's 1,000-row sample (LoadDataset's DCs) with its RNoise
// at alpha 0.01, and its dirty file if it has one.
absl::Status AddShared(const GeneralDcOptions& o, const std::string& name,
                       std::vector<NamedTable>& out) {
  ASSIGN_OR_RETURN(Dataset d, LoadDataset(name, o.data_dir, 1000, o.seed));
  ASSIGN_OR_RETURN(const NoiseSpec spec, ParseNoiseLabel("rnoise-0.01"));
  ASSIGN_OR_RETURN(const generators::NoiseLog log,
                   GenerateNoise(d, spec, o.seed));
  out.push_back(
      {absl::StrCat(name, " 1000 rnoise-0.01"),
       {generators::ApplyNoise(d.clean, log, log.iterations.size()), d.dcs}});
  if (d.has_dirty) {
    out.push_back({absl::StrCat(name, " 1000 dirty"), {d.dirty, d.dcs}});
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<NamedTable>> GeneralTables(
    const GeneralDcOptions& o) {
  std::vector<NamedTable> out;
  const std::vector<std::pair<std::string, ShuffledLogSpec>> logs = {
      {"log, runs of 3-12 shuffled", {1000, 0.05, 3, 12, o.seed}},
      {"log, runs of 5-20 shuffled", {1000, 0.1, 5, 20, o.seed}},
      {"log, runs of 10-30 shuffled", {1000, 0.03, 10, 30, o.seed}},
      {"log, runs of 20-50 shuffled", {1000, 0.02, 20, 50, o.seed}},
      {"log, runs of 20-50 shuffled, FD batch -> host with 2% typos",
       {1000, 0.02, 20, 50, o.seed, 0.02}},
  };
  for (const auto& [name, spec] : logs) {
    ASSIGN_OR_RETURN(TableWithDcs t, GenerateShuffledLog(spec));
    out.push_back({name, std::move(t)});
  }
  const std::vector<std::pair<std::string, BookingSpec>> bookings = {
      {"bookings, 100 rooms, 30% moved", {1000, 100, 0.3, o.seed}},
      {"bookings, 30 rooms, 20% moved", {1000, 30, 0.2, o.seed}},
      {"bookings, 20 rooms, 50% moved, up to 5 h",
       {1000, 20, 0.5, o.seed, 300}},
  };
  for (const auto& [name, spec] : bookings) {
    ASSIGN_OR_RETURN(TableWithDcs t, GenerateBookings(spec));
    out.push_back({name, std::move(t)});
  }
  for (const char* name : {"tax", "adult", "flights"}) {
    RETURN_IF_ERROR(AddShared(o, name, out));
  }
  return out;
}

// The bound with the FD blocks and triangles only: cover_bound before the
// order chains, for the comparison.
absl::StatusOr<uint64_t> BoundWithoutChains(const core::table::Table& table,
                                            const TableWithDcs& t,
                                            const core::graph::Graph& g) {
  ASSIGN_OR_RETURN(
      const core::measures::CliqueLpBound b,
      core::measures::CliqueLpCoverBoundOverHalfRows(
          g,
          [&](absl::Span<const core::graph::NodeId> rows)
              -> absl::StatusOr<core::measures::CliqueConstraints> {
            ASSIGN_OR_RETURN(
                std::vector<core::graph::CliqueFamily> blocks,
                core::graph::FdCliqueFamiliesOfRows(table, t.dcs, rows));
            return core::measures::CliqueConstraints(std::move(blocks));
          }));
  return b.bound;
}

}  // namespace

absl::StatusOr<TableWithDcs> GenerateShuffledLog(const ShuffledLogSpec& spec) {
  if (spec.min_run < 2 || spec.max_run < spec.min_run) {
    return absl::InvalidArgumentError("Shuffled runs need lengths >= 2.");
  }
  std::mt19937_64 rng(spec.seed);
  std::bernoulli_distribution starts(spec.run_share);
  std::uniform_int_distribution<size_t> length(spec.min_run, spec.max_run);
  std::vector<int64_t> ts(spec.rows);
  for (size_t i = 0; i < spec.rows; ++i) ts[i] = 10 * static_cast<int64_t>(i);
  for (size_t i = 0; i < spec.rows;) {
    if (!starts(rng)) {
      ++i;
      continue;
    }
    const size_t end = std::min(spec.rows, i + length(rng));
    std::shuffle(ts.begin() + static_cast<ptrdiff_t>(i),
                 ts.begin() + static_cast<ptrdiff_t>(end), rng);
    i = end;
  }
  const bool hosts = spec.host_typos > 0;
  std::bernoulli_distribution typo(spec.host_typos);
  std::vector<std::vector<generators::Cell>> rows;
  for (size_t i = 0; i < spec.rows; ++i) {
    rows.push_back({absl::StrCat(i), absl::StrCat(ts[i])});
    if (hosts) {
      rows.back().push_back(absl::StrCat(i / 40));
      rows.back().push_back(typo(rng) ? "typo"
                                      : absl::StrCat("h", i / 40 % 17));
    }
  }
  std::vector<core::table::ColumnSpec> columns = {
      {"seq", core::table::ColumnType::kInt64},
      {"ts", core::table::ColumnType::kInt64}};
  std::string dcs = "not(t1.seq<t2.seq&t1.ts>t2.ts)";
  if (hosts) {
    columns.push_back({"batch", core::table::ColumnType::kInt64});
    columns.push_back({"host", core::table::ColumnType::kString});
    dcs += "\nnot(t1.batch=t2.batch&t1.host!=t2.host)";
  }
  return FromRows(columns, std::move(rows), dcs);
}

absl::StatusOr<TableWithDcs> GenerateBookings(const BookingSpec& spec) {
  if (spec.rooms == 0) return absl::InvalidArgumentError("No rooms.");
  std::mt19937_64 rng(spec.seed);
  std::bernoulli_distribution moved(spec.moved);
  std::uniform_int_distribution<int64_t> shift(-90, 90),
      duration(30, std::max<int64_t>(30, spec.max_minutes));
  const size_t slots = (spec.rows + spec.rooms - 1) / spec.rooms;
  std::vector<std::vector<generators::Cell>> rows;
  for (size_t r = 0; r < spec.rooms && rows.size() < spec.rows; ++r) {
    for (size_t s = 0; s < slots && rows.size() < spec.rows; ++s) {
      int64_t start = 60 * static_cast<int64_t>(s), end = start + 60;
      if (moved(rng)) {
        start += shift(rng);
        end = start + duration(rng);
      }
      rows.push_back(
          {absl::StrCat("r", r), absl::StrCat(start), absl::StrCat(end)});
    }
  }
  return FromRows({{"room", core::table::ColumnType::kString},
                   {"start", core::table::ColumnType::kInt64},
                   {"end", core::table::ColumnType::kInt64}},
                  std::move(rows),
                  "not(t1.room=t2.room&t1.start<t2.end&t1.end>t2.start)");
}

absl::StatusOr<std::vector<GeneralDcRow>> RunGeneralDcTables(
    const GeneralDcOptions& o) {
  ASSIGN_OR_RETURN(const std::vector<NamedTable> tables, GeneralTables(o));
  std::vector<GeneralDcRow> out;
  for (size_t t = 0; t < tables.size(); ++t) {
    const NamedTable& named = tables[t];
    ASSIGN_OR_RETURN(core::table::Table table,
                     generators::ToTable(named.table.cells));
    ASSIGN_OR_RETURN(GraphCase c,
                     BuildGraphCase(table, named.table.dcs, o.n_factor,
                                    /*vertex_cover_seconds=*/30));
    if (!c.exact_repair.has_value()) {
      return absl::DeadlineExceededError(absl::StrCat(
          "The exact cover of '", named.name, "' was not found in 30 s."));
    }
    GeneralDcRow row;
    row.table = named.name;
    row.rows = c.graph.num_nodes();
    row.edges = c.graph.num_edges();
    row.exact = *c.exact_repair;
    row.bound = c.cover_bound;
    ASSIGN_OR_RETURN(row.bound_triangles,
                     BoundWithoutChains(table, named.table, c.graph));
    testing::SeededUrbg urbg(o.seed * 1'000'003 + t * 101);
    ASSIGN_OR_RETURN(row.stats,
                     EvaluateMethod(urbg, c, Measure::kRepair,
                                    Method::kCoverBound, o.epsilon, o.runs));
    GraphCase before = c;
    before.cover_bound = row.bound_triangles;
    testing::SeededUrbg urbg_before(o.seed * 1'000'003 + t * 101);
    ASSIGN_OR_RETURN(row.stats_triangles,
                     EvaluateMethod(urbg_before, before, Measure::kRepair,
                                    Method::kCoverBound, o.epsilon, o.runs));
    if (o.progress != nullptr) {
      *o.progress << named.name << ": n=" << row.rows << " m=" << row.edges
                  << " I_R=" << row.exact << " bound " << row.bound_triangles
                  << " -> " << row.bound << std::endl;
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string GeneralDcCsv(const std::vector<GeneralDcRow>& rows) {
  std::string out =
      "table,rows,edges,exact,bound_triangles,bound,runs,"
      "rel_error_median_triangles,rel_error_median,rel_error_p90,coverage\n";
  for (const GeneralDcRow& r : rows) {
    absl::StrAppendFormat(
        &out, "\"%s\",%d,%d,%d,%d,%d,%d,%.6g,%.6g,%.6g,%.6g\n", r.table, r.rows,
        r.edges, r.exact, r.bound_triangles, r.bound, r.stats.runs,
        r.stats_triangles.error_median, r.stats.error_median, r.stats.error_p90,
        r.stats.coverage);
  }
  return out;
}

std::string GeneralDcMarkdown(const std::vector<GeneralDcRow>& rows) {
  if (rows.empty()) return "";
  std::string out = absl::StrFormat(
      "I_R by cover_bound: the bound before its noise (FD blocks and "
      "triangles only -> with the order chains) against the exact cover, and "
      "the median relative error over %d releases at epsilon 1 (before -> "
      "after), the 90th percentile and the coverage of the 95%% interval "
      "after.\n\n",
      rows[0].stats.runs);
  out +=
      "| table | rows | edges | exact I_R | bound (triangles -> chains) | "
      "median error | p90 | coverage |\n|---|---|---|---|---|---|---|---|\n";
  for (const GeneralDcRow& r : rows) {
    absl::StrAppendFormat(&out,
                          "| %s | %d | %d | %d | %d -> %d | %.3f -> %.3f | "
                          "%.3f | %.2f |\n",
                          r.table, r.rows, r.edges, r.exact, r.bound_triangles,
                          r.bound, r.stats_triangles.error_median,
                          r.stats.error_median, r.stats.error_p90,
                          r.stats.coverage);
  }
  return out;
}

}  // namespace dpq::bench::experiments
