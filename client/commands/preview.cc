#include "client/commands/preview.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

namespace {

// "(theta + 1) / 0.2125", "theta / 0.34", "1 / 0.3".
std::string ScaleFormula(const v1::MeasureNoise& noise) {
  std::string sensitivity;
  if (noise.theta_coefficient() == 0) {
    sensitivity = absl::StrCat(noise.sensitivity_constant());
  } else {
    sensitivity = noise.theta_coefficient() == 1
                      ? "theta"
                      : absl::StrCat(noise.theta_coefficient(), " theta");
    if (noise.sensitivity_constant() > 0) {
      sensitivity = absl::StrCat("(", sensitivity, " + ",
                                 noise.sensitivity_constant(), ")");
    }
  }
  return absl::StrCat(sensitivity, " / ", FormatReal(noise.release_epsilon()));
}

}  // namespace

absl::StatusOr<CommandOutput> RunPreview(
    const RunContext& context, const v1::PreviewCostRequest& request) {
  v1::PreviewCostResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::PreviewCost,
                            request, &response));
  return ResponseOutput(response, context.json,
                        [&response] { return PreviewText(response); });
}

std::string PreviewText(const v1::PreviewCostResponse& response) {
  std::string out = absl::StrCat("Would charge epsilon ",
                                 FormatEpsilon(response.epsilon_charged_units(),
                                               response.epsilon_charged()));
  if (!response.charge_basis().empty()) {
    absl::StrAppend(&out, " (", TerminalSafe(response.charge_basis()), ")");
  }
  absl::StrAppend(&out, "; remaining ",
                  FormatEpsilon(response.remaining_budget_units(),
                                response.remaining_budget()),
                  response.fits_budget() ? ": it fits." : ": it does not fit.",
                  " Nothing was charged.\n");
  for (const v1::MeasureNoise& noise : response.noise()) {
    absl::StrAppend(&out, MeasureLabel(noise.measure()), ", method ",
                    TerminalSafe(noise.method()), ": noise scale ",
                    ScaleFormula(noise), "\n");
  }
  if (!response.noise().empty()) {
    absl::StrAppend(&out,
                    "(theta is chosen from the data by the release, which "
                    "reports it; it never exceeds the public maximum N.)\n");
  }
  return out;
}

}  // namespace dpq::client
