// dpq-privacy-audit: the long tier of the end-to-end DP audit
// (docs/privacy.md 8).
// Runs every case of release_audit.h with many more samples and prints a
// Markdown table (case, charged epsilon, certified lower bound, event) for
// docs/privacy.md. Exit status 1 if a certified bound exceeds its charge.
//   dpq-privacy-audit [--samples N] [--alpha A] [--seed S] [--only TEXT]
// --only runs the cases whose name contains TEXT (alpha still split over
// every case, so a row reads the same as in the full run).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "tests/privacy/audit/release_audit.h"

int main(int argc, char** argv) {
  int samples = 20000;
  double alpha = 1e-4;
  uint64_t seed = 7;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    bool ok = true;
    if (flag == "--samples") {
      ok = absl::SimpleAtoi(value, &samples) && samples >= 2;
    } else if (flag == "--alpha") {
      ok = absl::SimpleAtod(value, &alpha) && alpha > 0 && alpha < 1;
    } else if (flag == "--seed") {
      ok = absl::SimpleAtoi(value, &seed);
    } else if (flag == "--only") {
      only = value;
    } else {
      ok = false;
    }
    if (!ok) {
      std::cerr << "usage: dpq-privacy-audit [--samples N] [--alpha A] "
                   "[--seed S] [--only TEXT]\n";
      return 2;
    }
  }
  const auto cases = dpq::audit::AllAuditCases();
  const double per_case = alpha / static_cast<double>(cases.size());
  std::cout << absl::StrFormat(
      "%d releases per input, alpha %g over %d cases (%g each)\n\n", samples,
      alpha, cases.size(), per_case);
  std::cout << "| release path: pair | charged | certified loss | event |\n"
               "|---|---|---|---|\n";
  int failures = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!only.empty() && !absl::StrContains(cases[i].name, only)) continue;
    auto r = dpq::audit::RunAuditCase(cases[i], samples, seed + i, per_case);
    if (!r.ok()) {
      std::cerr << cases[i].name << ": " << r.status() << "\n";
      return 1;
    }
    const bool over = r->report.lower_bound > r->charged;
    failures += over ? 1 : 0;
    std::cout << absl::StrFormat("| %s | %g | %.3f%s | %s (%d vs %d of %d) |\n",
                                 r->name, r->charged, r->report.lower_bound,
                                 over ? " **OVER**" : "", r->report.event,
                                 r->report.count_first, r->report.count_second,
                                 r->report.n)
              << std::flush;
  }
  return failures == 0 ? 0 : 1;
}
