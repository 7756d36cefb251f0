#include "core/private/report_consistency.h"

#include <cstdint>
#include <random>

#include "gtest/gtest.h"

namespace dpq::core::private_measures {
namespace {

bool Consistent(const ReportValues& v) {
  bool ok = true;
  if (v.r && v.p) ok = ok && v.r->value <= v.p->value;
  if (v.r && v.mi) ok = ok && v.r->value <= v.mi->value;
  if (v.p && v.mi) ok = ok && v.p->value <= 2 * v.mi->value;
  for (const auto* x : {&v.mi, &v.p, &v.r}) {
    if (x->has_value()) ok = ok && (*x)->value >= 0;
  }
  return ok;
}

// I_P = 112 beside I_MI = 19: the less certain value (the wider
// interval) moves more.
TEST(ReportConsistencyTest, TheLessCertainValueMovesMore) {
  ReportValues in;
  in.mi = ReportValue{19, 0, 400};
  in.p = ReportValue{112, 100, 124};
  in.r = ReportValue{10, 5, 15};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_TRUE(Consistent(out));
  EXPECT_GE(out.mi->value, 50);  // I_MI rose most of the way
  EXPECT_GE(out.p->value, 100);  // I_P barely moved
  EXPECT_EQ(out.r->value, 10);
}

// A small theta's precise undercount (I_MI 420, its interval up to
// 225,036) does not drag a well-measured I_P out of its own interval.
TEST(ReportConsistencyTest, ValuesStayInTheirIntervals) {
  ReportValues in;
  in.mi = ReportValue{420, 371, 225036};
  in.p = ReportValue{1100, 970, 1392};
  in.r = ReportValue{385, 376, 792};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_TRUE(Consistent(out));
  EXPECT_GE(out.p->value, 970);
  EXPECT_LE(out.p->value, 1392);
  EXPECT_GE(out.mi->value, 485);
  EXPECT_GE(out.r->value, 376);
}

TEST(ReportConsistencyTest, ConsistentValuesAreLeftAlone) {
  ReportValues in;
  in.mi = ReportValue{773, 700, 900};
  in.p = ReportValue{793, 700, 900};
  in.r = ReportValue{20, 18, 22};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_EQ(out.mi->value, 773);
  EXPECT_EQ(out.p->value, 793);
  EXPECT_EQ(out.r->value, 20);
}

TEST(ReportConsistencyTest, AbsentMeasuresConstrainNothing) {
  ReportValues in;
  in.p = ReportValue{5, 3, 7};
  in.r = ReportValue{9, 7, 11};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_FALSE(out.mi.has_value());
  EXPECT_EQ(out.r->value, 7);  // both meet in the middle
  EXPECT_EQ(out.p->value, 7);
}

TEST(ReportConsistencyTest, RandomReportsComeOutConsistent) {
  std::mt19937_64 rng(9);
  for (int i = 0; i < 20000; ++i) {
    ReportValues in;
    auto value = [&] {
      const int64_t v = static_cast<int64_t>(rng() % 2000) - 200;
      const int64_t w = static_cast<int64_t>(rng() % 500);
      return ReportValue{v, v - w, v + static_cast<int64_t>(rng() % 3000)};
    };
    if (rng() % 4 != 0) in.mi = value();
    if (rng() % 4 != 0) in.p = value();
    if (rng() % 4 != 0) in.r = value();
    const ReportValues out = MakeReportConsistent(in);
    ASSERT_TRUE(Consistent(out)) << i;
    EXPECT_EQ(out.mi.has_value(), in.mi.has_value());
  }
}

}  // namespace
}  // namespace dpq::core::private_measures
