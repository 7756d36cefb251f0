// GoogleTest matchers for absl::Status and absl::StatusOr:
//   EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument,
//                           HasSubstr("Epsilon")));
//   EXPECT_THAT(result, IsOkAndHolds(42));
//   EXPECT_OK(s); ASSERT_OK_AND_ASSIGN(auto v, MakeV());
#ifndef DPQ_TESTS_TESTING_STATUS_MATCHERS_H_
#define DPQ_TESTS_TESTING_STATUS_MATCHERS_H_

#include <ostream>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::testing {
namespace internal {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

}  // namespace internal

MATCHER_P2(StatusIs, code, message_matcher,
           "has status code " + ::testing::PrintToString(code)) {
  const absl::Status& s = internal::GetStatus(arg);
  *result_listener << "whose status is " << s;
  return s.code() == code &&
         ::testing::ExplainMatchResult(
             message_matcher, std::string(s.message()), result_listener);
}

MATCHER_P(IsOkAndHolds, value_matcher, "is OK and holds a matching value") {
  if (!arg.ok()) {
    *result_listener << "whose status is " << arg.status();
    return false;
  }
  return ::testing::ExplainMatchResult(value_matcher, *arg, result_listener);
}

MATCHER(IsOk, "is OK") {
  const absl::Status& s = internal::GetStatus(arg);
  *result_listener << "whose status is " << s;
  return s.ok();
}

}  // namespace dpq::testing

#define EXPECT_OK(expr) EXPECT_THAT((expr), ::dpq::testing::IsOk())
#define ASSERT_OK(expr) ASSERT_THAT((expr), ::dpq::testing::IsOk())

#define DPQ_TESTING_CONCAT_INNER_(x, y) x##y
#define DPQ_TESTING_CONCAT_(x, y) DPQ_TESTING_CONCAT_INNER_(x, y)
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr)                         \
  auto DPQ_TESTING_CONCAT_(dpq_statusor_, __LINE__) = (rexpr);   \
  ASSERT_TRUE(DPQ_TESTING_CONCAT_(dpq_statusor_, __LINE__).ok()) \
      << DPQ_TESTING_CONCAT_(dpq_statusor_, __LINE__).status();  \
  lhs = *std::move(DPQ_TESTING_CONCAT_(dpq_statusor_, __LINE__))

#endif  // DPQ_TESTS_TESTING_STATUS_MATCHERS_H_
