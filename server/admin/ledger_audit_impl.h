// AdminService.ListLedger and ListAuditLog: every buyer's ledger entries
// and budgets, and the admins' audit log.
#ifndef DPQ_SERVER_ADMIN_LEDGER_AUDIT_IMPL_H_
#define DPQ_SERVER_ADMIN_LEDGER_AUDIT_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/admin_service.pb.h"
#include "server/admin/admin_core.h"

namespace dpq::server::admin {

// Entries newest first and the matching budgets, filtered by buyer and
// dataset; kInvalidArgument naming `limit` (> kMaxListLimit), buyer_id or
// dataset_id.
absl::Status ListLedgerImpl(const AdminCore& service,
                            const v1::ListLedgerRequest& request,
                            v1::ListLedgerResponse* response);

// The newest `limit` audit records; kInvalidArgument naming `limit`.
absl::Status ListAuditLogImpl(const AdminCore& service,
                              const v1::ListAuditLogRequest& request,
                              v1::ListAuditLogResponse* response);

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_LEDGER_AUDIT_IMPL_H_
