// Calls dpq-server's own gRPC services for the HTTP listener, through the
// server's in-process channel (grpc::Server::InProcessChannel): the same
// handlers, interceptors, bearer-token check, limits, request log and
// ledger as a call over the network, with nothing re-implemented for
// HTTP. Methods are called by name with the generic stub, so one
// forwarder serves every route.
#ifndef DPQ_SERVER_HTTP_GRPC_FORWARDER_H_
#define DPQ_SERVER_HTTP_GRPC_FORWARDER_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_stream.h"
#include "grpcpp/support/status.h"

namespace dpq::server::http {

// What an HTTP request passes on to the call.
struct CallMetadata {
  // The Authorization header as sent ("Bearer <token>"); "" for none.
  std::string authorization;
  // From the Grpc-Timeout header, as grpc-gateway reads it; none: no
  // deadline beyond the server's own.
  std::optional<absl::Duration> timeout;
};

class GrpcForwarder {
 public:
  explicit GrpcForwarder(std::shared_ptr<grpc::Channel> channel)
      : channel_(std::move(channel)) {}

  // One unary call of `grpc_method` ("/dpq.v1.BuyerService/GetBudget").
  grpc::Status Unary(const std::string& grpc_method,
                     const CallMetadata& metadata,
                     const google::protobuf::Message& request,
                     google::protobuf::Message* response) const;

  // Starts one client-streaming call of `grpc_method`; see StreamingCall.
  std::unique_ptr<class StreamingCall> StartStream(
      const std::string& grpc_method, const CallMetadata& metadata) const;

 private:
  std::shared_ptr<grpc::Channel> channel_;
};

// One client-streaming call in progress: its messages are written as the
// HTTP body arrives, then the one response is read. Not thread-safe (one
// HTTP request's thread uses it).
class StreamingCall {
 public:
  StreamingCall(std::shared_ptr<grpc::Channel> channel,
                const std::string& grpc_method, const CallMetadata& metadata);
  // Cancels the call if it was not finished.
  ~StreamingCall();
  StreamingCall(const StreamingCall&) = delete;
  StreamingCall& operator=(const StreamingCall&) = delete;

  // Sends one message; false once the server has ended the call (a bad
  // header, say): Finish then says why.
  bool Write(const google::protobuf::Message& message);
  // Ends the stream and reads the response (none if the call failed).
  grpc::Status Finish(google::protobuf::Message* response);
  // Cancels the call (the client's body was bad); Finish is then not
  // needed.
  void Cancel();

 private:
  grpc::ClientContext context_;
  grpc::CompletionQueue queue_;
  std::unique_ptr<grpc::ClientAsyncReaderWriter<google::protobuf::Message,
                                                google::protobuf::Message>>
      call_;
  bool open_ = false;
  bool finished_ = false;
};

// The duration of a Grpc-Timeout header value ("10S", "500m", "1H"; gRPC's
// wire format: 1-8 digits and one of H M S m u n), or nullopt.
std::optional<absl::Duration> ParseGrpcTimeout(const std::string& value);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_GRPC_FORWARDER_H_
