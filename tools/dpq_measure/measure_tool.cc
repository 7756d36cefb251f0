#include "tools/dpq_measure/measure_tool.h"

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/constraints/dc_parser.h"
#include "core/dp/epsilon.h"
#include "core/dp/hash_drbg.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/measures/exact_measures.h"
#include "core/measures/measure.h"
#include "core/private/cover_bound.h"
#include "core/private/degree_bound.h"
#include "core/private/private_measures.h"
#include "core/private/release_inputs.h"
#include "core/table/csv_reader.h"
#include "core/util/json_writer.h"
#include "core/util/status_macros.h"

namespace dpq::server::tools {
namespace {

using core::measures::Measure;
using core::util::JsonObjectWriter;
namespace pm = core::private_measures;

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("Cannot open '", path, "'."));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

double SecondsSince(absl::Time start) {
  return absl::ToDoubleSeconds(absl::Now() - start);
}

// Everything the measures need, loaded from the three input files.
struct LoadedDataset {
  core::table::Table table;
  std::vector<core::constraints::DenialConstraint> dcs;
  core::graph::ConflictGraph graph;
  // Computed beside the graph when the release needs them.
  std::vector<pm::DcDegreeBound> degree_bounds;
  std::optional<uint64_t> cover_bound;
  double load_seconds = 0;
};

absl::StatusOr<LoadedDataset> LoadDataset(const MeasureToolOptions& o,
                                          const pm::ReleaseInputsWanted& wanted,
                                          std::vector<std::string>* warnings) {
  LoadedDataset d;
  const absl::Time start = absl::Now();
  core::table::CsvOptions csv;
  if (o.schema_path.has_value()) {
    ASSIGN_OR_RETURN(std::string text, ReadTextFile(*o.schema_path));
    ASSIGN_OR_RETURN(csv.schema, core::table::ParseSchemaOverrides(text));
    // Every column must be declared: a column left to inference could be
    // re-typed by one added row.
    csv.untyped = core::table::UntypedColumns::kRefuse;
  } else {
    csv.untyped = core::table::UntypedColumns::kString;
    warnings->push_back(
        "no --schema: every column is read as text (a data-independent "
        "default; comparisons are byte-wise). Declare the types with "
        "--schema F; `dpq-measure --print-schema --data F.csv` suggests "
        "them.");
  }
  ASSIGN_OR_RETURN(d.table, core::table::ReadCsvFile(o.data_path, csv));
  d.load_seconds = SecondsSince(start);
  ASSIGN_OR_RETURN(d.dcs, core::constraints::ReadDenialConstraintsFile(
                              o.constraints_path, d.table.schema()));
  core::graph::ConflictGraphOptions graph_options;
  graph_options.num_threads = o.threads;
  ASSIGN_OR_RETURN(
      pm::ReleaseInputs inputs,
      pm::ComputeReleaseInputs(d.table, d.dcs, graph_options, wanted));
  d.graph = std::move(inputs.graph);
  d.degree_bounds = std::move(inputs.degree_bounds);
  d.cover_bound = inputs.cover_bound;
  return d;
}

void AddExactResult(const core::measures::ExactResult& r, JsonObjectWriter& j) {
  if (r.value.has_value()) {
    j.Add("value", *r.value);
  } else {
    j.AddNull("value");
  }
  if (!r.repair.has_value()) return;
  // I_R: the bounds matter to an owner even when the optimum is proven.
  j.Add("optimal", r.exact());
  j.Add("lower_bound", r.lower_bound);
  j.Add("upper_bound", r.upper_bound);
  j.Add("lp_bound", r.repair->lp_value());
  j.Add("approx_2", r.repair->stable_greedy_size);
  if (!r.repair->not_exact_reason.empty()) {
    j.Add("note", r.repair->not_exact_reason);
  }
}

// Sets request.method (I_MI, I_P) or request.repair_method (I_R) from
// `text`; empty keeps the defaults.
absl::Status ParseMethod(const std::string& text, Measure measure,
                         pm::PrivateMeasureRequest& request) {
  if (text.empty()) return absl::OkStatus();
  if (measure == Measure::kRepair) {
    ASSIGN_OR_RETURN(request.repair_method, pm::ParseRepairMethod(text));
  } else {
    ASSIGN_OR_RETURN(request.method, pm::ParseSelectionMethod(text));
  }
  return absl::OkStatus();
}

// What the release of `request` needs beside the graph (computed with it,
// LoadDataset).
pm::ReleaseInputsWanted Wanted(Measure measure,
                               const pm::PrivateMeasureRequest& request) {
  pm::ReleaseInputsWanted wanted;
  wanted.degree_bounds =
      measure != Measure::kRepair && pm::UsesDegreeBounds(request.method);
  wanted.cover_bound = measure == Measure::kRepair &&
                       request.repair_method == pm::RepairMethod::kCoverBound;
  return wanted;
}

// A DP release and the N it was computed with.
struct PrivateRun {
  pm::PrivateMeasureResult result;
  uint64_t public_max_rows = 0;
};

absl::StatusOr<PrivateRun> RunPrivate(const MeasureToolOptions& o,
                                      Measure measure, const LoadedDataset& d,
                                      std::vector<std::string>* warnings) {
  pm::PrivateMeasureRequest request;
  request.measure = measure;
  request.epsilon = *o.epsilon;
  RETURN_IF_ERROR(ParseMethod(o.method, measure, request));
  if (o.public_max_rows.has_value()) {
    request.public_max_rows = *o.public_max_rows;
  } else {
    request.public_max_rows = d.table.num_rows();
    warnings->push_back(absl::StrCat(
        "--public-max-rows not given: using the true row count (",
        d.table.num_rows(),
        ") as N, which treats it as public. Pass the public bound for real "
        "releases."));
  }
  const pm::ReleaseInputsWanted wanted = Wanted(measure, request);
  if (wanted.degree_bounds) {
    request.degree_bounds = d.degree_bounds;
    request.degree_keys = pm::CountDegreeKeys(d.dcs);
  }
  if (wanted.cover_bound) request.cover_bound = d.cover_bound;
  if (measure == Measure::kRepair &&
      request.repair_method == pm::RepairMethod::kExact) {
    ASSIGN_OR_RETURN(request.exact_repair,
                     core::measures::ExactRepairOrExplain(d.graph.graph));
  }
  std::unique_ptr<core::dp::SecureUrbg> urbg;
  if (o.seed.has_value()) {
    urbg = std::make_unique<core::dp::HashDrbg>(*o.seed);
  } else {
    urbg = std::make_unique<core::dp::OpenSslUrbg>();
  }
  PrivateRun run;
  run.public_max_rows = request.public_max_rows;
  ASSIGN_OR_RETURN(run.result,
                   pm::ComputePrivateMeasure(*urbg, d.graph.graph, request));
  return run;
}

// Everything after `value`, `rows`, `edges` and `graph_seconds`.
void AddPrivateDetails(const PrivateRun& run, bool seeded,
                       JsonObjectWriter& j) {
  const pm::PrivateMeasureResult& r = run.result;
  j.Add("epsilon", r.epsilon_spent);
  if (r.theta.has_value()) {
    j.Add("theta", *r.theta);
  } else {
    j.AddNull("theta");
  }
  j.Add("bound95", r.bound95);
  j.Add("lower95", r.lower95);
  j.Add("upper95", r.upper95);
  j.Add("upper_proved", r.upper_proved);
  if (r.degree_upper.has_value()) j.Add("degree_upper", *r.degree_upper);
  if (r.theta.has_value()) j.Add("truncated", r.truncated);
  j.Add("method", r.method);
  j.Add("estimates", pm::EstimateName(r.estimate));
  j.Add("public_max_rows", run.public_max_rows);
  j.Add("epsilon_degree_bound", r.epsilon_degree_bound);
  j.Add("epsilon_selection", r.epsilon_selection);
  j.Add("epsilon_release", r.epsilon_release);
  if (r.noisy_degree_bound.has_value()) {
    j.Add("noisy_degree_bound", *r.noisy_degree_bound);
  }
  j.Add("seeded", seeded);
}

void AddStats(const LoadedDataset& d, JsonObjectWriter& j) {
  const core::graph::Graph& g = d.graph.graph;
  j.Add("max_degree", g.max_degree());
  j.Add("non_isolated", g.num_non_isolated());
  j.Add("load_seconds", d.load_seconds);
  j.Add("build_seconds", d.graph.stats.build_seconds);
  j.Add("threads", d.graph.stats.num_threads);
  std::vector<std::string> per_dc;
  for (size_t i = 0; i < d.graph.stats.per_dc.size(); ++i) {
    const auto& s = d.graph.stats.per_dc[i];
    JsonObjectWriter dc;
    dc.Add("dc", d.dcs[i].text);
    dc.Add("violating_pairs", s.violating_pairs);
    dc.Add("method", s.method);
    dc.Add("seconds", s.seconds);
    if (s.same_pairs_as >= 0) dc.Add("same_pairs_as", s.same_pairs_as);
    per_dc.push_back(dc.Finish());
  }
  j.AddRaw("per_dc", absl::StrCat("[", absl::StrJoin(per_dc, ","), "]"));
}

}  // namespace

absl::StatusOr<std::string> PrintSchema(const MeasureToolOptions& o) {
  core::table::CsvOptions csv;
  csv.untyped = core::table::UntypedColumns::kInfer;  // the owner's review
  ASSIGN_OR_RETURN(const core::table::Table table,
                   core::table::ReadCsvFile(o.data_path, csv));
  std::string text =
      "# Suggested by dpq-measure --print-schema from the rows: review it.\n";
  for (const core::table::ColumnSpec& spec : table.schema().columns()) {
    absl::StrAppend(&text, spec.name, ": ",
                    core::table::ColumnTypeName(spec.type), "\n");
  }
  return text;
}

absl::StatusOr<std::string> RunMeasureTool(const MeasureToolOptions& o,
                                           std::vector<std::string>* warnings) {
  if (o.print_schema) return PrintSchema(o);
  ASSIGN_OR_RETURN(Measure measure, core::measures::ParseMeasure(o.measure));
  pm::ReleaseInputsWanted wanted{.degree_bounds = false, .cover_bound = false};
  if (o.epsilon.has_value()) {
    // Refuse before reading the data: these do not depend on it.
    RETURN_IF_ERROR(pm::CheckMeasureReleasable(measure));
    RETURN_IF_ERROR(core::dp::ValidateRequestEpsilon(*o.epsilon));
    pm::PrivateMeasureRequest probe;
    RETURN_IF_ERROR(ParseMethod(o.method, measure, probe));
    // Computed beside the graph, on the second core while it is idle.
    if (!o.exact) wanted = Wanted(measure, probe);
  }
  ASSIGN_OR_RETURN(LoadedDataset d, LoadDataset(o, wanted, warnings));

  JsonObjectWriter j;
  j.Add("measure", core::measures::MeasureName(measure));
  j.Add("exact", o.exact);
  std::optional<PrivateRun> run;
  if (o.exact) {
    ASSIGN_OR_RETURN(
        core::measures::ExactResult r,
        core::measures::ComputeExactMeasure(d.graph.graph, measure));
    AddExactResult(r, j);
  } else {
    ASSIGN_OR_RETURN(run, RunPrivate(o, measure, d, warnings));
    j.Add("value", run->result.value);
  }
  j.Add("rows", static_cast<uint64_t>(d.table.num_rows()));
  j.Add("edges", d.graph.graph.num_edges());
  j.Add("graph_seconds", d.graph.stats.build_seconds);
  if (run.has_value()) AddPrivateDetails(*run, o.seed.has_value(), j);
  if (o.stats) AddStats(d, j);
  return j.Finish();
}

}  // namespace dpq::server::tools
