// absl::Time -> google.protobuf.Timestamp, for every response that carries
// a time (ledger entries, accounts, audit records, dataset versions).
#ifndef DPQ_SERVER_TIMESTAMP_H_
#define DPQ_SERVER_TIMESTAMP_H_

#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace dpq::server {

// Seconds and nanoseconds since the Unix epoch. absl::InfinitePast/Future
// are clamped to the Timestamp range (0001-01-01 .. 9999-12-31).
google::protobuf::Timestamp ToTimestamp(absl::Time time);

}  // namespace dpq::server

#endif  // DPQ_SERVER_TIMESTAMP_H_
