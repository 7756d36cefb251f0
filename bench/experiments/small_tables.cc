#include "bench/experiments/small_tables.h"

#include <algorithm>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/constraints/dc_parser.h"
#include "core/measures/measure.h"
#include "core/private/flow_extensions.h"
#include "core/util/status_macros.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {
namespace {

using core::measures::Measure;

// The thetas whose flow extensions the progress lines show.
const std::vector<uint32_t> kProfileThetas = {1, 2, 5, 10, 20, 50, 100};

struct NamedTable {
  std::string name;
  TableWithDcs table;
};

absl::StatusOr<TableWithDcs> SharedFile(const std::string& dir,
                                        const std::string& csv,
                                        const std::string& dc_file, size_t rows,
                                        uint64_t seed) {
  TableWithDcs out;
  ASSIGN_OR_RETURN(generators::CellTable all,
                   generators::ReadCellTable(dir + "/" + csv));
  out.cells = rows == 0 || rows >= all.rows.size()
                  ? std::move(all)
                  : generators::SampleRows(all, rows, seed);
  ASSIGN_OR_RETURN(out.dcs, core::constraints::ReadDenialConstraintsFile(
                                dir + "/" + dc_file, out.cells.schema));
  return out;
}

absl::StatusOr<std::vector<NamedTable>> SmallTables(
    const SmallTablesOptions& o) {
  std::vector<NamedTable> out;
  const std::string d = o.data_dir;
  for (const char* file : {"clean.csv", "dirty.csv"}) {
    ASSIGN_OR_RETURN(TableWithDcs t, SharedFile(d + "/hospital", file,
                                                "constraints.dc", 0, o.seed));
    out.push_back({absl::StrCat("hospital ", file), std::move(t)});
  }
  for (size_t rows : {1000, 2000, 3000}) {
    ASSIGN_OR_RETURN(TableWithDcs t,
                     SharedFile(d + "/tax", "dirty-10k.csv", "constraints.dc",
                                rows, o.seed));
    out.push_back({absl::StrCat("tax dirty ", rows), std::move(t)});
  }
  for (const char* file : {"clean.csv", "dirty.csv"}) {
    for (size_t rows : {1000, 2000}) {
      ASSIGN_OR_RETURN(
          TableWithDcs t,
          SharedFile(d + "/flights", file, "constraints.dc", rows, o.seed));
      out.push_back({absl::StrCat("flights ", file, " ", rows), std::move(t)});
    }
  }
  const std::vector<std::pair<std::string, StarTableSpec>> stars = {
      {"stars 25 x 20-60, 2000 rows", {25, 20, 60, 2000, 0, o.seed}},
      {"stars 50 x 20, 1000 rows", {50, 20, 20, 1000, 0, o.seed}},
      {"stars 40 x 20-60, 3000 rows", {40, 20, 60, 3000, 0, o.seed}},
      {"stars 25 x 20-60 + clean regions of 150, 2000 rows",
       {25, 20, 60, 2000, 150, o.seed}},
  };
  for (const auto& [name, spec] : stars) {
    ASSIGN_OR_RETURN(TableWithDcs t, GenerateStarTable(spec));
    out.push_back({name, std::move(t)});
  }
  return out;
}

}  // namespace

absl::StatusOr<TableWithDcs> GenerateStarTable(const StarTableSpec& spec) {
  if (spec.min_size < 2 || spec.max_size < spec.min_size) {
    return absl::InvalidArgumentError("Star groups need sizes >= 2.");
  }
  std::mt19937_64 rng(spec.seed);
  std::uniform_int_distribution<size_t> size(spec.min_size, spec.max_size);
  const bool regions = spec.clean_region_size > 0;
  std::vector<core::table::ColumnSpec> columns = {{"key"}, {"value"}};
  if (regions) {
    columns.push_back({"region"});
    columns.push_back({"country"});
  }
  TableWithDcs out;
  ASSIGN_OR_RETURN(out.cells.schema, core::table::Schema::Create(columns));
  auto add = [&](std::string key, std::string value) {
    std::vector<generators::Cell> row = {std::move(key), std::move(value)};
    out.cells.rows.push_back(std::move(row));
  };
  for (size_t g = 0; g < spec.groups; ++g) {
    const size_t s = size(rng);
    for (size_t i = 0; i < s; ++i) {
      add(absl::StrCat("k", g), absl::StrCat("v", g, i == 0 ? "-typo" : ""));
    }
  }
  if (out.cells.rows.size() > spec.rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("The star groups need ", out.cells.rows.size(),
                     " rows, more than ", spec.rows, "."));
  }
  for (size_t p = 0; out.cells.rows.size() < spec.rows; ++p) {
    add(absl::StrCat("p", p), "v");
  }
  // Rows in a seeded order, so that groups are not contiguous.
  std::shuffle(out.cells.rows.begin(), out.cells.rows.end(), rng);
  if (regions) {
    for (size_t r = 0; r < out.cells.rows.size(); ++r) {
      const size_t region = r / spec.clean_region_size;
      out.cells.rows[r].push_back(absl::StrCat("r", region));
      out.cells.rows[r].push_back(absl::StrCat("c", region));
    }
  }
  std::string dcs = "t1&t2&EQ(t1.key,t2.key)&IQ(t1.value,t2.value)";
  if (regions) {
    absl::StrAppend(
        &dcs, "\nt1&t2&EQ(t1.region,t2.region)&IQ(t1.country,t2.country)");
  }
  ASSIGN_OR_RETURN(out.dcs, core::constraints::ParseDenialConstraints(
                                dcs, out.cells.schema));
  return out;
}

absl::StatusOr<std::vector<SmallTableRow>> RunSmallTables(
    const SmallTablesOptions& o) {
  ASSIGN_OR_RETURN(const std::vector<NamedTable> tables, SmallTables(o));
  std::vector<SmallTableRow> out;
  for (size_t t = 0; t < tables.size(); ++t) {
    const NamedTable& named = tables[t];
    ASSIGN_OR_RETURN(core::table::Table table,
                     generators::ToTable(named.table.cells));
    ASSIGN_OR_RETURN(GraphCase c,
                     BuildGraphCase(table, named.table.dcs, o.n_factor,
                                    /*vertex_cover_seconds=*/1));
    if (o.progress != nullptr) {
      *o.progress << named.name << ": n=" << c.graph.num_nodes()
                  << " m=" << c.graph.num_edges()
                  << " dmax=" << c.graph.max_degree() << " I_P=" << c.i_p
                  << "; f_theta (MI; P) at theta = "
                  << absl::StrJoin(kProfileThetas, ",") << ": ";
      for (Measure m :
           {Measure::kMinimalInconsistency, Measure::kProblematic}) {
        ASSIGN_OR_RETURN(const std::vector<int64_t> f,
                         core::private_measures::FlowExtensionValues(
                             c.graph, m, kProfileThetas));
        *o.progress << absl::StrJoin(f, ",") << "; ";
      }
      *o.progress << std::endl;
    }
    for (Measure measure :
         {Measure::kMinimalInconsistency, Measure::kProblematic}) {
      for (Method method :
           {Method::kGroupBound, Method::kGem, Method::kOptimized}) {
        // One seeded stream per table, measure and method.
        testing::SeededUrbg urbg(o.seed * 1'000'003 + t * 101 +
                                 static_cast<uint64_t>(measure) * 11 +
                                 static_cast<uint64_t>(method));
        ASSIGN_OR_RETURN(
            RunStats stats,
            EvaluateMethod(urbg, c, measure, method, o.epsilon, o.runs));
        SmallTableRow row;
        row.table = named.name;
        row.rows = c.graph.num_nodes();
        row.edges = c.graph.num_edges();
        row.non_isolated = c.i_p;
        row.max_degree = c.graph.max_degree();
        row.method = MethodName(method);
        row.measure = std::string(core::measures::MeasureName(measure));
        row.stats = stats;
        out.push_back(std::move(row));
      }
    }
  }
  return out;
}

std::string SmallTablesCsv(const std::vector<SmallTableRow>& rows) {
  std::string out =
      "table,rows,edges,non_isolated,max_degree,measure,method,runs,"
      "true_value,rel_error_median,rel_error_p90,rel_error_mean,coverage,"
      "upper_proved,theta_mode\n";
  for (const SmallTableRow& r : rows) {
    absl::StrAppendFormat(
        &out,
        "\"%s\",%d,%d,%d,%d,%s,%s,%d,%.6g,%.6g,%.6g,"
        "%.6g,%.6g,%.6g,%d\n",
        r.table, r.rows, r.edges, r.non_isolated, r.max_degree, r.measure,
        r.method, r.stats.runs, r.stats.true_value, r.stats.error_median,
        r.stats.error_p90, r.stats.error_mean, r.stats.coverage,
        r.stats.upper_proved, r.stats.theta_mode);
  }
  return out;
}

std::string SmallTablesMarkdown(const std::vector<SmallTableRow>& rows) {
  if (rows.empty()) return "";
  std::string out = absl::StrFormat(
      "Median / 90th-percentile relative error over %d releases at epsilon "
      "1, N = 2 x rows, and the share of releases whose 95%% interval held "
      "the exact value (cov.; `1s` when the upper end was only the public "
      "maximum in some runs).\n\n",
      rows[0].stats.runs);
  out +=
      "| table | rows | edges | I_P | max degree | I_MI group_bound | I_MI "
      "gem | I_MI optimized | I_P group_bound | I_P gem | I_P optimized | "
      "theta (MI / P) "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < rows.size();) {
    const SmallTableRow& first = rows[i];
    std::vector<std::string> cells;
    std::string theta_mi, theta_p;
    for (; i < rows.size() && rows[i].table == first.table; ++i) {
      const SmallTableRow& r = rows[i];
      cells.push_back(absl::StrFormat(
          "%.2f / %.2f, cov. %.2f%s", r.stats.error_median, r.stats.error_p90,
          r.stats.coverage, r.stats.upper_proved < 1 ? " 1s" : ""));
      if (r.method == "group_bound") {
        (r.measure == "MI" ? theta_mi : theta_p) =
            absl::StrCat(r.stats.theta_mode);
      }
    }
    absl::StrAppend(&out, "| ", first.table, " | ", first.rows, " | ",
                    first.edges, " | ", first.non_isolated, " | ",
                    first.max_degree, " | ", absl::StrJoin(cells, " | "), " | ",
                    theta_mi, " / ", theta_p, " |\n");
  }
  return out;
}

}  // namespace dpq::bench::experiments
