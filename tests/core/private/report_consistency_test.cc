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

// The example: I_P = 112 beside I_MI = 19. The noisier value moves
// more.
TEST(ReportConsistencyTest, TheNoisierValueMovesMore) {
  ReportValues in;
  in.mi = ReportValue{19, 50};  // I_MI noise scale 50
  in.p = ReportValue{112, 5};
  in.r = ReportValue{10, 1};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_TRUE(Consistent(out));
  EXPECT_GE(out.mi->value, 50);   // I_MI rose most of the way
  EXPECT_GE(out.p->value, 100);  // I_P barely moved
  EXPECT_EQ(out.r->value, 10);
}

TEST(ReportConsistencyTest, ConsistentValuesAreLeftAlone) {
  ReportValues in;
  in.mi = ReportValue{773, 50};
  in.p = ReportValue{793, 60};
  in.r = ReportValue{20, 1};
  const ReportValues out = MakeReportConsistent(in);
  EXPECT_EQ(out.mi->value, 773);
  EXPECT_EQ(out.p->value, 793);
  EXPECT_EQ(out.r->value, 20);
}

TEST(ReportConsistencyTest, AbsentMeasuresConstrainNothing) {
  ReportValues in;
  in.p = ReportValue{5, 1};
  in.r = ReportValue{9, 1};
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
      return ReportValue{static_cast<int64_t>(rng() % 2000) - 200,
                         1.0 + static_cast<double>(rng() % 500)};
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
