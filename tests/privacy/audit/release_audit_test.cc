// The quick tier of the end-to-end DP audit (docs/privacy.md 8): every
// release path a buyer can reach, on its worst-case neighbouring pairs,
// released through the production code with a seeded random source, and
// its certified privacy loss checked against the epsilon charged.
//
// False failures: each case certifies at alpha = 1e-4 / (number of cases),
// so the probability that any case of a correct implementation fails is at
// most 1e-4 (union bound; auditor.h). Seeds are fixed.
//
// The type-flip cases of dpq-measure fail on code that infers the column
// types per run (docs/privacy.md 2.2: a certified loss of about 3.5 at epsilon
// 1 with these sample sizes) and pass after it.
#include "tests/privacy/audit/release_audit.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace dpq::audit {
namespace {

const std::vector<AuditCase>& Cases() {
  static const std::vector<AuditCase>* cases =
      new std::vector<AuditCase>(AllAuditCases());
  return *cases;
}

class ReleaseAuditTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ReleaseAuditTest, CertifiedLossStaysWithinTheCharge) {
  const AuditCase& c = Cases()[GetParam()];
  if (c.long_only) GTEST_SKIP() << c.name << ": long tier only";
  const double alpha = 1e-4 / static_cast<double>(Cases().size());
  absl::StatusOr<CaseResult> result =
      RunAuditCase(c, c.quick_samples, /*seed=*/1000 + GetParam(), alpha);
  ASSERT_TRUE(result.ok()) << c.name << ": " << result.status();
  RecordProperty("case", c.name);
  RecordProperty("certified_loss", absl::StrCat(result->report.lower_bound));
  RecordProperty("event", result->report.event);
  EXPECT_LE(result->report.lower_bound, c.charged)
      << c.name << ": certified loss " << result->report.lower_bound
      << " > charged " << c.charged << " (event " << result->report.event
      << ": " << result->report.count_first << " vs "
      << result->report.count_second << " of " << result->report.n << ")";
}

INSTANTIATE_TEST_SUITE_P(EveryReleasePath, ReleaseAuditTest,
                         ::testing::Range<size_t>(0, AllAuditCases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string name;
                           for (char ch : Cases()[info.param].name) {
                             name +=
                                 std::isalnum(static_cast<unsigned char>(ch))
                                     ? ch
                                     : '_';
                           }
                           return absl::StrCat(info.param, "_", name);
                         });

}  // namespace
}  // namespace dpq::audit
