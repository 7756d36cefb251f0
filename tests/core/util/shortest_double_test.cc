#include "core/util/shortest_double.h"

#include <cstdlib>
#include <limits>

#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

TEST(ShortestDoubleTest, PrintsTheShortestTextThatParsesBack) {
  EXPECT_EQ(ShortestDouble(0.1), "0.1");
  EXPECT_EQ(ShortestDouble(10), "10");
  EXPECT_EQ(ShortestDouble(1e20), "1e+20");
  EXPECT_EQ(ShortestDouble(1e-300), "1e-300");
  EXPECT_EQ(ShortestDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(ShortestDouble(std::numeric_limits<double>::infinity()), "inf");
  for (double v : {-2.2250738585072014e-308, 123456.789, 5e-324, 1.0 / 3}) {
    EXPECT_EQ(std::strtod(ShortestDouble(v).c_str(), nullptr), v) << v;
  }
}

}  // namespace
}  // namespace dpq::core::util
