// A whole ledger as plain rows in exact units, for moving it from one
// store to another: SqliteLedgerStore::Export reads one,
// PostgresLedgerStore::Import writes one (dpq-server --import-sqlite,
// sqlite_import.h). Amounts are integer units of 10^-12 epsilon
// (core/ledger/epsilon_units.h), never doubles, so nothing is rounded on
// the way.
#ifndef DPQ_SERVER_STORAGE_LEDGER_SNAPSHOT_H_
#define DPQ_SERVER_STORAGE_LEDGER_SNAPSHOT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "core/ledger/ledger.h"

namespace dpq::server::storage {

// A buyer's budget on a dataset, in units. spent and reserved are the
// store's running totals (sums over the entries).
struct LedgerBudgetRecord {
  std::string buyer_id;
  std::string dataset_id;
  int64_t granted = 0;
  int64_t spent = 0;
  int64_t reserved = 0;
};

// A dataset's cap over all buyers, in units (0 = none).
struct LedgerDatasetRecord {
  std::string dataset_id;
  int64_t cap = 0;
};

// One entry as stored (core::ledger::LedgerEntry, with its amount in
// units and its answer's absence told apart from an empty answer). The
// store-internal entry_id is not part of it: the target store gives its
// own, in the order of the snapshot.
struct LedgerEntryRecord {
  std::string buyer_id;
  int64_t buyer_seq = 0;
  std::string dataset_id;
  std::string request_id;
  std::string fingerprint;
  std::string operation;
  std::string neighbouring;
  int64_t epsilon = 0;  // units, > 0
  core::ledger::EntryState state = core::ledger::EntryState::kReserved;
  absl::Time created_at;  // whole microseconds
  std::optional<absl::Time> settled_at;
  std::optional<std::string> answer;  // nullopt: none recorded
};

struct LedgerSnapshot {
  std::vector<LedgerBudgetRecord> budgets;    // sorted by (buyer, dataset)
  std::vector<LedgerDatasetRecord> datasets;  // sorted by id; every row
  std::vector<LedgerEntryRecord> entries;     // in the order reserved
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_LEDGER_SNAPSHOT_H_
