#include "server/admin/ledger_audit_impl.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
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

// A page token: the store's position of the last entry of the page before
// (a ledger entry's handle, an audit entry's seq), "" for the newest. The
// admin sees every entry, so the position reveals nothing to its reader.
absl::StatusOr<int64_t> ParsePageToken(const std::string& token,
                                       const char* rpc) {
  if (token.empty()) return 0;
  int64_t before = 0;
  if (!absl::SimpleAtoi(token, &before) || before <= 0) {
    return core::util::InvalidFieldError(
        "page_token", absl::StrCat("page_token is not a next_page_token of ",
                                   rpc, "; pass \"\" for the first page."));
  }
  return before;
}

}  // namespace

absl::Status ListLedgerImpl(const AdminCore& service,
                            const v1::ListLedgerRequest& request,
                            v1::ListLedgerResponse* response) {
  core::ledger::LedgerFilter filter;
  filter.buyer_id = request.buyer_id();
  filter.dataset_id = request.dataset_id();
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &filter.limit));
  ASSIGN_OR_RETURN(filter.before_entry_id,
                   ParsePageToken(request.page_token(), "ListLedger"));
  if (!filter.buyer_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.buyer_id, "buyer_id"));
  }
  if (!filter.dataset_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.dataset_id, "dataset_id"));
  }
  // One entry more than the page: whether an older page exists.
  const size_t page = filter.limit;
  ++filter.limit;
  ASSIGN_OR_RETURN(const std::vector<core::ledger::LedgerEntry> entries,
                   service.ledger->ListEntries(filter));
  for (size_t i = 0; i < entries.size() && i < page; ++i) {
    *response->add_entries() = ToProto(entries[i]);
  }
  if (entries.size() > page) {
    response->set_next_page_token(absl::StrCat(entries[page - 1].entry_id));
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
  auth::AuditQuery query;
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &query.limit));
  ASSIGN_OR_RETURN(query.before_seq,
                   ParsePageToken(request.page_token(), "ListAuditLog"));
  query.action = request.action();
  const size_t page = query.limit;
  ++query.limit;  // one more: whether an older page exists
  ASSIGN_OR_RETURN(const std::vector<auth::AuditRecord> records,
                   service.accounts->ListAudit(query));
  if (records.size() > page) {
    response->set_next_page_token(absl::StrCat(records[page - 1].seq));
  }
  for (size_t i = 0; i < records.size() && i < page; ++i) {
    const auth::AuditRecord& record = records[i];
    v1::AuditEntry* entry = response->add_entries();
    *entry->mutable_time() = ToTimestamp(record.time);
    entry->set_actor(record.actor);
    entry->set_action(record.action);
    entry->set_details(record.details);
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::admin
