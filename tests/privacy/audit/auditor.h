// A black-box differential-privacy auditor (the DP-Sniper / StatDP /
// DP-Auditorium method; docs/privacy.md 8): draw many releases of one mechanism
// on two neighbouring inputs D and D', pick on the first half of the samples
// the event E whose probabilities differ most, and certify on the second half,
// with exact Clopper-Pearson bounds, the lower bound
//   log( lower(P[M(D) in E]) / upper(P[M(D') in E]) )
// on the mechanism's privacy loss. If the mechanism is epsilon-DP the true
// ratio is at most e^epsilon, so the certified bound exceeds epsilon with
// probability at most `alpha` (the two one-sided bounds fail with at most
// alpha / 2 each, and the event is fixed before the second half is seen).
// Tests only.
#ifndef DPQ_TESTS_PRIVACY_AUDIT_AUDITOR_H_
#define DPQ_TESTS_PRIVACY_AUDIT_AUDITOR_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dpq::audit {

// What an event may look at in one release: numeric views (events
// "x <= t" and "x >= t") and categorical views (events "key == k"). Every
// observation of one audit has the same views in the same order.
struct Observation {
  std::vector<std::pair<std::string, double>> numbers;
  std::vector<std::pair<std::string, std::string>> keys;
};

struct AuditReport {
  // The certified lower bound on the privacy loss (>= 0).
  double lower_bound = 0;
  // The event, e.g. "value >= 12 on D vs D'", and its counts on the
  // certification half (of `n` samples per input).
  std::string event;
  int64_t count_first = 0;
  int64_t count_second = 0;
  int64_t n = 0;
};

// Audits samples of M(D) (`on_d`) and M(D') (`on_d_prime`), which must have
// the same size (>= 2) and views. Both directions (D vs D' and D' vs D) are
// considered when picking the event.
AuditReport AuditPrivacyLoss(const std::vector<Observation>& on_d,
                             const std::vector<Observation>& on_d_prime,
                             double alpha);

}  // namespace dpq::audit

#endif  // DPQ_TESTS_PRIVACY_AUDIT_AUDITOR_H_
