// A labelled family of metrics: one name, HELP and TYPE, and one metric per
// combination of label values, created on first use and kept for the
// family's life (so callers may hold the reference). Looking a child up
// takes the family's reader lock (shared, never a global lock); observing
// it is atomic (metric.h). Rendering sorts the children by their label
// values, so a scrape's text is stable.
#ifndef DPQ_SERVER_METRICS_FAMILY_H_
#define DPQ_SERVER_METRICS_FAMILY_H_

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "server/metrics/metric.h"
#include "server/metrics/text_format.h"

namespace dpq::server::metrics {

// The samples of one metric, appended to `out`: `name{labels} value` lines
// (for a histogram its _bucket, _sum and _count lines), values scaled by
// 10^-decimals.
void RenderSamples(const std::string& name, const Labels& labels,
                   const Counter& metric, int decimals, std::string* out);
void RenderSamples(const std::string& name, const Labels& labels,
                   const Gauge& metric, int decimals, std::string* out);
void RenderSamples(const std::string& name, const Labels& labels,
                   const Histogram& metric, int decimals, std::string* out);

// What a Registry holds.
class FamilyBase {
 public:
  virtual ~FamilyBase() = default;
  const std::string& name() const { return name_; }
  // The HELP and TYPE lines, then every child's samples.
  virtual void Render(std::string* out) const = 0;

 protected:
  FamilyBase(std::string name, std::string help, const char* type,
             std::vector<std::string> label_names, int decimals)
      : name_(std::move(name)),
        help_(std::move(help)),
        type_(type),
        label_names_(std::move(label_names)),
        decimals_(decimals) {}
  void RenderHeader(std::string* out) const;

  const std::string name_;
  const std::string help_;
  const char* const type_;
  const std::vector<std::string> label_names_;
  const int decimals_;
};

template <typename M>
class Family final : public FamilyBase {
 public:
  // `make` creates a child (e.g. a Histogram with the family's buckets).
  // A family without label names has its one child from the start, so it
  // renders 0 before anything happened.
  Family(std::string name, std::string help, const char* type,
         std::vector<std::string> label_names, int decimals,
         std::function<std::unique_ptr<M>()> make)
      : FamilyBase(std::move(name), std::move(help), type,
                   std::move(label_names), decimals),
        make_(std::move(make)) {
    if (label_names_.empty()) With({});
  }

  // The metric of these label values, one per label name in order (extra
  // values are ignored, missing ones are empty).
  M& With(std::initializer_list<absl::string_view> values)
      ABSL_LOCKS_EXCLUDED(mu_) {
    // The key in a per-thread buffer: no allocation once it has grown.
    thread_local std::string key;
    key.clear();
    for (const absl::string_view value : values) {
      key.append(value.data(), value.size());
      key.push_back('\0');
    }
    {
      absl::ReaderMutexLock lock(&mu_);
      if (auto it = children_.find(absl::string_view(key));
          it != children_.end()) {
        return *it->second.metric;
      }
    }
    absl::MutexLock lock(&mu_);
    Child& child = children_[key];
    if (child.metric == nullptr) {
      auto value = values.begin();
      for (size_t i = 0; i < label_names_.size(); ++i) {
        child.labels.emplace_back(label_names_[i], value == values.end()
                                                       ? std::string()
                                                       : std::string(*value++));
      }
      child.metric = make_();
    }
    return *child.metric;
  }

  void Render(std::string* out) const override ABSL_LOCKS_EXCLUDED(mu_) {
    RenderHeader(out);
    absl::ReaderMutexLock lock(&mu_);
    std::vector<const Child*> sorted;
    sorted.reserve(children_.size());
    for (const auto& [key, child] : children_) sorted.push_back(&child);
    std::sort(sorted.begin(), sorted.end(), [](const Child* a, const Child* b) {
      return a->labels < b->labels;
    });
    for (const Child* child : sorted) {
      RenderSamples(name_, child->labels, *child->metric, decimals_, out);
    }
  }

 private:
  struct Child {
    Labels labels;
    std::unique_ptr<M> metric;
  };
  const std::function<std::unique_ptr<M>()> make_;
  mutable absl::Mutex mu_;
  // Keyed by the label values, each followed by '\0'.
  absl::flat_hash_map<std::string, Child> children_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_FAMILY_H_
