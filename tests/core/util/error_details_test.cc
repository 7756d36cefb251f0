#include "core/util/error_details.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

// Every part filled, with bytes the encoding itself uses (':' and digits)
// and a NUL inside the strings.
ErrorDetails FullDetails() {
  ErrorDetails d;
  d.reason = "BUDGET_EXHAUSTED";
  d.metadata["dataset_id"] = "tax:2";
  d.metadata["remaining_epsilon"] = "0.25";
  d.metadata[std::string("odd\0key", 7)] = "12:34";
  d.quota_violations.push_back({"buyer:alice/dataset:tax", "remaining 0.25"});
  d.field_violations.push_back({"cuboids[1].dimensions", "3:bad"});
  d.field_violations.push_back({"epsilon", ""});
  d.precondition_violations.push_back(
      {"BUDGET_GRANT", "buyer:alice/dataset:tax", "nothing was granted"});
  d.resource = {"dpq.v1.Dataset", "tax", "no such dataset"};
  d.retry_delay_ms = 1500;
  d.incident_id = "inc-0123456789abcdef";
  return d;
}

TEST(ErrorDetailsTest, RoundTripsEveryPart) {
  const ErrorDetails details = FullDetails();
  const absl::Status status = WithErrorDetails(
      absl::ResourceExhaustedError("Budget exhausted."), details);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(status.message(), "Budget exhausted.");
  const std::optional<ErrorDetails> read = GetErrorDetails(status);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(*read, details);
}

TEST(ErrorDetailsTest, RoundTripsEmptyDetails) {
  const absl::Status status =
      WithErrorDetails(absl::InternalError("x"), ErrorDetails{});
  const std::optional<ErrorDetails> read = GetErrorDetails(status);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(*read, ErrorDetails{});
}

TEST(ErrorDetailsTest, LaterDetailsReplaceEarlierOnes) {
  ErrorDetails first;
  first.reason = "FIRST";
  ErrorDetails second;
  second.reason = "SECOND";
  const absl::Status status = WithErrorDetails(
      WithErrorDetails(absl::AbortedError("x"), first), second);
  ASSERT_TRUE(GetErrorDetails(status).has_value());
  EXPECT_EQ(GetErrorDetails(status)->reason, "SECOND");
}

TEST(ErrorDetailsTest, NoDetailsIsNullopt) {
  EXPECT_FALSE(GetErrorDetails(absl::InternalError("x")).has_value());
  EXPECT_FALSE(GetErrorDetails(absl::OkStatus()).has_value());
}

TEST(ErrorDetailsTest, OkStaysOkWithoutPayload) {
  const absl::Status status = WithErrorDetails(absl::OkStatus(), FullDetails());
  EXPECT_TRUE(status.ok());
  EXPECT_FALSE(GetErrorDetails(status).has_value());
}

// A payload under the details' type URL that is not an encoding of them
// (truncated, extended, or garbage) is ignored, never misread.
TEST(ErrorDetailsTest, GarbagePayloadIsNullopt) {
  const absl::Status good =
      WithErrorDetails(absl::InternalError("x"), FullDetails());
  std::optional<absl::Cord> payload;
  good.ForEachPayload(
      [&](absl::string_view, const absl::Cord& value) { payload = value; });
  ASSERT_TRUE(payload.has_value());
  const std::string encoded(*payload);
  const std::string garbage[] = {
      "",
      "garbage",
      "99999999999:x",
      "5:abc",
      encoded.substr(0, encoded.size() - 1),
      encoded + "0:",
      "0:1:9999999999:",
      std::string("\xff\x00:", 3),
  };
  for (const std::string& bytes : garbage) {
    absl::Status status = absl::InternalError("x");
    good.ForEachPayload([&](absl::string_view url, const absl::Cord&) {
      status.SetPayload(url, absl::Cord(bytes));
    });
    EXPECT_FALSE(GetErrorDetails(status).has_value()) << bytes;
  }
}

TEST(ErrorDetailsTest, InvalidFieldErrorNamesTheField) {
  const absl::Status status =
      InvalidFieldError("cuboids[0].dimensions", "Unknown dimension 'x'.");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Unknown dimension 'x'.");
  const std::optional<ErrorDetails> details = GetErrorDetails(status);
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->reason, "INVALID_ARGUMENT");
  EXPECT_EQ(details->metadata.at("field"), "cuboids[0].dimensions");
  ASSERT_EQ(details->field_violations.size(), 1u);
  EXPECT_EQ(
      details->field_violations[0],
      (FieldViolation{"cuboids[0].dimensions", "Unknown dimension 'x'."}));
}

}  // namespace
}  // namespace dpq::core::util
