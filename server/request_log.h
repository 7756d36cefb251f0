// One log line per request (docs/operations.md, "Health, logs, shutdown and
// containers"): buyer, dataset, RPC, epsilon, status, latency, for a release
// its request id and whether the answer was a replay (so that the line joins
// with what the client saw), and for INTERNAL, UNKNOWN and DATA_LOSS an
// incident id and the full status message (escaped), whose cause only the
// operator can act on (the caller reads only the incident id:
// docs/errors.md); never data values or tokens.
//   RequestLog log("MeasureInconsistency");
//   log.set_principal(caller.id); log.set_dataset(id); log.set_epsilon(eps);
//   ...
//   return log.Finish(status);   // writes the line, returns status
#ifndef DPQ_SERVER_REQUEST_LOG_H_
#define DPQ_SERVER_REQUEST_LOG_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "google/protobuf/message_lite.h"
#include "grpcpp/support/status.h"

namespace dpq::server {

// The largest response the server may send (its max_message_bytes; set
// once by server::BuildAndStart, process-wide; default: no limit). A
// response above it would fail in gRPC after the handler returned OK
// ("Sent message larger than max"), so RequestLog::Finish refuses it
// first: the client and the log then see the same status.
void SetMaxResponseBytes(int64_t bytes);

class RequestLog {
 public:
  // `response` (optional, not owned, outliving Finish) is the message the
  // call answers with: an OK status whose response is larger than
  // SetMaxResponseBytes becomes RESOURCE_EXHAUSTED naming both sizes, so
  // the line records the status the client actually receives.
  explicit RequestLog(const char* rpc,
                      const google::protobuf::MessageLite* response = nullptr);
  void set_principal(std::string id) { principal_ = std::move(id); }
  void set_dataset(std::string id) { dataset_ = std::move(id); }
  void set_epsilon(double epsilon) { epsilon_ = epsilon; }
  // Releases only: the caller's request id, and once answered whether the
  // answer was the recorded one (`replayed=true`, nothing charged).
  void set_request_id(std::string id) { request_id_ = std::move(id); }
  void set_replayed(bool replayed) { replayed_ = replayed ? 1 : 0; }
  // Writes the line (to stderr, via the server's log sink), records the
  // RPC in the metrics (dpq_rpc_*, server/metrics/server_metrics.h; a no-op
  // without --metrics-listen) and returns `status` for the caller
  // (ToGrpcStatus, server/grpc_status.h), a server fault under the incident
  // id the line names.
  grpc::Status Finish(const absl::Status& status);

 private:
  const char* rpc_;
  const google::protobuf::MessageLite* response_;
  std::string principal_ = "-";
  std::string dataset_ = "-";
  double epsilon_ = 0;
  std::string request_id_;  // empty: not a release
  int replayed_ = -1;       // -1: no answer
  absl::Time start_;
};

}  // namespace dpq::server

#endif  // DPQ_SERVER_REQUEST_LOG_H_
