// `dpq admin create-buyer NAME`: creates a buyer (CreateBuyer) and prints
// its token, which the server shows only once.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_CREATE_BUYER_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_CREATE_BUYER_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

class AdminCreateBuyerCommand final : public Command {
 public:
  AdminCreateBuyerCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::CreateBuyerRequest& request() const { return request_; }

 private:
  dpq::v1::CreateBuyerRequest request_;
};

// "Created buyer NAME. Its token (shown only once; store it safely):" and
// the token on a line of its own.
std::string CreateBuyerText(const dpq::v1::CreateBuyerResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_CREATE_BUYER_H_
