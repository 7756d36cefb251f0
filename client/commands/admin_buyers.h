// `dpq admin buyers`: every buyer, with when it was created and whether it
// is revoked.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_BUYERS_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_BUYERS_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

class AdminBuyersCommand final : public Command {
 public:
  AdminBuyersCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
};

// BUYER CREATED REVOKED.
std::string BuyersText(const dpq::v1::ListBuyersResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_BUYERS_H_
