#include "client/commands/selection_flags.h"

#include "client/flag_values.h"
#include "core/util/status_macros.h"

namespace dpq::client {

void SelectionFlags::Define(CommandFlags& flags) {
  flags.Value("--approach", &approach_text_, FlagText::kLocal);
  flags.Value("--weights", &weights_text_, FlagText::kLocal);
  flags.Value("--sensitivity", &sensitivity_text_, FlagText::kLocal);
}

absl::Status SelectionFlags::Validate(const CommandFlags& flags) {
  if (flags.Given("--approach")) {
    ASSIGN_OR_RETURN(approach_, ParseApproachName(approach_text_));
  }
  if (flags.Given("--weights")) {
    ASSIGN_OR_RETURN(weights_, ParseNumberList("--weights", weights_text_));
  }
  if (flags.Given("--sensitivity")) {
    ASSIGN_OR_RETURN(sensitivity_, ParseSensitivityName(sensitivity_text_));
  }
  return absl::OkStatus();
}

}  // namespace dpq::client
