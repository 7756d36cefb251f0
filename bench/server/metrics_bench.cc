// dpq_metrics_bench: the cost of the metrics hooks on the hot path
// (docs/performance.md, "Metrics overhead"): what one RPC pays
// (RecordRpc: a family lookup under its reader lock, a counter and a
// histogram), what a release's ledger operations add, with 1 and 2
// threads on the same series (the worst case: one shared cache line), and
// one scrape's rendering.
#include <string>

#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "server/metrics/server_metrics.h"

namespace {

using dpq::server::metrics::ServerMetrics;

ServerMetrics& Metrics() {
  static ServerMetrics* const metrics = [] {
    auto* m = new ServerMetrics("bench", absl::UnixEpoch());
    m->EnableRecording();
    return m;
  }();
  return *metrics;
}

void BM_RecordRpc(benchmark::State& state) {
  ServerMetrics& metrics = Metrics();
  for (auto _ : state) {
    metrics.RecordRpc("BuyerService.MeasureInconsistency", 0,
                      absl::Microseconds(900));
  }
}
BENCHMARK(BM_RecordRpc)->Threads(1)->Threads(2);

// A release's ledger hooks: reserve and commit timings and the epsilon.
void BM_RecordRelease(benchmark::State& state) {
  ServerMetrics& metrics = Metrics();
  for (auto _ : state) {
    metrics.RecordLedgerOperation("reserve", "sqlite", absl::Microseconds(80));
    metrics.RecordEpsilonCharged("bench", 1'000'000'000);
    metrics.RecordLedgerOperation("commit", "sqlite", absl::Microseconds(120));
  }
}
BENCHMARK(BM_RecordRelease)->Threads(1)->Threads(2);

void BM_Render(benchmark::State& state) {
  ServerMetrics& metrics = Metrics();
  const char* methods[] = {"A.One", "A.Two", "B.Three", "B.Four", "B.Five"};
  for (const char* method : methods) {
    for (int code : {0, 3, 8, 16}) {
      metrics.RecordRpc(method, code, absl::Milliseconds(1));
    }
  }
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = metrics.Render();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Render);

}  // namespace

BENCHMARK_MAIN();
