#include "server/http/grpc_forwarder.h"

#include <chrono>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "grpcpp/client_context.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/impl/codegen/proto_utils.h"

namespace dpq::server::http {
namespace {

using google::protobuf::Message;
// Requests and responses as protobuf messages of the route's types (the
// generated types, by descriptor), serialised by gRPC's protobuf traits.
using MessageStub = grpc::TemplatedGenericStub<Message, Message>;

void Prepare(const CallMetadata& metadata, grpc::ClientContext* context) {
  if (!metadata.authorization.empty()) {
    context->AddMetadata("authorization", metadata.authorization);
  }
  if (metadata.timeout.has_value()) {
    context->set_deadline(absl::ToChronoTime(absl::Now() + *metadata.timeout));
  }
}

// One operation at a time is in flight on a call's queue, so the next
// event is that operation's; its ok flag.
bool Await(grpc::CompletionQueue& queue) {
  void* tag = nullptr;
  bool ok = false;
  queue.Next(&tag, &ok);
  return ok;
}

void Drain(grpc::CompletionQueue& queue) {
  queue.Shutdown();
  void* tag = nullptr;
  bool ok = false;
  while (queue.Next(&tag, &ok)) {
  }
}

}  // namespace

grpc::Status GrpcForwarder::Unary(const std::string& grpc_method,
                                  const CallMetadata& metadata,
                                  const Message& request,
                                  Message* response) const {
  MessageStub stub(channel_);
  grpc::ClientContext context;
  Prepare(metadata, &context);
  grpc::CompletionQueue queue;
  grpc::Status status;
  {
    auto call = stub.PrepareUnaryCall(&context, grpc_method, request, &queue);
    call->StartCall();
    call->Finish(response, &status, nullptr);
    Await(queue);
  }
  Drain(queue);
  return status;
}

std::unique_ptr<StreamingCall> GrpcForwarder::StartStream(
    const std::string& grpc_method, const CallMetadata& metadata) const {
  return std::make_unique<StreamingCall>(channel_, grpc_method, metadata);
}

StreamingCall::StreamingCall(std::shared_ptr<grpc::Channel> channel,
                             const std::string& grpc_method,
                             const CallMetadata& metadata) {
  Prepare(metadata, &context_);
  MessageStub stub(std::move(channel));
  call_ = stub.PrepareCall(&context_, grpc_method, &queue_);
  call_->StartCall(nullptr);
  open_ = Await(queue_);
}

bool StreamingCall::Write(const Message& message) {
  if (!open_) return false;
  call_->Write(message, nullptr);
  open_ = Await(queue_);
  return open_;
}

grpc::Status StreamingCall::Finish(Message* response) {
  if (open_) {
    call_->WritesDone(nullptr);
    Await(queue_);
    // The one response; none if the server failed the call.
    call_->Read(response, nullptr);
    Await(queue_);
  }
  grpc::Status status;
  call_->Finish(&status, nullptr);
  Await(queue_);
  finished_ = true;
  return status;
}

void StreamingCall::Cancel() {
  context_.TryCancel();
  open_ = false;
}

StreamingCall::~StreamingCall() {
  if (!finished_) {
    context_.TryCancel();
    grpc::Status ignored;
    call_->Finish(&ignored, nullptr);
    Await(queue_);
  }
  call_.reset();
  Drain(queue_);
}

std::optional<absl::Duration> ParseGrpcTimeout(const std::string& value) {
  if (value.size() < 2 || value.size() > 9) return std::nullopt;
  int64_t amount = 0;
  const std::string digits = value.substr(0, value.size() - 1);
  for (char c : digits) {
    if (!absl::ascii_isdigit(c)) return std::nullopt;
  }
  if (!absl::SimpleAtoi(digits, &amount)) return std::nullopt;
  switch (value.back()) {
    case 'H':
      return absl::Hours(amount);
    case 'M':
      return absl::Minutes(amount);
    case 'S':
      return absl::Seconds(amount);
    case 'm':
      return absl::Milliseconds(amount);
    case 'u':
      return absl::Microseconds(amount);
    case 'n':
      return absl::Nanoseconds(amount);
    default:
      return std::nullopt;
  }
}

}  // namespace dpq::server::http
