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

std::string ChargeSentence(absl::string_view charged,
                           absl::string_view remaining, bool replayed) {
  if (replayed) {
    return absl::StrCat("charged epsilon ", charged,
                        " (recorded answer of an earlier call), remaining ",
                        remaining);
  }
  return absl::StrCat("charged epsilon ", charged, ", remaining ", remaining);
}

}  // namespace dpq::client
