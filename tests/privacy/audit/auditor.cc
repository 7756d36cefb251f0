#include "tests/privacy/audit/auditor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/privacy/audit/clopper_pearson.h"

namespace dpq::audit {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// An event on one view: x <= t, x >= t (numeric) or key == k.
struct Event {
  enum class Kind { kAtMost, kAtLeast, kEquals };
  Kind kind = Kind::kEquals;
  size_t view = 0;
  double threshold = 0;
  std::string key;

  bool Holds(const Observation& o) const {
    switch (kind) {
      case Kind::kAtMost:
        return o.numbers[view].second <= threshold;
      case Kind::kAtLeast:
        return o.numbers[view].second >= threshold;
      case Kind::kEquals:
        return o.keys[view].second == key;
    }
    return false;
  }

  std::string Describe(const Observation& sample) const {
    switch (kind) {
      case Kind::kAtMost:
        return absl::StrCat(sample.numbers[view].first, " <= ", threshold);
      case Kind::kAtLeast:
        return absl::StrCat(sample.numbers[view].first, " >= ", threshold);
      case Kind::kEquals:
        return absl::StrCat(sample.keys[view].first, " == '", key, "'");
    }
    return "?";
  }
};

// Clopper-Pearson bounds for one sample size, memoised per count.
class Bounds {
 public:
  Bounds(int64_t n, double alpha)
      : n_(n), alpha_(alpha), lower_(n + 1, -1), upper_(n + 1, -1) {}
  double Lower(int64_t k) {
    if (lower_[k] < 0) lower_[k] = ClopperPearsonLower(k, n_, alpha_);
    return lower_[k];
  }
  double Upper(int64_t k) {
    if (upper_[k] < 0) upper_[k] = ClopperPearsonUpper(k, n_, alpha_);
    return upper_[k];
  }
  // log(lower(k_a) / upper(k_b)), -inf when k_a = 0.
  double LogRatio(int64_t k_a, int64_t k_b) {
    const double lo = Lower(k_a);
    return lo > 0 ? std::log(lo / Upper(k_b)) : kNegInf;
  }

 private:
  int64_t n_;
  double alpha_;
  std::vector<double> lower_, upper_;
};

// Every candidate event with its counts on the two selection halves:
// numeric views by sorting (thresholds at every observed value), keys by
// counting.
struct Candidate {
  Event event;
  int64_t count_a = 0;
  int64_t count_b = 0;
};

std::vector<Candidate> CandidateEvents(const std::vector<Observation>& a,
                                       const std::vector<Observation>& b) {
  std::vector<Candidate> out;
  const Observation& first = a.front();
  for (size_t v = 0; v < first.numbers.size(); ++v) {
    std::vector<double> va, vb;
    for (const Observation& o : a) va.push_back(o.numbers[v].second);
    for (const Observation& o : b) vb.push_back(o.numbers[v].second);
    std::sort(va.begin(), va.end());
    std::sort(vb.begin(), vb.end());
    std::vector<double> thresholds = va;
    thresholds.insert(thresholds.end(), vb.begin(), vb.end());
    std::sort(thresholds.begin(), thresholds.end());
    thresholds.erase(std::unique(thresholds.begin(), thresholds.end()),
                     thresholds.end());
    const auto at_most = [](const std::vector<double>& s, double t) {
      return static_cast<int64_t>(std::upper_bound(s.begin(), s.end(), t) -
                                  s.begin());
    };
    const auto at_least = [](const std::vector<double>& s, double t) {
      return static_cast<int64_t>(s.end() -
                                  std::lower_bound(s.begin(), s.end(), t));
    };
    for (double t : thresholds) {
      out.push_back(
          {{Event::Kind::kAtMost, v, t, ""}, at_most(va, t), at_most(vb, t)});
      out.push_back({{Event::Kind::kAtLeast, v, t, ""},
                     at_least(va, t),
                     at_least(vb, t)});
    }
  }
  for (size_t v = 0; v < first.keys.size(); ++v) {
    std::map<std::string, std::pair<int64_t, int64_t>> keys;
    for (const Observation& o : a) ++keys[o.keys[v].second].first;
    for (const Observation& o : b) ++keys[o.keys[v].second].second;
    for (const auto& [key, counts] : keys) {
      out.push_back(
          {{Event::Kind::kEquals, v, 0, key}, counts.first, counts.second});
    }
  }
  return out;
}

int64_t Count(const Event& e, const std::vector<Observation>& samples,
              size_t begin, size_t end) {
  int64_t k = 0;
  for (size_t i = begin; i < end; ++i) k += e.Holds(samples[i]) ? 1 : 0;
  return k;
}

}  // namespace

AuditReport AuditPrivacyLoss(const std::vector<Observation>& on_d,
                             const std::vector<Observation>& on_d_prime,
                             double alpha) {
  AuditReport report;
  if (on_d.size() != on_d_prime.size() || on_d.size() < 2) return report;
  const size_t half = on_d.size() / 2;
  const std::vector<Observation> select_d(on_d.begin(), on_d.begin() + half);
  const std::vector<Observation> select_p(on_d_prime.begin(),
                                          on_d_prime.begin() + half);
  // Pick the event and direction with the best bound on the first half.
  Bounds select_bounds(static_cast<int64_t>(half), alpha / 2);
  double best = kNegInf;
  Event best_event;
  bool d_first = true;
  for (const Candidate& c : CandidateEvents(select_d, select_p)) {
    for (const bool forward : {true, false}) {
      const double ratio = forward
                               ? select_bounds.LogRatio(c.count_a, c.count_b)
                               : select_bounds.LogRatio(c.count_b, c.count_a);
      if (ratio > best) {
        best = ratio;
        best_event = c.event;
        d_first = forward;
      }
    }
  }
  // No event with a positive lower bound (observations without views):
  // nothing to certify.
  if (best == kNegInf) return report;
  // Certify it on the second half.
  const size_t n = on_d.size() - half;
  Bounds test_bounds(static_cast<int64_t>(n), alpha / 2);
  const int64_t kd = Count(best_event, on_d, half, on_d.size());
  const int64_t kp = Count(best_event, on_d_prime, half, on_d.size());
  report.n = static_cast<int64_t>(n);
  report.count_first = d_first ? kd : kp;
  report.count_second = d_first ? kp : kd;
  report.lower_bound = std::max(
      0.0, test_bounds.LogRatio(report.count_first, report.count_second));
  report.event = absl::StrCat(best_event.Describe(on_d.front()), " on ",
                              d_first ? "D vs D'" : "D' vs D");
  return report;
}

}  // namespace dpq::audit
