#include "server/request_log.h"

#include <cstdio>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace dpq::server {

RequestLog::RequestLog(const char* rpc) : rpc_(rpc), start_(absl::Now()) {}

namespace {

// Ids come from requests and may be anything until validated: escape them
// so that no request can forge or break a log line.
std::string Field(const std::string& value) {
  return value.empty() ? "-" : absl::CEscape(value).substr(0, 128);
}

}  // namespace

grpc::Status RequestLog::Finish(const grpc::Status& status) {
  // One line, fixed fields, no data values: safe to ship to any log store.
  const std::string line = absl::StrFormat(
      "%s rpc=%s principal=%s dataset=%s epsilon=%g status=%d latency_ms=%.3f\n",
      absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone()),
      rpc_, Field(principal_), Field(dataset_), epsilon_, static_cast<int>(status.error_code()),
      absl::ToDoubleMilliseconds(absl::Now() - start_));
  std::fputs(line.c_str(), stderr);
  return status;
}

}  // namespace dpq::server
