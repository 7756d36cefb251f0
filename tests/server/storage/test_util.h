// Helpers for the tests of the SQLite stores.
#ifndef DPQ_TESTS_SERVER_STORAGE_TEST_UTIL_H_
#define DPQ_TESTS_SERVER_STORAGE_TEST_UTIL_H_

namespace dpq::server::storage::testing {

// One row, one column: how many budgets and datasets rows of a ledger
// database hold running totals (spent, reserved, in integer units) that
// differ from the sums over their entries: exact, no tolerance. "0" for a
// consistent ledger.
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

}  // namespace dpq::server::storage::testing

#endif  // DPQ_TESTS_SERVER_STORAGE_TEST_UTIL_H_
