#include "server/metrics/metric.h"

#include <algorithm>
#include <cmath>

namespace dpq::server::metrics {

Histogram::Histogram(const std::vector<double>& bounds, int decimals)
    : bounds_(bounds),
      decimals_(decimals),
      counts_(new std::atomic<uint64_t>[bounds.size() + 1]) {
  const double scale = std::pow(10.0, decimals);
  unit_bounds_.reserve(bounds.size());
  for (const double bound : bounds) {
    unit_bounds_.push_back(static_cast<int64_t>(std::llround(bound * scale)));
  }
  for (size_t i = 0; i <= bounds.size(); ++i) counts_[i].store(0);
}

void Histogram::Observe(int64_t value) {
  // The first bucket whose bound is >= value (le is inclusive).
  const size_t bucket = static_cast<size_t>(
      std::lower_bound(unit_bounds_.begin(), unit_bounds_.end(), value) -
      unit_bounds_.begin());
  counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot snapshot;
  snapshot.counts.reserve(bounds_.size() + 1);
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    snapshot.counts.push_back(counts_[i].load(std::memory_order_relaxed));
  }
  snapshot.sum = sum_.load(std::memory_order_relaxed);
  return snapshot;
}

}  // namespace dpq::server::metrics
