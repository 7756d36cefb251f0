#include "client/grpc_status.h"

#include <optional>
#include <string>
#include <vector>

#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::Eq;
using ::testing::HasSubstr;

struct CodePair {
  grpc::StatusCode grpc_code;
  absl::StatusCode absl_code;
  const char* name;
};

const std::vector<CodePair>& AllCodes() {
  static const auto* const kCodes = new std::vector<CodePair>{
      {grpc::StatusCode::CANCELLED, absl::StatusCode::kCancelled, "CANCELLED"},
      {grpc::StatusCode::UNKNOWN, absl::StatusCode::kUnknown, "UNKNOWN"},
      {grpc::StatusCode::INVALID_ARGUMENT, absl::StatusCode::kInvalidArgument,
       "INVALID_ARGUMENT"},
      {grpc::StatusCode::DEADLINE_EXCEEDED, absl::StatusCode::kDeadlineExceeded,
       "DEADLINE_EXCEEDED"},
      {grpc::StatusCode::NOT_FOUND, absl::StatusCode::kNotFound, "NOT_FOUND"},
      {grpc::StatusCode::ALREADY_EXISTS, absl::StatusCode::kAlreadyExists,
       "ALREADY_EXISTS"},
      {grpc::StatusCode::PERMISSION_DENIED, absl::StatusCode::kPermissionDenied,
       "PERMISSION_DENIED"},
      {grpc::StatusCode::UNAUTHENTICATED, absl::StatusCode::kUnauthenticated,
       "UNAUTHENTICATED"},
      {grpc::StatusCode::RESOURCE_EXHAUSTED,
       absl::StatusCode::kResourceExhausted, "RESOURCE_EXHAUSTED"},
      {grpc::StatusCode::FAILED_PRECONDITION,
       absl::StatusCode::kFailedPrecondition, "FAILED_PRECONDITION"},
      {grpc::StatusCode::ABORTED, absl::StatusCode::kAborted, "ABORTED"},
      {grpc::StatusCode::OUT_OF_RANGE, absl::StatusCode::kOutOfRange,
       "OUT_OF_RANGE"},
      {grpc::StatusCode::UNIMPLEMENTED, absl::StatusCode::kUnimplemented,
       "UNIMPLEMENTED"},
      {grpc::StatusCode::INTERNAL, absl::StatusCode::kInternal, "INTERNAL"},
      {grpc::StatusCode::UNAVAILABLE, absl::StatusCode::kUnavailable,
       "UNAVAILABLE"},
      {grpc::StatusCode::DATA_LOSS, absl::StatusCode::kDataLoss, "DATA_LOSS"},
  };
  return *kCodes;
}

TEST(FromGrpcStatusTest, OkMapsToOk) {
  EXPECT_THAT(FromGrpcStatus(grpc::Status::OK), IsOk());
}

TEST(FromGrpcStatusTest, EveryCodeKeepsCodeAndMessage) {
  ASSERT_EQ(AllCodes().size(), 16u);  // every non-OK gRPC code
  for (const CodePair& pair : AllCodes()) {
    SCOPED_TRACE(pair.name);
    const std::string message = std::string("message for ") + pair.name;
    EXPECT_THAT(FromGrpcStatus(grpc::Status(pair.grpc_code, message)),
                StatusIs(pair.absl_code, Eq(message)));
  }
}

TEST(FromGrpcStatusTest, UnknownNumericCodeMapsToUnknown) {
  // 20 is no grpc::StatusCode enumerator but lies inside the enum's value
  // range (-32..31: the enumerators -1..16 need 5 bits plus a sign), so the
  // cast is defined behaviour; 99 would be UB (UBSan reports it).
  const grpc::Status odd(static_cast<grpc::StatusCode>(20), "from the future");
  EXPECT_THAT(FromGrpcStatus(odd),
              StatusIs(absl::StatusCode::kUnknown, Eq("from the future")));
}

TEST(FromGrpcStatusTest, UnparsableUnaryReplyIsNotCalledUnimplemented) {
  // gRPC's blocking unary call turns an OK reply that does not parse (e.g.
  // a string field with invalid UTF-8) into this UNIMPLEMENTED status.
  EXPECT_THAT(
      FromGrpcStatus(grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                                  "No message returned for unary request")),
      StatusIs(absl::StatusCode::kInternal,
               HasSubstr("its answer could not be parsed (for example, a text "
                         "field that is not valid UTF-8)")));
  // A server's own UNIMPLEMENTED is kept.
  EXPECT_THAT(FromGrpcStatus(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "")),
              StatusIs(absl::StatusCode::kUnimplemented, Eq("")));
}

TEST(StatusCodeNameTest, NamesAreTheCanonicalUpperCaseNames) {
  for (const CodePair& pair : AllCodes()) {
    EXPECT_EQ(StatusCodeName(pair.absl_code), pair.name);
  }
}

TEST(ErrorLineTest, IsOneLineWithCodeAndMessage) {
  EXPECT_EQ(ErrorLine(absl::ResourceExhaustedError(
                "Budget exhausted: remaining 0.5")),
            "dpq: RESOURCE_EXHAUSTED: Budget exhausted: remaining 0.5");
  EXPECT_EQ(ErrorLine(absl::InvalidArgumentError("line 1\nline 2\r\nline 3")),
            "dpq: INVALID_ARGUMENT: line 1 line 2 line 3");
  EXPECT_EQ(ErrorLine(absl::UnknownError("")), "dpq: UNKNOWN: (no message)");
}

TEST(ErrorLineTest, EscapesWhatATerminalWouldActOn) {
  // Server messages may quote owner text (a dataset id, a column name).
  EXPECT_EQ(ErrorLine(absl::NotFoundError(
                "No column '\x1b[2J\x1b]0;x\x07' in d\xc2\x9b\xff\t")),
            "dpq: NOT_FOUND: No column '\\x1b[2J\\x1b]0;x\\x07' in "
            "d\\u009b\\xff\\t");
}

// Every detail the server sends (docs/errors.md) arrives as
// core::util::ErrorDetails; a trailer that does not parse is ignored.
TEST(FromGrpcStatusTest, ReadsTheRichErrorDetails) {
  google::rpc::Status rich;
  rich.set_code(grpc::StatusCode::UNAVAILABLE);
  google::rpc::ErrorInfo info;
  info.set_reason("HEAVY_JOBS_BUSY");
  info.set_domain("dpq.v1");
  (*info.mutable_metadata())["limit"] = "max_heavy_jobs";
  rich.add_details()->PackFrom(info);
  google::rpc::BadRequest bad;
  auto* field = bad.add_field_violations();
  field->set_field("epsilon");
  field->set_description("too small");
  rich.add_details()->PackFrom(bad);
  google::rpc::PreconditionFailure precondition;
  auto* p = precondition.add_violations();
  p->set_type("T");
  p->set_subject("S");
  p->set_description("D");
  rich.add_details()->PackFrom(precondition);
  google::rpc::QuotaFailure quota;
  quota.add_violations()->set_subject("dataset:tax");
  rich.add_details()->PackFrom(quota);
  google::rpc::ResourceInfo resource;
  resource.set_resource_type("dpq.v1.Dataset");
  resource.set_resource_name("tax");
  rich.add_details()->PackFrom(resource);
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_seconds(5);
  retry.mutable_retry_delay()->set_nanos(250'000'000);
  rich.add_details()->PackFrom(retry);
  google::rpc::RequestInfo request;
  request.set_request_id("inc-1");
  rich.add_details()->PackFrom(request);

  const absl::Status status = FromGrpcStatus(grpc::Status(
      grpc::StatusCode::UNAVAILABLE, "busy", rich.SerializeAsString()));
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kUnavailable, Eq("busy")));
  const std::optional<core::util::ErrorDetails> d =
      core::util::GetErrorDetails(status);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->reason, "HEAVY_JOBS_BUSY");
  EXPECT_EQ(d->metadata.at("limit"), "max_heavy_jobs");
  ASSERT_EQ(d->field_violations.size(), 1u);
  EXPECT_EQ(d->field_violations[0].field, "epsilon");
  ASSERT_EQ(d->precondition_violations.size(), 1u);
  EXPECT_EQ(d->precondition_violations[0].subject, "S");
  ASSERT_EQ(d->quota_violations.size(), 1u);
  EXPECT_EQ(d->quota_violations[0].subject, "dataset:tax");
  EXPECT_EQ(d->resource.resource_name, "tax");
  EXPECT_EQ(d->retry_delay_ms, 5250);
  EXPECT_EQ(d->incident_id, "inc-1");

  const absl::Status garbage = FromGrpcStatus(
      grpc::Status(grpc::StatusCode::INTERNAL, "x", "\xff\xff not a proto"));
  EXPECT_THAT(garbage, StatusIs(absl::StatusCode::kInternal, Eq("x")));
  EXPECT_FALSE(core::util::GetErrorDetails(garbage).has_value());
  EXPECT_FALSE(
      core::util::GetErrorDetails(
          FromGrpcStatus(grpc::Status(grpc::StatusCode::INTERNAL, "x")))
          .has_value());
}

}  // namespace
}  // namespace dpq::client
