#include "server/metrics/registry.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/metrics/text_format.h"

namespace dpq::server::metrics {

void FamilyBase::RenderHeader(std::string* out) const {
  absl::StrAppend(out, "# HELP ", name_, " ", EscapeHelp(help_), "\n",
                  "# TYPE ", name_, " ", type_, "\n");
}

void RenderSamples(const std::string& name, const Labels& labels,
                   const Counter& metric, int decimals, std::string* out) {
  absl::StrAppend(out, name, FormatLabels(labels), " ",
                  ScaledDecimal(metric.value(), decimals), "\n");
}

void RenderSamples(const std::string& name, const Labels& labels,
                   const Gauge& metric, int decimals, std::string* out) {
  absl::StrAppend(out, name, FormatLabels(labels), " ",
                  ScaledDecimal(metric.value(), decimals), "\n");
}

void RenderSamples(const std::string& name, const Labels& labels,
                   const Histogram& metric, int decimals, std::string* out) {
  const Histogram::Snapshot snapshot = metric.Read();
  // The count is the +Inf bucket's cumulative count, so the two agree.
  uint64_t cumulative = 0;
  Labels bucket_labels = labels;
  bucket_labels.emplace_back("le", "");
  for (size_t i = 0; i < snapshot.counts.size(); ++i) {
    cumulative += snapshot.counts[i];
    bucket_labels.back().second =
        i < metric.bounds().size() ? FormatDouble(metric.bounds()[i]) : "+Inf";
    absl::StrAppend(out, name, "_bucket", FormatLabels(bucket_labels), " ",
                    cumulative, "\n");
  }
  const std::string plain = FormatLabels(labels);
  absl::StrAppend(out, name, "_sum", plain, " ",
                  ScaledDecimal(snapshot.sum, decimals), "\n", name, "_count",
                  plain, " ", cumulative, "\n");
}

template <typename F>
F& Registry::Add(std::unique_ptr<F> family) {
  F& result = *family;
  absl::MutexLock lock(&mu_);
  families_.push_back(std::move(family));
  return result;
}

Family<Counter>& Registry::AddCounter(std::string name, std::string help,
                                      std::vector<std::string> label_names,
                                      int decimals) {
  return Add(std::make_unique<Family<Counter>>(
      std::move(name), std::move(help), "counter", std::move(label_names),
      decimals, [] { return std::make_unique<Counter>(); }));
}

Family<Gauge>& Registry::AddGauge(std::string name, std::string help,
                                  std::vector<std::string> label_names,
                                  int decimals) {
  return Add(std::make_unique<Family<Gauge>>(
      std::move(name), std::move(help), "gauge", std::move(label_names),
      decimals, [] { return std::make_unique<Gauge>(); }));
}

Family<Histogram>& Registry::AddHistogram(std::string name, std::string help,
                                          std::vector<std::string> label_names,
                                          std::vector<double> bounds,
                                          int decimals) {
  return Add(std::make_unique<Family<Histogram>>(
      std::move(name), std::move(help), "histogram", std::move(label_names),
      decimals, [bounds = std::move(bounds), decimals] {
        return std::make_unique<Histogram>(bounds, decimals);
      }));
}

std::string Registry::Render() const {
  absl::MutexLock lock(&mu_);
  std::vector<const FamilyBase*> sorted;
  sorted.reserve(families_.size());
  for (const auto& family : families_) sorted.push_back(family.get());
  std::sort(sorted.begin(), sorted.end(),
            [](const FamilyBase* a, const FamilyBase* b) {
              return a->name() < b->name();
            });
  std::string out;
  for (const FamilyBase* family : sorted) family->Render(&out);
  return out;
}

}  // namespace dpq::server::metrics
