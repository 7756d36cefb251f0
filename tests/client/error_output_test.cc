#include "client/error_output.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::client {
namespace {

using ::dpq::core::util::ErrorDetails;

TEST(ErrorDetailLineTest, NamesReasonAmountsFieldsAndRetry) {
  ErrorDetails d;
  d.reason = "HEAVY_JOBS_BUSY";
  d.metadata = {{"limit", "max_heavy_jobs"}, {"limit_value", "2"}};
  d.retry_delay_ms = 1500;
  EXPECT_EQ(ErrorDetailLine(core::util::WithErrorDetails(
                absl::UnavailableError("busy"), d)),
            "dpq: HEAVY_JOBS_BUSY: limit=max_heavy_jobs limit_value=2 "
            "retry_after=1.5s");
  // Exact units are for scripts (--json); the decimals are for people.
  ErrorDetails amounts;
  amounts.reason = "NO_BUDGET_GRANTED";
  amounts.metadata = {{"dataset_id", "tax"},
                      {"requested_epsilon", "0.1"},
                      {"requested_epsilon_units", "100000000000"}};
  EXPECT_EQ(ErrorDetailLine(core::util::WithErrorDetails(
                absl::FailedPreconditionError("no grant"), amounts)),
            "dpq: NO_BUDGET_GRANTED: dataset_id=tax requested_epsilon=0.1");
}

TEST(ErrorDetailLineTest, NothingBeyondTheCodeIsNoLine) {
  EXPECT_EQ(ErrorDetailLine(absl::InternalError("x")), std::nullopt);
  // The message names the field already.
  EXPECT_EQ(ErrorDetailLine(
                core::util::InvalidFieldError("cuboids[0].dimensions", "bad")),
            std::nullopt);
  ErrorDetails d;
  d.reason = "PERMISSION_DENIED";
  EXPECT_EQ(ErrorDetailLine(core::util::WithErrorDetails(
                absl::PermissionDeniedError("x"), d)),
            std::nullopt);
}

TEST(ErrorDetailLineTest, IsTerminalSafe) {
  ErrorDetails d;
  d.reason = "X";
  d.metadata = {{"dataset_id", "a\x1b[2Jb"}};
  const std::optional<std::string> line = ErrorDetailLine(
      core::util::WithErrorDetails(absl::NotFoundError("x"), d));
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->find('\x1b'), std::string::npos);
}

TEST(ErrorJsonLineTest, HasEveryPart) {
  ErrorDetails d;
  d.reason = "DATASET_NOT_FOUND";
  d.metadata = {{"dataset_id", "tax"}};
  d.field_violations.push_back({"f", "g"});
  d.precondition_violations.push_back({"t", "s", "d"});
  d.resource = {"dpq.v1.Dataset", "tax", "none"};
  d.retry_delay_ms = 2000;
  d.incident_id = "inc-1";
  EXPECT_EQ(
      ErrorJsonLine(
          core::util::WithErrorDetails(absl::NotFoundError("no \"tax\""), d),
          ""),
      "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"no \\\"tax\\\"\","
      "\"reason\":\"DATASET_NOT_FOUND\",\"metadata\":{\"dataset_id\":\"tax\"},"
      "\"field_violations\":[{\"field\":\"f\",\"description\":\"g\"}],"
      "\"precondition_violations\":[{\"type\":\"t\",\"subject\":\"s\","
      "\"description\":\"d\"}],\"resource\":{\"resource_type\":"
      "\"dpq.v1.Dataset\",\"resource_name\":\"tax\",\"description\":"
      "\"none\"},\"retry_delay_ms\":2000,\"incident_id\":\"inc-1\"}}\n");
}

}  // namespace
}  // namespace dpq::client
