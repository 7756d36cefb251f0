#include "server/request_log.h"

#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string LineFor(const grpc::Status& status) {
  ::testing::internal::CaptureStderr();
  RequestLog log("BuyerService.MeasureInconsistency");
  log.set_principal("alice");
  log.set_dataset("hospital");
  log.set_epsilon(0.5);
  EXPECT_EQ(log.Finish(status).error_code(), status.error_code());
  return ::testing::internal::GetCapturedStderr();
}

TEST(RequestLogTest, ServerSideFailuresCarryTheirCauseOnOneLine) {
  const std::string line = LineFor(grpc::Status(
      grpc::StatusCode::INTERNAL, "ledger: disk I/O error\nforged=line"));
  EXPECT_THAT(line, HasSubstr("rpc=BuyerService.MeasureInconsistency "
                              "principal=alice dataset=hospital epsilon=0.5 "
                              "status=INTERNAL"));
  EXPECT_THAT(line,
              HasSubstr("message=\"ledger: disk I/O error\\nforged=line\""));
  // One line: the message's line break is escaped.
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_THAT(LineFor(grpc::Status(grpc::StatusCode::DATA_LOSS, "torn")),
              HasSubstr("status=DATA_LOSS latency_ms="));
  EXPECT_THAT(LineFor(grpc::Status(grpc::StatusCode::UNKNOWN, "why")),
              HasSubstr("message=\"why\""));
}

TEST(RequestLogTest, CallerErrorsAndSuccessLogNoMessage) {
  // A caller's error may quote the caller's input: not logged.
  EXPECT_THAT(LineFor(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   "column 'secret' unknown")),
              Not(HasSubstr("message=")));
  EXPECT_THAT(LineFor(grpc::Status::OK), Not(HasSubstr("message=")));
}

}  // namespace
}  // namespace dpq::server
