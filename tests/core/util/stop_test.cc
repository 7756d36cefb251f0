// StridedStop: polls at the stride of reported work, latches a stop, and
// never polls an empty stop function.
#include "core/util/stop.h"

#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

TEST(StridedStopTest, PollsOncePerStrideOfWork) {
  int polls = 0;
  const StopFn stop = [&polls] {
    ++polls;
    return false;
  };
  StridedStop strided(stop, 100);
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(strided.Requested());
  EXPECT_EQ(polls, 10);
  EXPECT_FALSE(strided.Requested(250));  // a large step polls at once
  EXPECT_EQ(polls, 11);
}

TEST(StridedStopTest, LatchesTheStopWithoutPollingAgain) {
  int polls = 0;
  const StopFn stop = [&polls] { return ++polls >= 2; };
  StridedStop strided(stop, 1);
  EXPECT_FALSE(strided.Requested());
  EXPECT_TRUE(strided.Requested());
  EXPECT_TRUE(strided.Requested());
  EXPECT_EQ(polls, 2);
}

TEST(StridedStopTest, AnEmptyStopNeverStops) {
  const StopFn none;
  StridedStop strided(none, 1);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(strided.Requested(1000));
  EXPECT_FALSE(StopRequested(none));
}

}  // namespace
}  // namespace dpq::core::util
