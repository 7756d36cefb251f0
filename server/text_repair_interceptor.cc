#include "server/text_repair_interceptor.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/util/diagnostic_log.h"
#include "google/protobuf/message.h"
#include "server/proto_text.h"

namespace dpq::server {
namespace {

class TextRepairInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit TextRepairInterceptor(std::string method)
      : method_(std::move(method)) {}

  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      Repair(methods);
    }
    methods->Proceed();
  }

 private:
  void Repair(grpc::experimental::InterceptorBatchMethods* methods) {
    // Every dpq.v1 method sends a protobuf message (see the factory).
    const auto* message = static_cast<const google::protobuf::Message*>(
        methods->GetSendMessage());
    if (message == nullptr || !HasInvalidUtf8(*message)) return;
    std::unique_ptr<google::protobuf::Message> copy(message->New());
    copy->CopyFrom(*message);
    const int fields = RepairInvalidUtf8(copy.get());
    if (fields == 0) return;
    core::util::LogWarning(absl::StrCat(
        method_, ": ", fields,
        " string field(s) of the response held invalid UTF-8 (a dataset "
        "stored before the text contract?); sent with U+FFFD instead."));
    repaired_ = std::move(copy);
    // The repaired copy lives as long as this interceptor, i.e. the call.
    methods->ModifySendMessage(repaired_.get());
  }

  const std::string method_;
  std::unique_ptr<google::protobuf::Message> repaired_;
};

}  // namespace

grpc::experimental::Interceptor*
TextRepairInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  if (info == nullptr || info->method() == nullptr ||
      !absl::StartsWith(info->method(), "/dpq.v1.")) {
    return nullptr;
  }
  return new TextRepairInterceptor(info->method());
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
MakeTextRepairInterceptorFactory() {
  return std::make_unique<TextRepairInterceptorFactory>();
}

}  // namespace dpq::server
