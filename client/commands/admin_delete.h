// `dpq admin delete ID`: deletes a dataset (DeleteDataset); its ledger is
// kept.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_DELETE_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_DELETE_H_

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

// JSON: {"dataset":ID,"deleted":true} (the answer is an empty message).
class AdminDeleteCommand final : public Command {
 public:
  AdminDeleteCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::DeleteDatasetRequest& request() const { return request_; }

 private:
  dpq::v1::DeleteDatasetRequest request_;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_DELETE_H_
