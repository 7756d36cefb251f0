#include "server/http/http_error.h"

#include "dpq/v1/buyer_service.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace dpq::server::http {
namespace {

using ::testing::HasSubstr;

google::protobuf::Struct Parse(const std::string& json) {
  google::protobuf::Struct parsed;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &parsed).ok())
      << json;
  return parsed;
}

TEST(HttpErrorTest, CodesMapAsGoogleRpcCodeSays) {
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::OK), 200);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::INVALID_ARGUMENT), 400);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::FAILED_PRECONDITION), 400);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::OUT_OF_RANGE), 400);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::UNAUTHENTICATED), 401);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::PERMISSION_DENIED), 403);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::NOT_FOUND), 404);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::ALREADY_EXISTS), 409);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::ABORTED), 409);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::RESOURCE_EXHAUSTED), 429);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::CANCELLED), 499);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::UNKNOWN), 500);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::INTERNAL), 500);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::DATA_LOSS), 500);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::UNIMPLEMENTED), 501);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::UNAVAILABLE), 503);
  EXPECT_EQ(HttpStatusOf(grpc::StatusCode::DEADLINE_EXCEEDED), 504);
  EXPECT_EQ(CodeName(grpc::StatusCode::UNAUTHENTICATED), "UNAUTHENTICATED");
  EXPECT_EQ(CodeName(grpc::StatusCode::RESOURCE_EXHAUSTED),
            "RESOURCE_EXHAUSTED");
  EXPECT_EQ(CodeName(static_cast<grpc::StatusCode>(99)), "UNKNOWN");
}

TEST(HttpErrorTest, RichDetailsBecomeJson) {
  google::rpc::Status rich;
  rich.set_code(8);
  rich.set_message("Budget exhausted.");
  google::rpc::ErrorInfo info;
  info.set_reason("BUDGET_EXHAUSTED");
  info.set_domain("dpq.v1");
  (*info.mutable_metadata())["remaining_epsilon"] = "0.5";
  rich.add_details()->PackFrom(info);
  const grpc::Status status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                            "Budget exhausted.", rich.SerializeAsString());
  const HttpError error = ErrorOf(status);
  EXPECT_EQ(error.http_status, 429);
  const google::protobuf::Struct body = Parse(error.json);
  const auto& fields = body.fields().at("error").struct_value().fields();
  EXPECT_EQ(fields.at("code").number_value(), 429);
  EXPECT_EQ(fields.at("status").string_value(), "RESOURCE_EXHAUSTED");
  EXPECT_EQ(fields.at("message").string_value(), "Budget exhausted.");
  const auto& details = fields.at("details").list_value();
  ASSERT_EQ(details.values_size(), 1);
  const auto& detail = details.values(0).struct_value().fields();
  EXPECT_EQ(detail.at("@type").string_value(),
            "type.googleapis.com/google.rpc.ErrorInfo");
  EXPECT_EQ(detail.at("reason").string_value(), "BUDGET_EXHAUSTED");
  EXPECT_EQ(detail.at("metadata")
                .struct_value()
                .fields()
                .at("remaining_epsilon")
                .string_value(),
            "0.5");
}

TEST(HttpErrorTest, StatusWithoutDetailsAndOwnErrors) {
  const HttpError plain =
      ErrorOf(grpc::Status(grpc::StatusCode::NOT_FOUND, "No \"x\"."));
  EXPECT_EQ(plain.http_status, 404);
  EXPECT_THAT(plain.json, HasSubstr(R"("message":"No \"x\".")"));
  EXPECT_THAT(plain.json, HasSubstr(R"("details":[])"));
  const HttpError garbage = ErrorOf(
      grpc::Status(grpc::StatusCode::INTERNAL, "Broken.", "not a status"));
  EXPECT_EQ(garbage.http_status, 500);
  EXPECT_THAT(garbage.json, HasSubstr(R"("details":[])"));
  const HttpError large =
      ErrorOf(absl::StatusCode::kResourceExhausted, "Too large.", 413);
  EXPECT_EQ(large.http_status, 413);
  EXPECT_THAT(large.json, HasSubstr(R"("code":413)"));
  EXPECT_THAT(large.json, HasSubstr(R"("status":"RESOURCE_EXHAUSTED")"));
}

}  // namespace
}  // namespace dpq::server::http
