// `dpq report ID --epsilon E [--method M] [--repair-method RM]
// [--request-id R]`: I_MI, I_P and I_R for one charge (QualityReport).
#ifndef DPQ_CLIENT_COMMANDS_REPORT_H_
#define DPQ_CLIENT_COMMANDS_REPORT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "client/command.h"
#include "client/commands/release.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

class ReportCommand final : public Command {
 public:
  ReportCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  std::string GivenRequestId() const override { return request_id_.value(); }
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The request from the command line (Run sends it with the request id
  // RunCli settles: --request-id, else a generated one).
  const dpq::v1::QualityReportRequest& request() const { return request_; }

 private:
  dpq::v1::QualityReportRequest request_;
  std::string epsilon_;
  std::string method_;
  std::string repair_method_;
  bool row_count_ = false;
  RequestIdFlag request_id_;
  bool preview_ = false;  // --preview: PreviewCost instead of the release
};

// The row count line of a report: "rows ~ V (95% interval: L to U, epsilon
// E); per row: MI x, P y, R z", or "rows: V (published by the owner); ...".
std::string RowCountText(const dpq::v1::QualityReportResponse& response);

// "Quality report for ID:", a table (MEASURE VALUE 95% INTERVAL COVERS
// THETA EPSILON METHOD), the charge and the request id.
std::string ReportText(absl::string_view dataset_id,
                       const dpq::v1::QualityReportResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_REPORT_H_
