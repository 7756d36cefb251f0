// `dpq admin audit [--action RPC] [--limit N] [--page-token T]`: the
// audit log of admin actions, newest first (ListAuditLog), a page at a
// time.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_AUDIT_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_AUDIT_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

class AdminAuditCommand final : public Command {
 public:
  AdminAuditCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::ListAuditLogRequest& request() const { return request_; }

 private:
  dpq::v1::ListAuditLogRequest request_;
  std::string limit_;
};

// TIME ACTOR ACTION DETAILS.
std::string AuditText(const dpq::v1::ListAuditLogResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_AUDIT_H_
