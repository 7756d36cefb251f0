#include "server/request_log.h"

#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "dpq/v1/buyer_service.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string LineFor(const absl::Status& status, grpc::Status* sent = nullptr) {
  ::testing::internal::CaptureStderr();
  RequestLog log("BuyerService.MeasureInconsistency");
  log.set_principal("alice");
  log.set_dataset("hospital");
  log.set_epsilon(0.5);
  const grpc::Status finished = log.Finish(status);
  EXPECT_EQ(static_cast<int>(finished.error_code()),
            static_cast<int>(status.code()));
  if (sent != nullptr) *sent = finished;
  return ::testing::internal::GetCapturedStderr();
}

TEST(RequestLogTest, ServerSideFailuresCarryTheirCauseOnOneLine) {
  grpc::Status sent;
  const std::string line = LineFor(
      absl::InternalError("ledger: disk I/O error\nforged=line"), &sent);
  EXPECT_THAT(line, HasSubstr("rpc=BuyerService.MeasureInconsistency "
                              "principal=alice dataset=hospital epsilon=0.5 "
                              "status=INTERNAL"));
  EXPECT_THAT(line,
              HasSubstr("message=\"ledger: disk I/O error\\nforged=line\""));
  // One line: the message's line break is escaped.
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  // The caller reads only the incident id the line names.
  EXPECT_THAT(sent.error_message(), Not(HasSubstr("disk")));
  const std::string incident =
      sent.error_message().substr(sent.error_message().find("inc-"), 20);
  EXPECT_EQ(sent.error_message(), "internal error (incident " + incident +
                                      "); the server log has the details");
  EXPECT_THAT(line, HasSubstr("incident=" + incident + " message="));
  EXPECT_THAT(LineFor(absl::DataLossError("torn")),
              HasSubstr("status=DATA_LOSS latency_ms="));
  EXPECT_THAT(LineFor(absl::UnknownError("why")), HasSubstr("message=\"why\""));
}

TEST(RequestLogTest, LogsALongServerFaultWhole) {
  const std::string text(3000, 'x');
  EXPECT_THAT(LineFor(absl::InternalError(text)),
              HasSubstr("message=\"" + text + "\""));
}

TEST(RequestLogTest, CallerErrorsAndSuccessLogNoMessage) {
  // A caller's error may quote the caller's input: not logged.
  EXPECT_THAT(LineFor(absl::InvalidArgumentError("column 'secret' unknown")),
              Not(HasSubstr("message=")));
  EXPECT_THAT(LineFor(absl::OkStatus()), Not(HasSubstr("message=")));
}

// A release's line names its request id and whether the answer was a
// replay, so that it joins with what the client saw; the id is escaped
// like every field.
TEST(RequestLogTest, ReleasesCarryTheirRequestIdAndReplayFlag) {
  const auto line = [](const char* id, int replayed, const absl::Status& s) {
    ::testing::internal::CaptureStderr();
    RequestLog log("BuyerService.MeasureInconsistency");
    log.set_epsilon(0.5);
    log.set_request_id(id);
    if (replayed >= 0) log.set_replayed(replayed == 1);
    (void)log.Finish(s);
    return ::testing::internal::GetCapturedStderr();
  };
  EXPECT_THAT(line("r-1", 0, absl::OkStatus()),
              HasSubstr("epsilon=0.5 request_id=r-1 replayed=false status=OK"));
  EXPECT_THAT(line("r-1", 1, absl::OkStatus()),
              HasSubstr("request_id=r-1 replayed=true status=OK"));
  EXPECT_THAT(line("r-2", -1, absl::InvalidArgumentError("no")),
              HasSubstr("request_id=r-2 replayed=- status=INVALID_ARGUMENT"));
  const std::string forged = line("x\nrpc=forged", 0, absl::OkStatus());
  EXPECT_EQ(forged.find('\n'), forged.size() - 1);
  EXPECT_THAT(forged, HasSubstr("request_id=x\\nrpc=forged"));
  // Not a release: no such fields.
  EXPECT_THAT(LineFor(absl::OkStatus()), Not(HasSubstr("request_id=")));
}

// A response gRPC would refuse to send after an OK ("Sent message larger
// than max") is refused by Finish: the client and the line see the same
// RESOURCE_EXHAUSTED, naming both sizes; a response within the limit, or
// an error, is unchanged.
TEST(RequestLogTest, AnOversizedAnswerIsLoggedAsTheStatusSent) {
  SetMaxResponseBytes(64);
  v1::ListDatasetsResponse big;
  big.add_datasets()->set_description(std::string(100, 'x'));
  ::testing::internal::CaptureStderr();
  RequestLog log("BuyerService.ListDatasets", &big);
  const grpc::Status status = log.Finish(absl::OkStatus());
  const std::string line = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(),
              HasSubstr("more than the server's max_message_bytes (64)"));
  EXPECT_THAT(line, HasSubstr("status=RESOURCE_EXHAUSTED"));
  v1::ListDatasetsResponse small;
  ::testing::internal::CaptureStderr();
  RequestLog fits("BuyerService.ListDatasets", &small);
  EXPECT_TRUE(fits.Finish(absl::OkStatus()).ok());
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("status=OK"));
  ::testing::internal::CaptureStderr();
  RequestLog failed("BuyerService.ListDatasets", &big);
  EXPECT_EQ(failed.Finish(absl::NotFoundError("no")).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ::testing::internal::GetCapturedStderr();
  SetMaxResponseBytes(INT64_MAX);
}

}  // namespace
}  // namespace dpq::server
