// The three kinds of metric (docs/operations.md, "Metrics"): a counter that
// only grows, a gauge that goes up and down, and a histogram with fixed
// buckets. Values are integers (events, units of 10^-12 epsilon,
// nanoseconds), so sums are exact; a family renders them with a decimal
// scale. Every operation is one relaxed atomic (two for a histogram): no
// lock, safe from any thread, cheap enough for every RPC.
#ifndef DPQ_SERVER_METRICS_METRIC_H_
#define DPQ_SERVER_METRICS_METRIC_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace dpq::server::metrics {

class Counter {
 public:
  // `n` >= 0 (a counter never decreases; negative values are ignored).
  void Increment(int64_t n = 1) {
    if (n > 0) value_.fetch_add(n, std::memory_order_relaxed);
  }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

class Gauge {
 public:
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  void Set(int64_t n) { value_.store(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Observations in integer units of 10^-decimals (e.g. nanoseconds with
// decimals = 9), counted in fixed buckets whose upper bounds (inclusive,
// Prometheus' `le`) are given in whole units of the rendered value
// (seconds).
class Histogram {
 public:
  // `bounds` ascending, finite; `decimals` in [0, 18].
  Histogram(const std::vector<double>& bounds, int decimals);

  void Observe(int64_t value);

  // A consistent-enough snapshot for rendering: per-bucket counts (not
  // cumulative; the last one is +Inf) and the sum. Concurrent observations
  // may be in the counts but not yet in the sum (or the reverse).
  struct Snapshot {
    std::vector<uint64_t> counts;
    int64_t sum = 0;
  };
  Snapshot Read() const;
  const std::vector<double>& bounds() const { return bounds_; }
  int decimals() const { return decimals_; }

 private:
  const std::vector<double> bounds_;
  const int decimals_;
  // bounds_ in units, for the comparison on the hot path.
  std::vector<int64_t> unit_bounds_;
  // One per bound, then +Inf.
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<int64_t> sum_{0};
};

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_METRIC_H_
