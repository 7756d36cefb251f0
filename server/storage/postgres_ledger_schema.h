// The PostgreSQL ledger's schema (postgres_ledger_store.h): the "ledger"
// component's migrations for ApplyMigrations (postgres_database.h).
// Tables and PL/pgSQL functions; the functions carry the store's writes so
// that each Reserve, Commit, ChargeWithoutAnswer and Refund is one round
// trip and one short transaction.
#ifndef DPQ_SERVER_STORAGE_POSTGRES_LEDGER_SCHEMA_H_
#define DPQ_SERVER_STORAGE_POSTGRES_LEDGER_SCHEMA_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace dpq::server::storage {

// The component name under which the versions are kept (dpq_schema).
inline constexpr char kLedgerComponent[] = "ledger";

// steps[i] brings the ledger tables from version i to i + 1.
absl::Span<const absl::string_view> LedgerMigrations();

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_POSTGRES_LEDGER_SCHEMA_H_
