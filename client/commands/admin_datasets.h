// `dpq admin datasets`: every dataset with its true sizes, cap and spending
// (admins only).
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_DATASETS_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_DATASETS_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

class AdminDatasetsCommand final : public Command {
 public:
  AdminDatasetsCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
};

// ID VERSION ROWS MAX_ROWS CSV_BYTES EDGES CAP SPENT_ALL.
std::string AdminDatasetsText(
    const dpq::v1::AdminListDatasetsResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_DATASETS_H_
