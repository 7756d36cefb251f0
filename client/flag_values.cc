#include "client/flag_values.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

}  // namespace

absl::StatusOr<double> ParseNumber(absl::string_view what,
                                   const std::string& text) {
  double value;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value)) {
    return Usage(
        absl::StrCat(what, " expects a finite number, got '", text, "'."));
  }
  return value;
}

absl::StatusOr<uint64_t> ParseUint64(absl::string_view what,
                                     const std::string& text) {
  uint64_t value;
  if (text.empty() || text[0] == '+' || !absl::SimpleAtoi(text, &value)) {
    return Usage(absl::StrCat(what, " expects a non-negative integer, got '",
                              text, "'."));
  }
  return value;
}

absl::StatusOr<uint32_t> ParseUint32(absl::string_view what,
                                     const std::string& text) {
  ASSIGN_OR_RETURN(const uint64_t value, ParseUint64(what, text));
  if (value > UINT32_MAX) {
    return Usage(absl::StrCat(what, " must be at most ", UINT32_MAX,
                              ", but is ", text, "."));
  }
  return static_cast<uint32_t>(value);
}

absl::StatusOr<dpq::v1::Measure> ParseMeasureName(const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "mi") return dpq::v1::MEASURE_MI;
  if (lower == "p") return dpq::v1::MEASURE_P;
  if (lower == "r") return dpq::v1::MEASURE_R;
  return Usage(
      absl::StrCat("--measure must be one of mi, p, r; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SelectionMethod> ParseMethodName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "group_bound") return dpq::v1::SELECTION_METHOD_GROUP_BOUND;
  if (lower == "gem") return dpq::v1::SELECTION_METHOD_GEM;
  if (lower == "optimized") return dpq::v1::SELECTION_METHOD_OPTIMIZED;
  if (lower == "hierarchical") return dpq::v1::SELECTION_METHOD_HIERARCHICAL;
  if (lower == "basic") return dpq::v1::SELECTION_METHOD_BASIC;
  if (lower == "baseline") return dpq::v1::SELECTION_METHOD_BASELINE;
  return Usage(absl::StrCat(
      "--method for mi and p must be one of group_bound, gem, optimized, "
      "hierarchical, basic, baseline; got '",
      text, "'."));
}

absl::StatusOr<dpq::v1::RepairMethod> ParseRepairMethodName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "cover_bound") return dpq::v1::REPAIR_METHOD_COVER_BOUND;
  if (lower == "exact") return dpq::v1::REPAIR_METHOD_EXACT;
  if (lower == "vertex_cover") return dpq::v1::REPAIR_METHOD_VERTEX_COVER;
  return Usage(absl::StrCat(
      "the method for r must be one of cover_bound, exact, vertex_cover; got '",
      text, "'."));
}

absl::StatusOr<dpq::v1::DatasetKind> ParseKindName(const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "table") return dpq::v1::DATASET_KIND_TABLE;
  if (lower == "graph") return dpq::v1::DATASET_KIND_GRAPH;
  return Usage(
      absl::StrCat("--kind must be one of table, graph; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SelectionApproach> ParseApproachName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "pareto") return dpq::v1::SELECTION_APPROACH_PARETO;
  if (lower == "aggregation") return dpq::v1::SELECTION_APPROACH_AGGREGATION;
  return Usage(absl::StrCat(
      "--approach must be one of pareto, aggregation; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SensitivityMode> ParseSensitivityName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "global") return dpq::v1::SENSITIVITY_MODE_GLOBAL;
  if (lower == "local") return dpq::v1::SENSITIVITY_MODE_LOCAL;
  return Usage(absl::StrCat("--sensitivity must be one of global, local; got '",
                            text, "'."));
}

absl::StatusOr<dpq::v1::NodeObjective> ParseObjectiveName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "degree") return dpq::v1::NODE_OBJECTIVE_DEGREE;
  if (lower == "egocentric_density") {
    return dpq::v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY;
  }
  return Usage(absl::StrCat(
      "--objectives must list some of degree, egocentric_density; got '", text,
      "'."));
}

absl::StatusOr<dpq::v1::CubeDimension> ParseCubeDimension(
    const std::string& text) {
  // The first ':' or '=' ends the column name; column names with either
  // character cannot be declared here (the manifest JSON can).
  const size_t sep = text.find_first_of(":=");
  dpq::v1::CubeDimension dim;
  dim.set_column(std::string(absl::StripAsciiWhitespace(text.substr(0, sep))));
  if (dim.column().empty()) {
    return Usage(absl::StrCat(
        "--cube-dimension expects COL=V1|V2|..., COL:E0,E1,... or COL=*; "
        "got '",
        text, "'."));
  }
  if (sep == std::string::npos) return dim;
  const std::string rest = text.substr(sep + 1);
  if (text[sep] == ':') {
    for (absl::string_view edge : absl::StrSplit(rest, ',')) {
      const std::string trimmed(absl::StripAsciiWhitespace(edge));
      double value;
      if (!absl::SimpleAtod(trimmed, &value) || !std::isfinite(value)) {
        return Usage(absl::StrCat("--cube-dimension ", dim.column(),
                                  ": bin edge '", trimmed,
                                  "' is not a finite number."));
      }
      dim.add_bin_edges(value);
    }
    return dim;
  }
  if (absl::StripAsciiWhitespace(rest) == "*") {
    // The owner's explicit choice to take the domain from the data.
    dim.set_infer_domain(true);
    return dim;
  }
  for (absl::string_view value : absl::StrSplit(rest, '|')) {
    const absl::string_view trimmed = absl::StripAsciiWhitespace(value);
    if (trimmed.empty()) {
      return Usage(absl::StrCat("--cube-dimension ", dim.column(),
                                ": empty domain value in '", text,
                                "' (values are separated by '|')."));
    }
    dim.add_domain(std::string(trimmed));
  }
  return dim;
}

absl::StatusOr<std::vector<std::string>> ParseNameList(absl::string_view flag,
                                                       const std::string& text,
                                                       bool allow_empty) {
  std::vector<std::string> names;
  if (absl::StripAsciiWhitespace(text).empty()) {
    if (allow_empty) return names;
    return Usage(absl::StrCat(flag, " expects a comma-separated list, got '",
                              text, "'."));
  }
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    const std::string name(absl::StripAsciiWhitespace(item));
    if (name.empty()) {
      return Usage(absl::StrCat(flag, ": empty name in '", text, "'."));
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Usage(
          absl::StrCat(flag, ": '", name, "' is given twice in '", text, "'."));
    }
    names.push_back(name);
  }
  return names;
}

absl::StatusOr<std::vector<double>> ParseNumberList(absl::string_view flag,
                                                    const std::string& text) {
  std::vector<double> numbers;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    const std::string trimmed(absl::StripAsciiWhitespace(item));
    double value;
    if (!absl::SimpleAtod(trimmed, &value) || !std::isfinite(value)) {
      return Usage(absl::StrCat(
          flag, " expects comma-separated finite numbers, got '", text, "'."));
    }
    numbers.push_back(value);
  }
  return numbers;
}

}  // namespace dpq::client
