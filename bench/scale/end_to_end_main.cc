// dpq-scale-e2e: the end-to-end workload of the performance targets
// (docs/performance.md "Targets"), timed phase by phase: load the CSV, parse
// the DCs, build the conflict graph, then release I_MI, I_P and I_R (optimized
// method, epsilon 1 each, N = 2 * rows) from one graph, as the service does.
// private_seconds includes the degree bounds of the optimized method
// (degree_bound_seconds, once for all three).
// Prints one JSON object with the phase times (wall seconds), the graph size
// and the peak RSS (getrusage).
//
//   dpq-scale-e2e --data F.csv --constraints F.dc [--threads T]
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/constraints/dc_parser.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/measures/measure.h"
#include "core/private/cover_bound.h"
#include "core/private/degree_bound.h"
#include "core/private/private_measures.h"
#include "core/table/csv_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

long PeakRssKib() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

int Fail(const absl::Status& status) {
  std::cerr << "dpq-scale-e2e: " << status << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  namespace core = dpq::core;
  std::string data, dcs_path;
  int threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    if (name == "--data") data = argv[i + 1];
    if (name == "--constraints") dcs_path = argv[i + 1];
    if (name == "--threads" && !absl::SimpleAtoi(argv[i + 1], &threads)) {
      threads = -1;
    }
  }
  if (data.empty() || dcs_path.empty() || threads < 0) {
    std::cerr << "usage: dpq-scale-e2e --data F.csv --constraints F.dc "
                 "[--threads T]\n";
    return 2;
  }
  const auto start = Clock::now();
  auto table = core::table::ReadCsvFile(data);
  if (!table.ok()) return Fail(table.status());
  const double load = Since(start);
  auto t = Clock::now();
  auto dcs =
      core::constraints::ReadDenialConstraintsFile(dcs_path, table->schema());
  if (!dcs.ok()) return Fail(dcs.status());
  const double parse = Since(t);
  t = Clock::now();
  core::graph::ConflictGraphOptions options;
  options.num_threads = threads;
  auto graph = core::graph::BuildConflictGraph(*table, *dcs, options);
  if (!graph.ok()) return Fail(graph.status());
  const double build = Since(t);

  t = Clock::now();
  core::dp::OpenSslUrbg urbg;
  core::private_measures::PrivateMeasureRequest request;
  request.epsilon = 1.0;
  request.public_max_rows = 2 * table->num_rows();
  auto bounds = core::private_measures::ComputeDegreeBounds(*table, *dcs);
  if (!bounds.ok()) return Fail(bounds.status());
  request.degree_bounds = *std::move(bounds);
  const double degree_bounds = Since(t);
  // What a server computes once per dataset for cover_bound (I_R).
  t = Clock::now();
  auto cover =
      core::private_measures::ComputeCoverBound(*table, *dcs, graph->graph);
  if (!cover.ok()) return Fail(cover.status());
  request.cover_bound = *cover;
  const double cover_bound = Since(t);
  std::string measures;
  std::vector<double> measure_seconds;
  for (auto m : {core::measures::Measure::kMinimalInconsistency,
                 core::measures::Measure::kProblematic,
                 core::measures::Measure::kRepair}) {
    const auto mt = Clock::now();
    request.measure = m;
    auto r = core::private_measures::ComputePrivateMeasure(urbg, graph->graph,
                                                           request);
    if (!r.ok()) return Fail(r.status());
    absl::StrAppend(
        &measures, measures.empty() ? "" : ",", "{\"value\":", r->value,
        ",\"theta\":", r->theta.value_or(0), ",\"seconds\":", Since(mt), "}");
  }
  const double private_seconds = Since(t);
  std::cout << "{\"rows\":" << table->num_rows()
            << ",\"edges\":" << graph->graph.num_edges()
            << ",\"load_seconds\":" << load << ",\"parse_seconds\":" << parse
            << ",\"build_seconds\":" << build
            << ",\"degree_bound_seconds\":" << degree_bounds
            << ",\"cover_bound_seconds\":" << cover_bound
            << ",\"private_seconds\":" << private_seconds
            << ",\"total_seconds\":" << Since(start)
            << ",\"peak_rss_mib\":" << PeakRssKib() / 1024
            << ",\"threads\":" << graph->stats.num_threads << ",\"measures\":["
            << measures << "]}\n";
  return 0;
}
