#include "client/commands/measure.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/commands/preview.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

MeasureCommand::MeasureCommand()
    : Command({.name = "measure",
               .synopsis = "measure ID --measure mi|p|r --epsilon E "
                           "[--method M] [--request-id R] [--preview]",
               .summary =
                   "Releases one DP inconsistency measure; charges E.\n"
                   "      M for mi, p: group_bound (default) | gem | "
                   "optimized | hierarchical | basic | baseline;\n"
                   "      for r: cover_bound (default) | exact (datasets "
                   "registered with --exact-repair; their default) | "
                   "vertex_cover.\n"
                   "      --preview: what it would charge and its noise as "
                   "a function of theta; charges nothing.",
               .release = true}) {}

void MeasureCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Value("--measure", &measure_, FlagText::kLocal, /*required=*/true);
  flags.Value("--epsilon", &epsilon_, FlagText::kLocal, /*required=*/true);
  flags.Value("--method", &method_, FlagText::kLocal);
  flags.Switch("--preview", &preview_);
  request_id_.Define(flags);
}

absl::Status MeasureCommand::Validate(const CommandFlags& flags) {
  ASSIGN_OR_RETURN(const v1::Measure measure, ParseMeasureName(measure_));
  request_.set_measure(measure);
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("--epsilon", epsilon_));
  request_.set_epsilon(epsilon);
  // --method names a method of I_MI/I_P, or (--measure r) of I_R.
  if (flags.Given("--method")) {
    if (measure == v1::MEASURE_R) {
      ASSIGN_OR_RETURN(const v1::RepairMethod method,
                       ParseRepairMethodName(method_));
      request_.set_repair_method(method);
    } else {
      ASSIGN_OR_RETURN(const v1::SelectionMethod method,
                       ParseMethodName(method_));
      request_.set_method(method);
    }
  }
  RETURN_IF_ERROR(request_id_.Validate(flags));
  request_.set_request_id(request_id_.value());
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> MeasureCommand::Run(const RunContext& context) {
  if (preview_) {
    v1::PreviewCostRequest preview;
    *preview.mutable_measure_inconsistency() = request_;
    return RunPreview(context, preview);
  }
  request_.set_request_id(context.request_id);
  v1::MeasureInconsistencyResponse response;
  RETURN_IF_ERROR(
      UnaryCall(context.call, *context.connection.buyer,
                &v1::BuyerService::StubInterface::MeasureInconsistency,
                request_, &response));
  FillRequestId(context.request_id, &response);
  return ResponseOutput(response, context.json,
                        [&response] { return MeasureText(response); });
}

std::string MeasureText(const v1::MeasureInconsistencyResponse& response) {
  const v1::MeasureResult& r = response.result();
  std::string out =
      absl::StrCat(MeasureLabel(r.measure()), " ~ ", r.value(),
                   " (95% interval: ", IntervalRange(r), "; ", IntervalNote(r),
                   "; noise alone \u00b1", r.bound95(), ")");
  if (r.measure() != v1::MEASURE_R) {
    absl::StrAppend(&out, ", theta ", r.theta());
    if (r.degree_upper() > 0) {
      absl::StrAppend(&out, " (rows have at most ", r.degree_upper(),
                      " conflicts)");
    }
  }
  if (!r.method().empty()) {
    absl::StrAppend(&out, ", method ", TerminalSafe(r.method()));
  }
  absl::StrAppend(&out, "; ", ChargeSentence(response), "\n");
  absl::StrAppend(&out, "request id: ", OrDash(response.request_id()), "\n");
  return out;
}

}  // namespace dpq::client
