#include "server/metrics/registry.h"

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "server/metrics/metric.h"

namespace dpq::server::metrics {
namespace {

TEST(RegistryTest, RendersEveryKindExactly) {
  Registry registry;
  // Added out of order: the text is sorted by name.
  Family<Gauge>& gauge = registry.AddGauge("z_gauge", "A gauge.", {});
  Family<Counter>& counter = registry.AddCounter(
      "a_total", "Calls, by method\nand code.", {"method", "code"});
  Family<Histogram>& histogram = registry.AddHistogram(
      "m_seconds", "Latency.", {"method"}, {0.001, 0.5, 2.5}, 9);
  Family<Counter>& epsilon =
      registry.AddCounter("e_total", "Epsilon.", {"dataset"}, 12);

  counter.With({"B.Get", "OK"}).Increment(2);
  counter.With({"A.Put", "INTERNAL"}).Increment();
  counter.With({"A.Put", "CANCELLED"}).Increment();
  gauge.With({}).Add(5);
  gauge.With({}).Add(-2);
  histogram.With({"x"}).Observe(1'000'000);      // 0.001 s: le="0.001"
  histogram.With({"x"}).Observe(400'000'000);    // 0.4 s
  histogram.With({"x"}).Observe(3'000'000'000);  // 3 s: only +Inf
  epsilon.With({"hos\"p\\ital\n"}).Increment(100'000'000'000);
  epsilon.With({"hos\"p\\ital\n"}).Increment(200'000'000'000);

  EXPECT_EQ(registry.Render(),
            "# HELP a_total Calls, by method\\nand code.\n"
            "# TYPE a_total counter\n"
            "a_total{method=\"A.Put\",code=\"CANCELLED\"} 1\n"
            "a_total{method=\"A.Put\",code=\"INTERNAL\"} 1\n"
            "a_total{method=\"B.Get\",code=\"OK\"} 2\n"
            "# HELP e_total Epsilon.\n"
            "# TYPE e_total counter\n"
            "e_total{dataset=\"hos\\\"p\\\\ital\\n\"} 0.3\n"
            "# HELP m_seconds Latency.\n"
            "# TYPE m_seconds histogram\n"
            "m_seconds_bucket{method=\"x\",le=\"0.001\"} 1\n"
            "m_seconds_bucket{method=\"x\",le=\"0.5\"} 2\n"
            "m_seconds_bucket{method=\"x\",le=\"2.5\"} 2\n"
            "m_seconds_bucket{method=\"x\",le=\"+Inf\"} 3\n"
            "m_seconds_sum{method=\"x\"} 3.401\n"
            "m_seconds_count{method=\"x\"} 3\n"
            "# HELP z_gauge A gauge.\n"
            "# TYPE z_gauge gauge\n"
            "z_gauge 3\n");
}

TEST(RegistryTest, UnlabelledFamiliesRenderZeroAndLabelledOnesNothing) {
  Registry registry;
  registry.AddCounter("c_total", "C.", {});
  registry.AddHistogram("h_seconds", "H.", {}, {1}, 9);
  registry.AddCounter("l_total", "L.", {"dataset"});
  EXPECT_EQ(registry.Render(),
            "# HELP c_total C.\n# TYPE c_total counter\nc_total 0\n"
            "# HELP h_seconds H.\n# TYPE h_seconds histogram\n"
            "h_seconds_bucket{le=\"1\"} 0\nh_seconds_bucket{le=\"+Inf\"} 0\n"
            "h_seconds_sum 0\nh_seconds_count 0\n"
            "# HELP l_total L.\n# TYPE l_total counter\n");
}

TEST(RegistryTest, CounterIgnoresNegativeIncrements) {
  Counter counter;
  counter.Increment(3);
  counter.Increment(-2);
  EXPECT_EQ(counter.value(), 3);
}

// Many threads create and update the same and different children while
// another renders: every increment is counted, and the output stays well
// formed (the final text is exact).
TEST(RegistryTest, ConcurrentUpdatesAreAllCounted) {
  Registry registry;
  Family<Counter>& counter = registry.AddCounter("c_total", "C.", {"k"});
  Family<Histogram>& histogram =
      registry.AddHistogram("h_seconds", "H.", {"k"}, {0.5}, 9);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20'000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string own = absl::StrCat("t", t);
      for (int i = 0; i < kPerThread; ++i) {
        counter.With({"shared"}).Increment();
        counter.With({own}).Increment();
        // Alternately below and above the bound: half in each bucket.
        histogram.With({"shared"}).Observe(i % 2 == 0 ? 1 : 1'000'000'000);
      }
    });
  }
  std::thread renderer([&] {
    for (int i = 0; i < 50; ++i) EXPECT_FALSE(registry.Render().empty());
  });
  for (std::thread& t : threads) t.join();
  renderer.join();

  EXPECT_EQ(counter.With({"shared"}).value(), kThreads * kPerThread);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(counter.With({absl::StrCat("t", t)}).value(), kPerThread);
  }
  const Histogram::Snapshot snapshot = histogram.With({"shared"}).Read();
  EXPECT_EQ(snapshot.counts[0], kThreads * kPerThread / 2);
  EXPECT_EQ(snapshot.counts[1], kThreads * kPerThread / 2);
  EXPECT_EQ(snapshot.sum,
            int64_t{kThreads} * kPerThread / 2 * (1 + 1'000'000'000));
  const std::string text = registry.Render();
  EXPECT_NE(text.find("c_total{k=\"shared\"} 160000\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("h_seconds_count{k=\"shared\"} 160000\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace dpq::server::metrics
