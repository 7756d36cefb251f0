#include "server/grpc_status.h"

#include <openssl/rand.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"
#include "core/util/text_check.h"
#include "google/rpc/error_details.pb.h"

namespace dpq::server {
namespace {

using ::dpq::core::util::ErrorDetails;

// Strings in details are bounded one by one, so that no single value
// crowds out the rest.
constexpr size_t kMaxDetailString = 512;
constexpr size_t kMaxDetailItems = 16;

// `s` cut to at most `max_bytes` and made valid UTF-8 (protobuf's `string`
// fields must be, or a client's parser refuses the whole Status).
std::string Clip(const std::string& s, size_t max_bytes) {
  std::string clipped = s.size() <= max_bytes
                            ? s
                            : absl::StrCat(s.substr(0, max_bytes - 3), "...");
  if (!core::util::FindInvalidUtf8(clipped).has_value()) return clipped;
  // Each replaced byte takes 3 (U+FFFD): clip again, from valid text.
  clipped = core::util::ReplaceInvalidUtf8(clipped);
  while (clipped.size() > max_bytes) {
    clipped.pop_back();
    while (!clipped.empty() &&
           (static_cast<unsigned char>(clipped.back()) & 0xC0) == 0x80) {
      clipped.pop_back();
    }
    if (!clipped.empty() &&
        static_cast<unsigned char>(clipped.back()) >= 0xC0) {
      clipped.pop_back();
    }
  }
  return clipped;
}

std::string Clip(const std::string& s) { return Clip(s, kMaxDetailString); }

google::rpc::ErrorInfo ErrorInfoOf(absl::StatusCode code,
                                   const ErrorDetails& d) {
  google::rpc::ErrorInfo info;
  info.set_reason(d.reason.empty() ? absl::StatusCodeToString(code)
                                   : Clip(d.reason));
  info.set_domain(core::util::kErrorDomain);
  size_t n = 0;
  for (const auto& [key, value] : d.metadata) {
    if (n++ == kMaxDetailItems * 2) break;
    (*info.mutable_metadata())[Clip(key, 64)] = Clip(value);
  }
  return info;
}

void AddDetail(google::rpc::Status& rich,
               const google::protobuf::Message& detail) {
  rich.add_details()->PackFrom(detail);
}

// The details after the ErrorInfo, in the order docs/errors.md lists.
void AddOtherDetails(const ErrorDetails& d, absl::StatusCode code,
                     google::rpc::Status& rich) {
  if (!d.quota_violations.empty()) {
    google::rpc::QuotaFailure quota;
    for (size_t i = 0; i < d.quota_violations.size() && i < kMaxDetailItems;
         ++i) {
      auto* v = quota.add_violations();
      v->set_subject(Clip(d.quota_violations[i].subject));
      v->set_description(Clip(d.quota_violations[i].description));
    }
    AddDetail(rich, quota);
  }
  if (!d.precondition_violations.empty()) {
    google::rpc::PreconditionFailure failure;
    for (size_t i = 0;
         i < d.precondition_violations.size() && i < kMaxDetailItems; ++i) {
      auto* v = failure.add_violations();
      v->set_type(Clip(d.precondition_violations[i].type));
      v->set_subject(Clip(d.precondition_violations[i].subject));
      v->set_description(Clip(d.precondition_violations[i].description));
    }
    AddDetail(rich, failure);
  }
  if (!d.field_violations.empty()) {
    google::rpc::BadRequest bad;
    for (size_t i = 0; i < d.field_violations.size() && i < kMaxDetailItems;
         ++i) {
      auto* v = bad.add_field_violations();
      v->set_field(Clip(d.field_violations[i].field));
      v->set_description(Clip(d.field_violations[i].description));
    }
    AddDetail(rich, bad);
  }
  if (!d.resource.resource_type.empty()) {
    google::rpc::ResourceInfo resource;
    resource.set_resource_type(Clip(d.resource.resource_type));
    resource.set_resource_name(Clip(d.resource.resource_name));
    resource.set_description(Clip(d.resource.description));
    AddDetail(rich, resource);
  }
  int64_t delay_ms = d.retry_delay_ms;
  if (delay_ms == 0 && code == absl::StatusCode::kUnavailable) {
    delay_ms = kDefaultRetryDelayMs;
  }
  if (delay_ms > 0) {
    google::rpc::RetryInfo retry;
    retry.mutable_retry_delay()->set_seconds(delay_ms / 1000);
    retry.mutable_retry_delay()->set_nanos(
        static_cast<int32_t>(delay_ms % 1000) * 1'000'000);
    AddDetail(rich, retry);
  }
}

}  // namespace

bool IsServerFault(absl::StatusCode code) {
  return code == absl::StatusCode::kInternal ||
         code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kDataLoss;
}

std::string NewIncidentId() {
  unsigned char bytes[8];
  // A CSPRNG failure is not recoverable (as for request ids).
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) std::abort();
  return absl::StrCat(
      "inc-", absl::BytesToHexString(absl::string_view(
                  reinterpret_cast<const char*>(bytes), sizeof(bytes))));
}

std::string IncidentMessage(absl::string_view incident_id) {
  return absl::StrCat("internal error (incident ", incident_id,
                      "); the server log has the details");
}

google::rpc::Status RichStatus(const absl::Status& status,
                               absl::string_view message,
                               absl::string_view incident_id) {
  ErrorDetails d = core::util::GetErrorDetails(status).value_or(ErrorDetails{});
  // A server fault's details could quote what its message does (a path, a
  // database's text): only the reason and the incident leave.
  if (IsServerFault(status.code())) {
    std::string reason = std::move(d.reason);
    d = ErrorDetails();
    d.reason = std::move(reason);
  }
  if (!incident_id.empty()) d.incident_id = std::string(incident_id);

  google::rpc::Status rich;
  rich.set_code(static_cast<int32_t>(status.code()));
  rich.set_message(Clip(std::string(message), kMaxMessageBytes));
  const google::rpc::ErrorInfo info = ErrorInfoOf(status.code(), d);
  AddDetail(rich, info);
  AddOtherDetails(d, status.code(), rich);
  google::rpc::RequestInfo request;
  if (!d.incident_id.empty()) {
    request.set_request_id(Clip(d.incident_id, 64));
    AddDetail(rich, request);
  }
  if (rich.ByteSizeLong() > kMaxDetailsBytes) {
    // Bounded whatever the details: the reason and the incident stay.
    rich.clear_details();
    google::rpc::ErrorInfo bare;
    bare.set_reason(info.reason());
    bare.set_domain(info.domain());
    AddDetail(rich, bare);
    if (!d.incident_id.empty()) AddDetail(rich, request);
  }
  return rich;
}

namespace {

// A charged release that failed after its reservation: the caller must
// still learn that the charge stands and how to get the answer, which the
// incident message alone would hide (core/ledger/charged_release.cc).
void AppendChargeStands(const absl::Status& status, std::string& message) {
  const std::optional<ErrorDetails> d = core::util::GetErrorDetails(status);
  if (!d.has_value()) return;
  const auto stands = d->metadata.find("charge_stands");
  const auto id = d->metadata.find("request_id");
  const auto eps = d->metadata.find("charged_epsilon");
  if (stands == d->metadata.end() || stands->second != "true" ||
      id == d->metadata.end() || eps == d->metadata.end()) {
    return;
  }
  absl::StrAppend(&message, ". The charge of epsilon ", eps->second,
                  " for request_id '", absl::CEscape(id->second),
                  "' stands: retry with the same request_id to receive the "
                  "answer without a further charge.");
}

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& status,
                          absl::string_view incident_id) {
  if (status.ok()) return grpc::Status::OK;
  std::string message;
  std::string incident(incident_id);
  if (IsServerFault(status.code())) {
    if (incident.empty()) incident = NewIncidentId();
    message = IncidentMessage(incident);
    AppendChargeStands(status, message);
  } else {
    message = std::string(status.message());
    if (message.size() > kMaxMessageBytes) {
      message.resize(kMaxMessageBytes - 3);
      message += "...";
    }
    incident.clear();
  }
  const google::rpc::Status rich = RichStatus(status, message, incident);
  // absl::StatusCode and grpc::StatusCode share their numeric values.
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), message,
                      rich.SerializeAsString());
}

}  // namespace dpq::server
