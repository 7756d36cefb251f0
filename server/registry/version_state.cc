#include "server/registry/version_state.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace dpq::server::registry {

std::string FormatVersionState(const VersionState& state) {
  std::string text =
      absl::StrCat("version ", state.version, "\nregistered_at ",
                   absl::FormatTime(absl::RFC3339_full, state.registered_at,
                                    absl::UTCTimeZone()),
                   "\n");
  if (state.edges.has_value()) {
    absl::StrAppend(&text, "edges ", *state.edges, "\n");
  }
  if (state.exact_repair.has_value()) {
    absl::StrAppend(&text, "exact_repair ", *state.exact_repair, "\n");
  }
  return text;
}

absl::StatusOr<VersionState> ParseVersionState(absl::string_view text,
                                               const std::string& path) {
  VersionState state;
  bool have_version = false;
  bool have_time = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first == "version") {
      have_version =
          absl::SimpleAtoi(kv.second, &state.version) && state.version >= 1;
    } else if (kv.first == "registered_at") {
      std::string error;
      have_time = absl::ParseTime(absl::RFC3339_full, kv.second,
                                  &state.registered_at, &error);
    } else if (kv.first == "edges" || kv.first == "exact_repair") {
      uint64_t number = 0;
      if (!absl::SimpleAtoi(kv.second, &number)) {
        return absl::DataLossError(absl::StrCat(
            "'", path, "' has a malformed '", kv.first, "' line."));
      }
      (kv.first == "edges" ? state.edges : state.exact_repair) = number;
    }
  }
  if (!have_version || !have_time) {
    return absl::DataLossError(
        absl::StrCat("'", path,
                     "' must hold 'version <n>' and 'registered_at "
                     "<RFC 3339 time>'."));
  }
  return state;
}

}  // namespace dpq::server::registry
