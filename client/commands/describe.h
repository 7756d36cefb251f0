// `dpq describe ID`: one dataset's schema, constraints and public metadata
// (kind, privacy unit, cube dimensions, public exact cuboids, releases).
#ifndef DPQ_CLIENT_COMMANDS_DESCRIBE_H_
#define DPQ_CLIENT_COMMANDS_DESCRIBE_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class DescribeCommand final : public Command {
 public:
  DescribeCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::DescribeDatasetRequest& request() const { return request_; }

 private:
  dpq::v1::DescribeDatasetRequest request_;
};

// "dataset:", "description:", ... one line each, then the columns,
// constraints, cube dimensions and public exact cuboids (a graph has none
// of a table's parts).
std::string DescribeText(const dpq::v1::DescribeDatasetResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_DESCRIBE_H_
