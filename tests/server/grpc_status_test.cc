#include "server/grpc_status.h"

#include <string>

#include "absl/status/status.h"
#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

using ::dpq::core::util::ErrorDetails;
using ::testing::HasSubstr;
using ::testing::Not;

// The google.rpc.Status a client reads from the trailer.
google::rpc::Status Rich(const grpc::Status& status) {
  google::rpc::Status rich;
  EXPECT_TRUE(rich.ParseFromString(status.error_details()));
  EXPECT_EQ(rich.code(), static_cast<int>(status.error_code()));
  EXPECT_EQ(rich.message(), status.error_message());
  return rich;
}

template <typename Detail>
bool Find(const google::rpc::Status& rich, Detail* detail) {
  for (const auto& any : rich.details()) {
    if (any.UnpackTo(detail)) return true;
  }
  return false;
}

TEST(GrpcStatusTest, OkIsOkWithoutDetails) {
  const grpc::Status status = ToGrpcStatus(absl::OkStatus());
  EXPECT_TRUE(status.ok());
  EXPECT_TRUE(status.error_details().empty());
}

TEST(GrpcStatusTest, EveryErrorHasAnErrorInfo) {
  const grpc::Status status =
      ToGrpcStatus(absl::PermissionDeniedError("admins only"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(), "admins only");
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(Find(Rich(status), &info));
  EXPECT_EQ(info.reason(), "PERMISSION_DENIED");
  EXPECT_EQ(info.domain(), "dpq.v1");
}

TEST(GrpcStatusTest, CarriesEveryAttachedDetail) {
  ErrorDetails d;
  d.reason = "BUDGET_EXHAUSTED";
  d.metadata["dataset_id"] = "tax";
  d.metadata["remaining_epsilon"] = "0.3";
  d.quota_violations.push_back({"buyer:alice/dataset:tax", "remaining 0.3"});
  d.precondition_violations.push_back({"T", "S", "D"});
  d.field_violations.push_back({"epsilon", "too small"});
  d.resource = {"dpq.v1.Dataset", "tax", "gone"};
  d.retry_delay_ms = 2500;
  const grpc::Status status = ToGrpcStatus(core::util::WithErrorDetails(
      absl::ResourceExhaustedError("Budget exhausted."), d));
  const google::rpc::Status rich = Rich(status);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(Find(rich, &info));
  EXPECT_EQ(info.reason(), "BUDGET_EXHAUSTED");
  EXPECT_EQ(info.metadata().at("dataset_id"), "tax");
  EXPECT_EQ(info.metadata().at("remaining_epsilon"), "0.3");
  google::rpc::QuotaFailure quota;
  ASSERT_TRUE(Find(rich, &quota));
  EXPECT_EQ(quota.violations(0).subject(), "buyer:alice/dataset:tax");
  google::rpc::PreconditionFailure precondition;
  ASSERT_TRUE(Find(rich, &precondition));
  EXPECT_EQ(precondition.violations(0).type(), "T");
  google::rpc::BadRequest bad;
  ASSERT_TRUE(Find(rich, &bad));
  EXPECT_EQ(bad.field_violations(0).field(), "epsilon");
  google::rpc::ResourceInfo resource;
  ASSERT_TRUE(Find(rich, &resource));
  EXPECT_EQ(resource.resource_name(), "tax");
  google::rpc::RetryInfo retry;
  ASSERT_TRUE(Find(rich, &retry));
  EXPECT_EQ(retry.retry_delay().seconds(), 2);
  EXPECT_EQ(retry.retry_delay().nanos(), 500'000'000);
  google::rpc::RequestInfo request;
  EXPECT_FALSE(Find(rich, &request));
}

TEST(GrpcStatusTest, UnavailableAlwaysSaysWhenToRetry) {
  google::rpc::RetryInfo retry;
  ASSERT_TRUE(
      Find(Rich(ToGrpcStatus(absl::UnavailableError("db down"))), &retry));
  EXPECT_EQ(retry.retry_delay().seconds() * 1000 +
                retry.retry_delay().nanos() / 1'000'000,
            kDefaultRetryDelayMs);
}

TEST(GrpcStatusTest, ServerFaultsShowOnlyAnIncident) {
  ErrorDetails d;
  d.reason = "SOMETHING";
  d.metadata["path"] = "/var/lib/dpq/secret";
  for (const absl::StatusCode code :
       {absl::StatusCode::kInternal, absl::StatusCode::kUnknown,
        absl::StatusCode::kDataLoss}) {
    const grpc::Status status = ToGrpcStatus(
        core::util::WithErrorDetails(
            absl::Status(code, "SQLite error: disk I/O error at /var/lib"), d),
        "inc-0011223344556677");
    EXPECT_EQ(status.error_message(),
              "internal error (incident inc-0011223344556677); the server "
              "log has the details");
    const google::rpc::Status rich = Rich(status);
    google::rpc::ErrorInfo info;
    ASSERT_TRUE(Find(rich, &info));
    EXPECT_EQ(info.reason(), "SOMETHING");
    EXPECT_TRUE(info.metadata().empty());
    google::rpc::RequestInfo request;
    ASSERT_TRUE(Find(rich, &request));
    EXPECT_EQ(request.request_id(), "inc-0011223344556677");
    EXPECT_THAT(status.error_details(), Not(HasSubstr("/var/lib")));
  }
  // Without an id, a fresh one.
  const grpc::Status fresh = ToGrpcStatus(absl::InternalError("x"));
  EXPECT_THAT(fresh.error_message(), HasSubstr("(incident inc-"));
}

TEST(GrpcStatusTest, AServerFaultAfterAChargeStillSaysTheChargeStands) {
  ErrorDetails d;
  d.metadata["charge_stands"] = "true";
  d.metadata["request_id"] = "q1";
  d.metadata["charged_epsilon"] = "0.5";
  const grpc::Status status = ToGrpcStatus(
      core::util::WithErrorDetails(absl::InternalError("GLPK failed"), d),
      "inc-0011223344556677");
  EXPECT_EQ(status.error_message(),
            "internal error (incident inc-0011223344556677); the server log "
            "has the details. The charge of epsilon 0.5 for request_id 'q1' "
            "stands: retry with the same request_id to receive the answer "
            "without a further charge.");
  // Without the marker, the incident alone.
  d.metadata.erase("charge_stands");
  EXPECT_THAT(ToGrpcStatus(core::util::WithErrorDetails(
                               absl::InternalError("GLPK failed"), d))
                  .error_message(),
              Not(HasSubstr("stands")));
}

TEST(GrpcStatusTest, MessageAndDetailsAreBounded) {
  const std::string huge(100'000, 'x');
  ErrorDetails d;
  d.reason = "INVALID_ARGUMENT";
  for (int i = 0; i < 100; ++i) {
    d.metadata["key" + std::to_string(i)] = huge;
    d.field_violations.push_back({huge, huge});
  }
  const grpc::Status status = ToGrpcStatus(
      core::util::WithErrorDetails(absl::InvalidArgumentError(huge), d));
  EXPECT_EQ(status.error_message().size(), kMaxMessageBytes);
  EXPECT_THAT(status.error_message(), testing::EndsWith("..."));
  EXPECT_LE(status.error_details().size(), kMaxDetailsBytes + 2048);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(Find(Rich(status), &info));
  EXPECT_EQ(info.reason(), "INVALID_ARGUMENT");
}

TEST(GrpcStatusTest, DetailsAreValidUtf8) {
  ErrorDetails d;
  d.metadata["k"] = "bad \xff byte";
  // A message cut inside a two-byte character.
  const std::string message =
      std::string(kMaxMessageBytes - 4, 'a') + "\xc3\xa9\xc3\xa9";
  const grpc::Status status = ToGrpcStatus(
      core::util::WithErrorDetails(absl::InvalidArgumentError(message), d));
  google::rpc::Status rich;
  ASSERT_TRUE(rich.ParseFromString(status.error_details()));
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(Find(rich, &info));
  EXPECT_EQ(info.metadata().at("k"), "bad \xef\xbf\xbd byte");
  EXPECT_LE(rich.message().size(), kMaxMessageBytes);
}

}  // namespace
}  // namespace dpq::server
