#include "server/http/path_template.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace dpq::server::http {
namespace {

absl::Status Unsupported(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "The HTTP path template '", text, "' is not supported: ", why, "."));
}

// A field path: identifiers joined by '.'.
bool IsFieldPath(absl::string_view path) {
  if (path.empty()) return false;
  for (absl::string_view part : absl::StrSplit(path, '.')) {
    if (part.empty() || absl::ascii_isdigit(part[0])) return false;
    for (char c : part) {
      if (!absl::ascii_isalnum(c) && c != '_') return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<PathTemplate> PathTemplate::Parse(absl::string_view text) {
  PathTemplate parsed;
  parsed.text_ = std::string(text);
  if (!absl::StartsWith(text, "/") || text.size() < 2) {
    return Unsupported(text, "it must start with '/' and name a path");
  }
  absl::string_view rest = text.substr(1);
  // The verb follows the last ':' that is not inside a variable.
  const size_t close = rest.rfind('}');
  const size_t colon = rest.rfind(':');
  if (colon != absl::string_view::npos &&
      (close == absl::string_view::npos || colon > close)) {
    parsed.verb_ = std::string(rest.substr(colon + 1));
    rest = rest.substr(0, colon);
    if (parsed.verb_.empty()) return Unsupported(text, "its verb is empty");
  }
  for (absl::string_view segment : absl::StrSplit(rest, '/')) {
    if (segment.empty()) return Unsupported(text, "it has an empty segment");
    if (segment.front() != '{') {
      if (absl::StrContains(segment, '{') || absl::StrContains(segment, '}') ||
          absl::StrContains(segment, '*') || absl::StrContains(segment, ':')) {
        return Unsupported(text, "only whole-segment variables are served");
      }
      parsed.segments_.push_back({false, std::string(segment)});
      continue;
    }
    if (segment.back() != '}') {
      return Unsupported(text, "a variable must be a whole segment");
    }
    absl::string_view field = segment.substr(1, segment.size() - 2);
    if (absl::EndsWith(field, "=*")) field.remove_suffix(2);
    if (!IsFieldPath(field)) {
      return Unsupported(text, "variables are '{field}' or '{field=*}'");
    }
    parsed.segments_.push_back({true, std::string(field)});
  }
  return parsed;
}

std::optional<std::vector<PathBinding>> PathTemplate::Match(
    absl::string_view path) const {
  if (!absl::ConsumePrefix(&path, "/")) return std::nullopt;
  if (!verb_.empty()) {
    const std::string suffix = absl::StrCat(":", verb_);
    if (!absl::ConsumeSuffix(&path, suffix)) return std::nullopt;
  }
  const std::vector<absl::string_view> parts = absl::StrSplit(path, '/');
  if (parts.size() != segments_.size()) return std::nullopt;
  std::vector<PathBinding> bindings;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return std::nullopt;
    if (!segments_[i].variable) {
      if (parts[i] != segments_[i].text) return std::nullopt;
      continue;
    }
    // Without a verb in the template, a ':' in the last segment belongs to
    // another route's verb, never to a value.
    if (verb_.empty() && i + 1 == parts.size() &&
        absl::StrContains(parts[i], ':')) {
      return std::nullopt;
    }
    bindings.emplace_back(segments_[i].text, std::string(parts[i]));
  }
  return bindings;
}

std::vector<std::string> PathTemplate::variables() const {
  std::vector<std::string> names;
  for (const Segment& segment : segments_) {
    if (segment.variable) names.push_back(segment.text);
  }
  return names;
}

}  // namespace dpq::server::http
