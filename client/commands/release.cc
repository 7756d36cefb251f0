#include "client/commands/release.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/request_id.h"

namespace dpq::client {

void RequestIdFlag::Define(CommandFlags& flags) {
  flags.Value("--request-id", &value_, FlagText::kSent);
}

absl::Status RequestIdFlag::Validate(const CommandFlags& flags) const {
  if (!flags.Given("--request-id")) return absl::OkStatus();
  return ValidateRequestId(value_);
}

std::string ChargeSentence(double charged, double remaining, bool replayed) {
  if (replayed) {
    return absl::StrCat("charged epsilon ", FormatReal(charged),
                        " (recorded answer of an earlier call), remaining ",
                        FormatReal(remaining));
  }
  return absl::StrCat("charged epsilon ", FormatReal(charged), ", remaining ",
                      FormatReal(remaining));
}

}  // namespace dpq::client
