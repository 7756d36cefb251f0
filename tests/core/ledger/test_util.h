// Helpers for the ledger tests.
#ifndef DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
#define DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "core/ledger/ledger.h"
#include "gtest/gtest.h"

namespace dpq::core::ledger::testing {

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = ::testing::TempDir() + "dpq_ledger_XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
    EXPECT_FALSE(path_.empty()) << "mkdtemp failed for " << pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A LedgerFilter (designated initialisers would trip
// -Wmissing-field-initializers).
inline LedgerFilter Filter(const std::string& buyer_id,
                           const std::string& dataset_id = "",
                           size_t limit = 100) {
  LedgerFilter filter;
  filter.buyer_id = buyer_id;
  filter.dataset_id = dataset_id;
  filter.limit = limit;
  return filter;
}

// One row, one column: how many budgets and datasets rows hold running
// totals (spent, reserved) that differ from the sums over their entries by
// more than rounding noise. "0" for a consistent ledger.
// Budgets and dataset totals (integer units) that differ from the sums of
// their entries: exact, no tolerance.
inline constexpr char kTotalsMismatchSql[] = R"sql(
SELECT
 (SELECT COUNT(*) FROM budgets AS b WHERE
    b.spent != COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
        WHERE e.buyer_id = b.buyer_id AND e.dataset_id = b.dataset_id
          AND e.state IN ('committed', 'charged')), 0)
 OR b.reserved != COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
        WHERE e.buyer_id = b.buyer_id AND e.dataset_id = b.dataset_id
          AND e.state = 'reserved'), 0))
+(SELECT COUNT(*) FROM datasets AS d WHERE
    d.spent != COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
        WHERE e.dataset_id = d.dataset_id
          AND e.state IN ('committed', 'charged')), 0)
 OR d.reserved != COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
        WHERE e.dataset_id = d.dataset_id AND e.state = 'reserved'), 0))
)sql";

}  // namespace dpq::core::ledger::testing

#endif  // DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
