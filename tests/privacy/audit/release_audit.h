// The end-to-end DP audit of every release path a buyer can reach
// (docs/privacy.md 8): worst-case neighbouring pairs per dataset kind, released
// many times through the production code (registry, BuyerServiceImpl with
// its ledger, core; or the dpq-measure tool) with only the random source
// seeded, and audited by AuditPrivacyLoss. Used by the quick tier (ctest)
// and the long tier (the dpq-privacy-audit binary). Tests only.
#ifndef DPQ_TESTS_PRIVACY_AUDIT_RELEASE_AUDIT_H_
#define DPQ_TESTS_PRIVACY_AUDIT_RELEASE_AUDIT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/privacy/audit/auditor.h"

namespace dpq::audit {

// One audited (release path, neighbouring pair).
struct AuditCase {
  std::string name;  // e.g. "MeasureInconsistency MI optimized: hub row"
  // The epsilon the service charges per release on this pair's dataset:
  // the certified loss must not exceed it.
  double charged = 0;
  // Releases per input in the quick tier (ctest); the long tier takes more.
  int quick_samples = 3000;
  // Draws `samples` releases on D (first) and D' (second), seeded by
  // `seed`; fills the two observation lists.
  std::function<absl::Status(int samples, uint64_t seed,
                             std::vector<Observation>* on_d,
                             std::vector<Observation>* on_d_prime)>
      run;
  // Only in the long tier (dpq-privacy-audit): a pair too large to
  // register in every ctest run.
  bool long_only = false;
};

// Every audited case, in a fixed order.
std::vector<AuditCase> AllAuditCases();

struct CaseResult {
  std::string name;
  double charged = 0;
  AuditReport report;
};

// Runs one case with `samples` releases per input and certifies at
// `alpha`.
absl::StatusOr<CaseResult> RunAuditCase(const AuditCase& c, int samples,
                                        uint64_t seed, double alpha);

}  // namespace dpq::audit

#endif  // DPQ_TESTS_PRIVACY_AUDIT_RELEASE_AUDIT_H_
