#include "core/util/error_details.h"

#include <cstdint>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::util {
namespace {

// The payload's type URL. Not a protobuf type: core encodes the details
// itself (below) and only server/grpc_status.cc turns them into protos.
constexpr char kPayloadUrl[] = "dpq.v1/core.util.ErrorDetails";

// Length-prefixed strings: "<decimal length>:<bytes>". A list is its count
// followed by its items, so any byte may appear in a string.
void PutString(std::string& out, absl::string_view s) {
  absl::StrAppend(&out, s.size(), ":", s);
}

class Reader {
 public:
  explicit Reader(absl::string_view in) : in_(in) {}

  bool GetString(std::string& s) {
    const size_t colon = in_.find(':');
    if (colon == absl::string_view::npos || colon == 0 || colon > 10) {
      return false;
    }
    uint64_t size = 0;
    if (!absl::SimpleAtoi(in_.substr(0, colon), &size)) return false;
    in_.remove_prefix(colon + 1);
    if (size > in_.size()) return false;
    s = std::string(in_.substr(0, size));
    in_.remove_prefix(size);
    return true;
  }

  bool GetCount(size_t& n) {
    std::string s;
    uint64_t value = 0;
    if (!GetString(s) || !absl::SimpleAtoi(s, &value) || value > in_.size()) {
      return false;
    }
    n = value;
    return true;
  }

  bool AtEnd() const { return in_.empty(); }

 private:
  absl::string_view in_;
};

std::string Encode(const ErrorDetails& d) {
  std::string out;
  PutString(out, d.reason);
  PutString(out, absl::StrCat(d.metadata.size()));
  for (const auto& [key, value] : d.metadata) {
    PutString(out, key);
    PutString(out, value);
  }
  PutString(out, absl::StrCat(d.quota_violations.size()));
  for (const QuotaViolation& v : d.quota_violations) {
    PutString(out, v.subject);
    PutString(out, v.description);
  }
  PutString(out, absl::StrCat(d.field_violations.size()));
  for (const FieldViolation& v : d.field_violations) {
    PutString(out, v.field);
    PutString(out, v.description);
  }
  PutString(out, absl::StrCat(d.precondition_violations.size()));
  for (const PreconditionViolation& v : d.precondition_violations) {
    PutString(out, v.type);
    PutString(out, v.subject);
    PutString(out, v.description);
  }
  PutString(out, d.resource.resource_type);
  PutString(out, d.resource.resource_name);
  PutString(out, d.resource.description);
  PutString(out, absl::StrCat(d.retry_delay_ms));
  PutString(out, d.incident_id);
  return out;
}

std::optional<ErrorDetails> Decode(absl::string_view in) {
  Reader r(in);
  ErrorDetails d;
  size_t n = 0;
  if (!r.GetString(d.reason) || !r.GetCount(n)) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    std::string key, value;
    if (!r.GetString(key) || !r.GetString(value)) return std::nullopt;
    d.metadata[std::move(key)] = std::move(value);
  }
  if (!r.GetCount(n)) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    QuotaViolation v;
    if (!r.GetString(v.subject) || !r.GetString(v.description)) {
      return std::nullopt;
    }
    d.quota_violations.push_back(std::move(v));
  }
  if (!r.GetCount(n)) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    FieldViolation v;
    if (!r.GetString(v.field) || !r.GetString(v.description)) {
      return std::nullopt;
    }
    d.field_violations.push_back(std::move(v));
  }
  if (!r.GetCount(n)) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    PreconditionViolation v;
    if (!r.GetString(v.type) || !r.GetString(v.subject) ||
        !r.GetString(v.description)) {
      return std::nullopt;
    }
    d.precondition_violations.push_back(std::move(v));
  }
  std::string delay;
  if (!r.GetString(d.resource.resource_type) ||
      !r.GetString(d.resource.resource_name) ||
      !r.GetString(d.resource.description) || !r.GetString(delay) ||
      !absl::SimpleAtoi(delay, &d.retry_delay_ms) || d.retry_delay_ms < 0 ||
      !r.GetString(d.incident_id) || !r.AtEnd()) {
    return std::nullopt;
  }
  return d;
}

}  // namespace

absl::Status WithErrorDetails(absl::Status status,
                              const ErrorDetails& details) {
  if (status.ok()) return status;
  status.SetPayload(kPayloadUrl, absl::Cord(Encode(details)));
  return status;
}

std::optional<ErrorDetails> GetErrorDetails(const absl::Status& status) {
  const auto payload = status.GetPayload(kPayloadUrl);
  if (!payload.has_value()) return std::nullopt;
  return Decode(std::string(*payload));
}

absl::Status InvalidFieldError(absl::string_view field,
                               absl::string_view message) {
  ErrorDetails details;
  details.reason = "INVALID_ARGUMENT";
  details.metadata["field"] = std::string(field);
  details.field_violations.push_back(
      {std::string(field), std::string(message)});
  return WithErrorDetails(absl::InvalidArgumentError(message), details);
}

}  // namespace dpq::core::util
