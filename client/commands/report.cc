#include "client/commands/report.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/command_flags.h"
#include "client/commands/preview.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

ReportCommand::ReportCommand()
    : Command({.name = "report",
               .synopsis = "report ID --epsilon E [--method M] "
                           "[--repair-method RM] [--row-count] "
                           "[--request-id R] [--preview]",
               .summary = "Releases I_MI, I_P and I_R for one charge of E "
                          "(E/3 each); --row-count adds the DP row count "
                          "(E/10; exact and free where the owner published "
                          "it) and the measures per row; --preview says "
                          "what it would charge and its noise, for free.",
               .release = true}) {}

void ReportCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Value("--epsilon", &epsilon_, FlagText::kLocal, /*required=*/true);
  flags.Value("--method", &method_, FlagText::kLocal);
  flags.Value("--repair-method", &repair_method_, FlagText::kLocal);
  flags.Switch("--row-count", &row_count_);
  flags.Switch("--preview", &preview_);
  request_id_.Define(flags);
}

absl::Status ReportCommand::Validate(const CommandFlags& flags) {
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("--epsilon", epsilon_));
  request_.set_epsilon(epsilon);
  request_.set_include_row_count(row_count_);
  // --method is the method of I_MI and I_P; --repair-method that of I_R.
  if (flags.Given("--method")) {
    ASSIGN_OR_RETURN(const v1::SelectionMethod method,
                     ParseMethodName(method_));
    request_.set_method(method);
  }
  if (flags.Given("--repair-method")) {
    ASSIGN_OR_RETURN(const v1::RepairMethod method,
                     ParseRepairMethodName(repair_method_));
    request_.set_repair_method(method);
  }
  RETURN_IF_ERROR(request_id_.Validate(flags));
  request_.set_request_id(request_id_.value());
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> ReportCommand::Run(const RunContext& context) {
  if (preview_) {
    v1::PreviewCostRequest preview;
    *preview.mutable_quality_report() = request_;
    return RunPreview(context, preview);
  }
  request_.set_request_id(context.request_id);
  v1::QualityReportResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::QualityReport,
                            request_, &response));
  FillRequestId(context.request_id, &response);
  return ResponseOutput(response, context.json, [&] {
    return ReportText(request_.dataset_id(), response);
  });
}

std::string ReportText(absl::string_view dataset_id,
                       const v1::QualityReportResponse& response) {
  TextTable table({"MEASURE", "VALUE", "95% INTERVAL", "COVERS", "THETA",
                   "EPSILON", "METHOD"});
  for (const v1::MeasureResult& r : response.results()) {
    table.AddRow({MeasureLabel(r.measure()), absl::StrCat(r.value()),
                  IntervalRange(r), IntervalNote(r),
                  r.measure() == v1::MEASURE_R ? std::string("-")
                                               : absl::StrCat(r.theta()),
                  FormatEpsilon(r.epsilon_units(), r.epsilon()),
                  OrDash(r.method())});
  }
  std::string out =
      absl::StrCat("Quality report for ", TerminalSafe(dataset_id), ":\n");
  out += table.Render();
  if (response.has_row_count()) out += RowCountText(response);
  AppendChargeLines(response, &out);
  return out;
}

std::string RowCountText(const v1::QualityReportResponse& response) {
  const v1::RowCount& rows = response.row_count();
  std::string out =
      rows.exact()
          ? absl::StrCat("rows: ", rows.value(), " (published by the owner)")
          : absl::StrCat(
                "rows ~ ", rows.value(), " (95% interval: ", rows.lower95(),
                " to ", rows.upper95(), ", epsilon ",
                FormatEpsilon(rows.epsilon_units(), rows.epsilon()), ")");
  if (rows.value() > 0) {
    std::vector<std::string> per_row;
    for (const v1::MeasureResult& r : response.results()) {
      per_row.push_back(absl::StrFormat(
          "%s %.3g", MeasureCode(r.measure()),
          static_cast<double>(r.value()) / static_cast<double>(rows.value())));
    }
    absl::StrAppend(&out, "; per row: ", absl::StrJoin(per_row, ", "));
  }
  return out + "\n";
}

}  // namespace dpq::client
