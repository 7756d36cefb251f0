// `dpq admin set-cap ID EPS`: caps the epsilon all buyers together may
// spend on dataset ID (SetDatasetCap; 0: no cap).
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_SET_CAP_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_SET_CAP_H_

#include <string>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

// JSON: {"dataset":ID,"cap":EPS} (the answer is an empty message).
class AdminSetCapCommand final : public Command {
 public:
  AdminSetCapCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::SetDatasetCapRequest& request() const { return request_; }

 private:
  dpq::v1::SetDatasetCapRequest request_;
  std::string cap_;
};

// "Capped the epsilon of all buyers together on ID at EPS." or "Removed the
// cap on ID." (cap 0).
std::string SetCapText(absl::string_view dataset_id, double cap);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_SET_CAP_H_
