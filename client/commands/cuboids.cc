#include "client/commands/cuboids.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/tables.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;

// "per_cuboid" -> "per cuboid"; "" -> "-".
std::string Words(absl::string_view code) {
  if (code.empty()) return "-";
  std::string text = TerminalSafe(code);
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

}  // namespace

CuboidsCommand::CuboidsCommand()
    : Command({.name = "cuboids",
               .synopsis = "cuboids ID --dims A,B [--dims C]... --epsilon E "
                           "[--integral] [--request-id R]",
               .summary = "Releases DP count marginals (cuboids), consistent "
                          "with the public exact cuboids; charges E.",
               .release = true}) {}

void CuboidsCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Repeated("--dims", &dims_, FlagText::kSent, /*required=*/true);
  flags.Value("--epsilon", &epsilon_, FlagText::kLocal, /*required=*/true);
  flags.Switch("--integral", &integral_);
  request_id_.Define(flags);
}

absl::Status CuboidsCommand::Validate(const CommandFlags& flags) {
  for (const std::string& text : dims_) {
    ASSIGN_OR_RETURN(const std::vector<std::string> dims,
                     ParseNameList("--dims", text, /*allow_empty=*/true));
    v1::CuboidSpec* spec = request_.add_cuboids();
    for (const std::string& dim : dims) spec->add_dimensions(dim);
  }
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("--epsilon", epsilon_));
  request_.set_epsilon(epsilon);
  request_.set_non_negative_integral(integral_);
  RETURN_IF_ERROR(request_id_.Validate(flags));
  request_.set_request_id(request_id_.value());
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> CuboidsCommand::Run(const RunContext& context) {
  request_.set_request_id(context.request_id);
  v1::ReleaseCuboidsResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::ReleaseCuboids,
                            request_, &response));
  FillRequestId(context.request_id, &response);
  return ResponseOutput(response, context.json, [&] {
    return CuboidsText(request_.dataset_id(), response);
  });
}

std::string CuboidsText(absl::string_view dataset_id,
                        const v1::ReleaseCuboidsResponse& response) {
  std::string out;
  for (int i = 0; i < response.cuboids_size(); ++i) {
    const v1::Cuboid& c = response.cuboids(i);
    const std::optional<double> sd =
        i < response.noise_stddev_size()
            ? std::optional<double>(response.noise_stddev(i))
            : std::nullopt;
    absl::StrAppend(&out, i == 0 ? "" : "\n", "Cuboid ", i + 1, " of ",
                    TerminalSafe(dataset_id), ": ", CuboidName(c),
                    " (noise stddev ",
                    sd.has_value() ? FormatReal(*sd) : std::string("-"),
                    " per cell)\n", CuboidTable(c));
  }
  absl::StrAppend(&out, response.cuboids().empty() ? "" : "\n", "strategy ",
                  Words(response.strategy()), ", sensitivity ",
                  FormatReal(response.sensitivity()), "; ",
                  ChargeSentence(response), "\n");
  absl::StrAppend(&out, "request id: ", OrDash(response.request_id()), "\n");
  return out;
}

}  // namespace dpq::client
