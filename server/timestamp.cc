#include "server/timestamp.h"

#include <cstdint>

namespace dpq::server {

google::protobuf::Timestamp ToTimestamp(absl::Time time) {
  // The range google.protobuf.Timestamp allows.
  constexpr int64_t kMinSeconds = -62135596800;  // 0001-01-01T00:00:00Z
  constexpr int64_t kMaxSeconds = 253402300799;  // 9999-12-31T23:59:59Z
  google::protobuf::Timestamp out;
  if (time <= absl::FromUnixSeconds(kMinSeconds)) {
    out.set_seconds(kMinSeconds);
    return out;
  }
  if (time >= absl::FromUnixSeconds(kMaxSeconds)) {
    out.set_seconds(kMaxSeconds);
    return out;
  }
  const int64_t seconds = absl::ToUnixSeconds(time);  // rounds down
  const int64_t nanos =
      absl::ToInt64Nanoseconds(time - absl::FromUnixSeconds(seconds));
  out.set_seconds(seconds);
  out.set_nanos(static_cast<int32_t>(nanos));
  return out;
}

}  // namespace dpq::server
