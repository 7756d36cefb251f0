#include "server/registry/version_state.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace dpq::server::registry {
namespace {

// The degree_bounds line's value: a bound or '-' (unkeyed) per DC.
std::optional<std::vector<core::private_measures::DcDegreeBound>>
ParseDegreeBounds(absl::string_view text) {
  std::vector<core::private_measures::DcDegreeBound> bounds;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    core::private_measures::DcDegreeBound b;
    if (word != "-") {
      if (!absl::SimpleAtoi(word, &b.bound)) return std::nullopt;
      b.keyed = true;
    }
    bounds.push_back(b);
  }
  return bounds;
}

// Merges a cross_bounds line's value into `bounds`: '-' or c per DC, on
// DCs that are not keyed. False if it does not match.
bool MergeCrossBounds(
    absl::string_view text,
    std::vector<core::private_measures::DcDegreeBound>* bounds) {
  size_t i = 0;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (i == bounds->size()) return false;
    core::private_measures::DcDegreeBound& b = (*bounds)[i++];
    if (word == "-") continue;
    if (b.keyed || !absl::SimpleAtoi(word, &b.cross_bound)) return false;
    b.cross_keyed = true;
  }
  return i == bounds->size();
}

}  // namespace

std::string FormatVersionState(const VersionState& state) {
  std::string text =
      absl::StrCat("version ", state.version, "\nregistered_at ",
                   absl::FormatTime(absl::RFC3339_full, state.registered_at,
                                    absl::UTCTimeZone()),
                   "\n");
  if (state.edges.has_value()) {
    absl::StrAppend(&text, "edges ", *state.edges, "\n");
  }
  if (state.cover_bound.has_value()) {
    absl::StrAppend(&text, "cover_bound ", *state.cover_bound, "\n");
  }
  if (state.degree_bounds.has_value()) {
    absl::StrAppend(&text, "degree_bounds");
    for (const core::private_measures::DcDegreeBound& b :
         *state.degree_bounds) {
      if (b.keyed) {
        absl::StrAppend(&text, " ", b.bound);
      } else {
        absl::StrAppend(&text, " -");
      }
    }
    absl::StrAppend(&text, "\ncross_bounds");
    for (const core::private_measures::DcDegreeBound& b :
         *state.degree_bounds) {
      if (b.cross_keyed) {
        absl::StrAppend(&text, " ", b.cross_bound);
      } else {
        absl::StrAppend(&text, " -");
      }
    }
    absl::StrAppend(&text, "\n");
  }
  if (state.release_cost.has_value()) {
    absl::StrAppend(
        &text, "release_cost ",
        core::private_measures::ReleaseCostName(*state.release_cost), "\n");
  }
  if (state.exact_repair.has_value()) {
    absl::StrAppend(&text, "exact_repair ", *state.exact_repair, "\n");
  }
  return text;
}

absl::StatusOr<VersionState> ParseVersionState(absl::string_view text,
                                               const std::string& path) {
  VersionState state;
  std::optional<absl::string_view> cross_bounds;
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
    } else if (kv.first == "edges" || kv.first == "exact_repair" ||
               kv.first == "cover_bound") {
      uint64_t number = 0;
      if (!absl::SimpleAtoi(kv.second, &number)) {
        return absl::DataLossError(absl::StrCat(
            "'", path, "' has a malformed '", kv.first, "' line."));
      }
      (kv.first == "edges"         ? state.edges
       : kv.first == "cover_bound" ? state.cover_bound
                                   : state.exact_repair) = number;
    } else if (kv.first == "degree_bounds") {
      state.degree_bounds = ParseDegreeBounds(kv.second);
      if (!state.degree_bounds.has_value()) {
        return absl::DataLossError(
            absl::StrCat("'", path, "' has a malformed 'degree_bounds' line."));
      }
    } else if (kv.first == "cross_bounds") {
      cross_bounds = kv.second;
    } else if (kv.first == "release_cost") {
      state.release_cost = core::private_measures::ParseReleaseCost(kv.second);
      if (!state.release_cost.has_value()) {
        return absl::DataLossError(
            absl::StrCat("'", path, "' has a malformed 'release_cost' line."));
      }
    }
  }
  if (cross_bounds.has_value()) {
    if (!state.degree_bounds.has_value() ||
        !MergeCrossBounds(*cross_bounds, &*state.degree_bounds)) {
      return absl::DataLossError(
          absl::StrCat("'", path, "' has a malformed 'cross_bounds' line."));
    }
    state.cross_bounds_recorded = true;
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
