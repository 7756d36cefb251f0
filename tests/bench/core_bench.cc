// Google Benchmark suite for core/ on the real datasets in ../shared/data.
// Run: build/tests/bench/dpq_core_bench [--benchmark_filter=Graph]
// The numbers we measured are in docs/performance.md.
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "core/constraints/dc_parser.h"
#include "core/dp/hash_drbg.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/graph/edge_addition.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/exact_measures.h"
#include "core/private/degree_bound.h"
#include "core/private/private_measures.h"
#include "core/table/csv_reader.h"

namespace dpq::core {
namespace {

std::string DataPath(const std::string& relative) {
  return std::string(DPQ_SHARED_DATA_DIR) + "/" + relative;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A dataset loaded once per benchmark process.
struct Dataset {
  table::Table table;
  std::vector<constraints::DenialConstraint> dcs;
  graph::ConflictGraph graph;
};

const Dataset& Load(const std::string& csv, const std::string& dc) {
  static auto* cache = new std::map<std::string, Dataset>();
  auto it = cache->find(csv + dc);
  if (it != cache->end()) return it->second;
  Dataset d;
  d.table = *table::ReadCsvFile(DataPath(csv));
  d.dcs = *constraints::ReadDenialConstraintsFile(DataPath(dc),
                                                  d.table.schema());
  d.graph = *graph::BuildConflictGraph(d.table, d.dcs);
  return cache->emplace(csv + dc, std::move(d)).first->second;
}

struct Workload {
  const char* csv;
  const char* dc;
};
const Workload kWorkloads[] = {
    {"hospital/dirty.csv", "hospital/constraints.dc"},
    {"flights/dirty.csv", "flights/constraints.dc"},
    {"tax/dirty-50k.csv", "tax/constraints.dc"},
    {"tax/dirty-50k.csv", "tax/constraints-paper.dc"},
    {"adult/adult.csv", "adult/constraints.dc"},
};

void SetLabel(benchmark::State& state, const Workload& w) {
  state.SetLabel(std::string(w.csv) + " + " + w.dc);
}

void BM_CsvLoad(benchmark::State& state) {
  const Workload& w = kWorkloads[state.range(0)];
  const std::string text = ReadFile(DataPath(w.csv));
  for (auto _ : state) {
    auto t = table::ReadCsv(text);
    benchmark::DoNotOptimize(t);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
  SetLabel(state, w);
}
BENCHMARK(BM_CsvLoad)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

void BM_DcParse(benchmark::State& state) {
  const Workload& w = kWorkloads[state.range(0)];
  const Dataset& d = Load(w.csv, w.dc);
  const std::string text = ReadFile(DataPath(w.dc));
  for (auto _ : state) {
    auto dcs = constraints::ParseDenialConstraints(text, d.table.schema());
    benchmark::DoNotOptimize(dcs);
  }
  SetLabel(state, w);
}
BENCHMARK(BM_DcParse)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Arg 0: workload; arg 1: threads.
void BM_ConflictGraphBuild(benchmark::State& state) {
  const Workload& w = kWorkloads[state.range(0)];
  const Dataset& d = Load(w.csv, w.dc);
  graph::ConflictGraphOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    auto g = graph::BuildConflictGraph(d.table, d.dcs, options);
    benchmark::DoNotOptimize(g);
  }
  state.counters["edges"] = static_cast<double>(d.graph.graph.num_edges());
  state.counters["rows"] = static_cast<double>(d.table.num_rows());
  SetLabel(state, w);
}
BENCHMARK(BM_ConflictGraphBuild)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1, 2}})
    ->Unit(benchmark::kMillisecond);

void BM_EdgeAddition(benchmark::State& state) {
  const Dataset& d = Load("tax/dirty-50k.csv", "tax/constraints-paper.dc");
  const uint32_t theta = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(graph::EdgeAdditionCounts(d.graph.graph, theta));
  }
  state.counters["edges"] = static_cast<double>(d.graph.graph.num_edges());
}
BENCHMARK(BM_EdgeAddition)->Arg(1)->Arg(10)->Arg(100)->Unit(
    benchmark::kMillisecond);

void BM_StableVertexCover(benchmark::State& state) {
  const Dataset& d = Load("tax/dirty-50k.csv", "tax/constraints-paper.dc");
  for (auto _ : state) {
    benchmark::DoNotOptimize(graph::StableGreedyVertexCoverSize(d.graph.graph));
  }
}
BENCHMARK(BM_StableVertexCover)->Unit(benchmark::kMillisecond);

void BM_ExactRepair(benchmark::State& state) {
  const Workload& w = kWorkloads[state.range(0)];
  const Dataset& d = Load(w.csv, w.dc);
  for (auto _ : state) {
    auto r = measures::ComputeExactMeasure(d.graph.graph,
                                           measures::Measure::kRepair);
    benchmark::DoNotOptimize(r);
  }
  SetLabel(state, w);
}
BENCHMARK(BM_ExactRepair)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

// Arg 0: workload; arg 1: measure (0 = MI, 1 = P, 2 = R); the default
// (optimized) method, N = 2 * rows. The graph is prebuilt (cached), as in
// the service.
void BM_PrivateMeasure(benchmark::State& state) {
  const Workload& w = kWorkloads[state.range(0)];
  const Dataset& d = Load(w.csv, w.dc);
  const measures::Measure kMeasures[] = {
      measures::Measure::kMinimalInconsistency,
      measures::Measure::kProblematic, measures::Measure::kRepair};
  private_measures::PrivateMeasureRequest request;
  request.measure = kMeasures[state.range(1)];
  request.epsilon = 1.0;
  request.public_max_rows = 2 * d.table.num_rows();
  request.degree_bounds = *private_measures::ComputeDegreeBounds(d.table, d.dcs);
  dp::HashDrbg urbg(1);
  for (auto _ : state) {
    auto r = private_measures::ComputePrivateMeasure(urbg, d.graph.graph,
                                                     request);
    benchmark::DoNotOptimize(r);
  }
  SetLabel(state, w);
}
BENCHMARK(BM_PrivateMeasure)
    ->ArgsProduct({{0, 2, 3}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dpq::core

BENCHMARK_MAIN();
