// What every AdminService RPC reads (the `service` argument of each
// function in this folder): the dataset registry, the ledger, the accounts
// and their audit log, and the upload limit. Owned by AdminServiceImpl,
// which only dispatches and is the one place the admin role is checked
// (HandleCall with Access::kAdmin, server/call_handler.h): the functions
// here trust that their caller is an admin.
#ifndef DPQ_SERVER_ADMIN_ADMIN_CORE_H_
#define DPQ_SERVER_ADMIN_ADMIN_CORE_H_

#include <cstdint>
#include <string>

#include "core/ledger/ledger.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::admin {

// Largest `limit` of ListLedger and ListAuditLog; 0 means kDefaultListLimit.
inline constexpr uint32_t kMaxListLimit = 10000;
inline constexpr uint32_t kDefaultListLimit = 100;

struct AdminCore {
  // Not owned; must outlive the core.
  registry::DatasetRegistry* registry = nullptr;
  core::ledger::LedgerStore* ledger = nullptr;
  auth::AccountsStore* accounts = nullptr;
  // Bounds the CSV of RegisterDataset/ReplaceDataset (dataset_upload.h).
  uint64_t max_upload_bytes = 0;

  // Writes an audit entry; a failure is logged, never returned (the action
  // already happened and its result, e.g. a new token, must reach the
  // caller).
  void Audit(const auth::Principal& caller, const char* action,
             const std::string& details) const;
};

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_ADMIN_CORE_H_
