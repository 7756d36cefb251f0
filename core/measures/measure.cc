#include "core/measures/measure.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::measures {

absl::StatusOr<Measure> ParseMeasure(absl::string_view text) {
  std::string t = absl::AsciiStrToLower(text);
  if (absl::StartsWith(t, "i_")) t = t.substr(2);
  if (t == "d") return Measure::kDrastic;
  if (t == "mi") return Measure::kMinimalInconsistency;
  if (t == "p") return Measure::kProblematic;
  if (t == "r") return Measure::kRepair;
  if (t == "mc") return Measure::kMaximalConsistency;
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown measure '", text, "'; expected one of mi, p, r, d, mc."));
}

absl::string_view MeasureName(Measure measure) {
  switch (measure) {
    case Measure::kDrastic:
      return "D";
    case Measure::kMinimalInconsistency:
      return "MI";
    case Measure::kProblematic:
      return "P";
    case Measure::kRepair:
      return "R";
    case Measure::kMaximalConsistency:
      return "MC";
  }
  return "?";
}

}  // namespace dpq::core::measures
