// A set of metric families and their rendering as one scrape in the
// Prometheus text exposition format 0.0.4 (docs/operations.md, "Metrics"):
// families sorted by name, each with its HELP and TYPE lines. Thread-safe.
//
//   Registry registry;
//   Family<Counter>& calls = registry.AddCounter(
//       "dpq_calls_total", "Calls.", {"method"});
//   calls.With({"Get"}).Increment();
//   std::string text = registry.Render();
#ifndef DPQ_SERVER_METRICS_REGISTRY_H_
#define DPQ_SERVER_METRICS_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "server/metrics/family.h"
#include "server/metrics/metric.h"

namespace dpq::server::metrics {

class Registry {
 public:
  // New families; the references live as long as the registry. `name`
  // must be a valid metric name and unique in the registry; `decimals`
  // scales the integer values for rendering (12 for units of 10^-12,
  // 9 for nanoseconds rendered as seconds).
  Family<Counter>& AddCounter(std::string name, std::string help,
                              std::vector<std::string> label_names,
                              int decimals = 0) ABSL_LOCKS_EXCLUDED(mu_);
  Family<Gauge>& AddGauge(std::string name, std::string help,
                          std::vector<std::string> label_names,
                          int decimals = 0) ABSL_LOCKS_EXCLUDED(mu_);
  // `bounds` ascending, in rendered units (seconds); observations in units
  // of 10^-decimals.
  Family<Histogram>& AddHistogram(std::string name, std::string help,
                                  std::vector<std::string> label_names,
                                  std::vector<double> bounds, int decimals)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Every family, sorted by name.
  std::string Render() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  template <typename F>
  F& Add(std::unique_ptr<F> family) ABSL_LOCKS_EXCLUDED(mu_);

  mutable absl::Mutex mu_;
  std::vector<std::unique_ptr<FamilyBase>> families_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_REGISTRY_H_
