#include "server/admin/ledger_audit_impl.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/auth/accounts_store.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"
#include "server/timestamp.h"

namespace dpq::server::admin {
namespace {

absl::Status ValidateListLimit(uint32_t limit, size_t* out) {
  if (limit > kMaxListLimit) {
    return core::util::InvalidFieldError(
        "limit", absl::StrCat("limit must be at most ", kMaxListLimit,
                              ", but is ", limit, "."));
  }
  *out = limit == 0 ? kDefaultListLimit : limit;
  return absl::OkStatus();
}

}  // namespace

absl::Status ListLedgerImpl(const AdminCore& service,
                            const v1::ListLedgerRequest& request,
                            v1::ListLedgerResponse* response) {
  core::ledger::LedgerFilter filter;
  filter.buyer_id = request.buyer_id();
  filter.dataset_id = request.dataset_id();
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &filter.limit));
  if (!filter.buyer_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.buyer_id, "buyer_id"));
  }
  if (!filter.dataset_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.dataset_id, "dataset_id"));
  }
  ASSIGN_OR_RETURN(const std::vector<core::ledger::LedgerEntry> entries,
                   service.ledger->ListEntries(filter));
  for (const core::ledger::LedgerEntry& entry : entries) {
    *response->add_entries() = ToProto(entry);
  }
  ASSIGN_OR_RETURN(const std::vector<core::ledger::BudgetState> budgets,
                   service.ledger->ListBudgets(filter));
  for (const core::ledger::BudgetState& budget : budgets) {
    *response->add_budgets() = ToProto(budget);
  }
  return absl::OkStatus();
}

absl::Status ListAuditLogImpl(const AdminCore& service,
                              const v1::ListAuditLogRequest& request,
                              v1::ListAuditLogResponse* response) {
  size_t limit = 0;
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &limit));
  ASSIGN_OR_RETURN(const std::vector<auth::AuditRecord> records,
                   service.accounts->ListAudit(limit));
  for (const auth::AuditRecord& record : records) {
    v1::AuditEntry* entry = response->add_entries();
    *entry->mutable_time() = ToTimestamp(record.time);
    entry->set_actor(record.actor);
    entry->set_action(record.action);
    entry->set_details(record.details);
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::admin
