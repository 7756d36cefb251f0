// `dpq admin revoke-buyer NAME`: revokes a buyer's token (RevokeBuyer); its
// ledger entries are kept.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_REVOKE_BUYER_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_REVOKE_BUYER_H_

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

// JSON: {"buyer":NAME,"revoked":true} (the answer is an empty message).
class AdminRevokeBuyerCommand final : public Command {
 public:
  AdminRevokeBuyerCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::RevokeBuyerRequest& request() const { return request_; }

 private:
  dpq::v1::RevokeBuyerRequest request_;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_REVOKE_BUYER_H_
