#include "client/error_output.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/grpc_status.h"
#include "client/terminal_text.h"
#include "core/util/error_details.h"
#include "core/util/json_writer.h"

namespace dpq::client {
namespace {

using ::dpq::core::util::ErrorDetails;
using ::dpq::core::util::JsonObjectWriter;

// "1.5" for 1500 ms, "5" for 5000.
std::string Seconds(int64_t ms) {
  std::string text = absl::StrCat(ms / 1000);
  if (ms % 1000 != 0) {
    std::string fraction = absl::StrCat(ms % 1000 + 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    absl::StrAppend(&text, ".", fraction);
  }
  return text;
}

// A JSON array of objects, one per item, from `fill`.
template <typename T, typename Fill>
std::string JsonArray(const std::vector<T>& items, Fill fill) {
  std::vector<std::string> objects;
  for (const T& item : items) {
    JsonObjectWriter w;
    fill(w, item);
    objects.push_back(w.Finish());
  }
  return absl::StrCat("[", absl::StrJoin(objects, ","), "]");
}

}  // namespace

std::optional<std::string> ErrorDetailLine(const absl::Status& status) {
  const std::optional<ErrorDetails> d = core::util::GetErrorDetails(status);
  if (!d.has_value()) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& [key, value] : d->metadata) {
    if (absl::EndsWith(key, "_units")) continue;
    parts.push_back(absl::StrCat(key, "=", value));
  }
  for (const core::util::FieldViolation& v : d->field_violations) {
    if (d->metadata.count("field") != 0 && d->metadata.at("field") == v.field) {
      continue;  // already named
    }
    parts.push_back(absl::StrCat("field=", v.field));
  }
  if (d->retry_delay_ms > 0) {
    parts.push_back(
        absl::StrCat("retry_after=", Seconds(d->retry_delay_ms), "s"));
  }
  // Useful where the reason says more than the code (BUDGET_EXHAUSTED
  // rather than RESOURCE_EXHAUSTED); a bad field is named by the message.
  const std::string& reason = d->reason;
  if (reason.empty() || reason == StatusCodeName(status.code())) {
    return std::nullopt;
  }
  std::string line = absl::StrCat("dpq: ", reason, ":");
  for (const std::string& part : parts) absl::StrAppend(&line, " ", part);
  return TerminalSafe(line);
}

std::string ErrorJsonLine(const absl::Status& status,
                          absl::string_view request_id) {
  JsonObjectWriter e;
  e.Add("code", StatusCodeName(status.code()));
  e.Add("message", status.message());
  if (const std::optional<ErrorDetails> d = core::util::GetErrorDetails(status);
      d.has_value()) {
    e.Add("reason",
          d->reason.empty() ? StatusCodeName(status.code()) : d->reason);
    JsonObjectWriter metadata;
    for (const auto& [key, value] : d->metadata) metadata.Add(key, value);
    e.AddRaw("metadata", metadata.Finish());
    if (!d->field_violations.empty()) {
      e.AddRaw("field_violations",
               JsonArray(
                   d->field_violations, [](JsonObjectWriter& w, const auto& v) {
                     w.Add("field", v.field).Add("description", v.description);
                   }));
    }
    if (!d->quota_violations.empty()) {
      e.AddRaw("quota_violations",
               JsonArray(d->quota_violations, [](JsonObjectWriter& w,
                                                 const auto& v) {
                 w.Add("subject", v.subject).Add("description", v.description);
               }));
    }
    if (!d->precondition_violations.empty()) {
      e.AddRaw("precondition_violations",
               JsonArray(d->precondition_violations,
                         [](JsonObjectWriter& w, const auto& v) {
                           w.Add("type", v.type)
                               .Add("subject", v.subject)
                               .Add("description", v.description);
                         }));
    }
    if (!d->resource.resource_type.empty()) {
      JsonObjectWriter resource;
      resource.Add("resource_type", d->resource.resource_type)
          .Add("resource_name", d->resource.resource_name)
          .Add("description", d->resource.description);
      e.AddRaw("resource", resource.Finish());
    }
    if (d->retry_delay_ms > 0) e.Add("retry_delay_ms", d->retry_delay_ms);
    if (!d->incident_id.empty()) e.Add("incident_id", d->incident_id);
  }
  if (!request_id.empty()) e.Add("request_id", request_id);
  JsonObjectWriter out;
  out.AddRaw("error", e.Finish());
  return out.Finish() + "\n";
}

}  // namespace dpq::client
