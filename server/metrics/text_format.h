// The pieces of the Prometheus text exposition format 0.0.4 that every
// metric needs (docs/operations.md, "Metrics"): escaped HELP text and label
// values, and exact decimal numbers. Pure string functions.
#ifndef DPQ_SERVER_METRICS_TEXT_FORMAT_H_
#define DPQ_SERVER_METRICS_TEXT_FORMAT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace dpq::server::metrics {

// The Content-Type of a scrape answer.
inline constexpr char kContentType[] = "text/plain; version=0.0.4";

// A HELP text with '\' and newline escaped ("\\", "\n").
std::string EscapeHelp(absl::string_view text);

// A label value with '\', '"' and newline escaped ("\\", "\"", "\n").
std::string EscapeLabelValue(absl::string_view value);

// `value` / 10^decimals as an exact decimal without trailing zeros:
// (15600000000000, 12) -> "15.6", (1, 12) -> "0.000000000001",
// (3, 0) -> "3", (-5, 1) -> "-0.5". decimals in [0, 18].
std::string ScaledDecimal(int64_t value, int decimals);

// A bucket bound or other double as Prometheus reads it: the shortest
// text that reads back as the same double ("0.005", "1", "2.5"); "+Inf"
// for infinity.
std::string FormatDouble(double value);

// `{name="value",...}` in the given order, values escaped; "" when empty.
using Labels = std::vector<std::pair<std::string, std::string>>;
std::string FormatLabels(const Labels& labels);

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_TEXT_FORMAT_H_
