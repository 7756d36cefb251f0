#include "server/metrics/text_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"

namespace dpq::server::metrics {

std::string EscapeHelp(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeLabelValue(absl::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string ScaledDecimal(int64_t value, int decimals) {
  // Magnitude as unsigned, so that INT64_MIN has one too.
  const bool negative = value < 0;
  uint64_t magnitude = negative ? ~static_cast<uint64_t>(value) + 1
                                : static_cast<uint64_t>(value);
  uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const uint64_t whole = magnitude / scale;
  uint64_t fraction = magnitude % scale;
  std::string out = absl::StrCat(negative ? "-" : "", whole);
  if (fraction == 0) return out;
  std::string digits = absl::StrCat(fraction);
  digits.insert(0, static_cast<size_t>(decimals) - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return absl::StrCat(out, ".", digits);
}

std::string FormatDouble(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::isnan(value)) return "NaN";
  // Whole numbers as integers ("60", not %g's "6e+01").
  if (value == std::trunc(value) && std::fabs(value) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(value));
  }
  // Otherwise the shortest %g that reads back exactly.
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string FormatLabels(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ",", labels[i].first, "=\"",
                    EscapeLabelValue(labels[i].second), "\"");
  }
  out += "}";
  return out;
}

}  // namespace dpq::server::metrics
