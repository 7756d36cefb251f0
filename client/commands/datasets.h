// `dpq datasets`: the datasets for sale, with their public metadata.
#ifndef DPQ_CLIENT_COMMANDS_DATASETS_H_
#define DPQ_CLIENT_COMMANDS_DATASETS_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class DatasetsCommand final : public Command {
 public:
  DatasetsCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
};

// ID VERSION KIND MAX_ROWS ROWS MEASURES DESCRIPTION; a private row count
// and a graph's row bound print as "-".
std::string DatasetsText(const dpq::v1::ListDatasetsResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_DATASETS_H_
