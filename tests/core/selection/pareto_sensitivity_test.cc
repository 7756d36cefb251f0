#include "core/selection/pareto_sensitivity.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "core/selection/dominance.h"
#include "core/selection/score_table.h"
#include "core/selection/sensitivity_function.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::core::selection {
namespace {

using ::testing::ElementsAre;

// delta(t, r) = values[r] for every t.
class PerCandidate final : public SensitivityFunction {
 public:
  explicit PerCandidate(std::vector<double> values) : values_(values) {}
  double At(size_t r, uint64_t) const override { return values_[r]; }
  double Global() const override { return 100; }

 private:
  std::vector<double> values_;
};

// The paper's definition (Def. 4.5, "E7" in docs/selection.md): |dom^-| +
// |ndom^+| from cumulative sums.
int64_t E7(const ScoreTable& u, const std::vector<double>& s, size_t r) {
  const size_t n = u.num_candidates;
  const auto plus = [&](size_t i, size_t c) {
    return u.at(i, c) + s[i * n + c];
  };
  const auto minus = [&](size_t i, size_t c) {
    return u.at(i, c) - s[i * n + c];
  };
  int64_t count = 0;
  for (size_t other = 0; other < n; ++other) {
    if (other == r) continue;
    if (WeaklyDominates(u, other, r)) {  // dom^-: may stop dominating
      bool may_stop = false;
      for (size_t i = 0; i < u.num_objectives; ++i) {
        may_stop = may_stop || minus(i, other) <= plus(i, r);
      }
      count += may_stop;
    } else {  // ndom^+: may start dominating
      bool may_start = true;
      for (size_t i = 0; i < u.num_objectives; ++i) {
        may_start = may_start && plus(i, other) >= minus(i, r);
      }
      count += may_start;
    }
  }
  return count;
}

TEST(ParetoSensitivityTest, PaperExample46) {
  ScoreTable u;
  u.num_candidates = 3;
  u.num_objectives = 2;
  u.scores = {1, 3, 5, 1, 3, 5};
  // cumulative at t = 0 is delta(0): (a 0.5, b 1, c 1.5) for both objectives.
  const std::vector<double> s = {0.5, 1, 1.5, 0.5, 1, 1.5};
  EXPECT_THAT(ParetoSensitivityLevel(u, s, {}), ElementsAre(0, 1, 1));
  PerCandidate d({0.5, 1, 1.5});
  auto ps = ParetoSensitivity::Create(u, {&d, &d});
  ASSERT_TRUE(ps.ok());
  EXPECT_EQ(ps->At(0, 0), 0);
  EXPECT_EQ(ps->At(1, 0), 1);  // dom^- = {c}: 3.5 <= 4; ndom^+ empty
  EXPECT_EQ(ps->At(2, 0), 1);  // ndom^+ = {b}
  EXPECT_EQ(ps->Global(), 2);
  // At t = 1 the sums double: b can now be overtaken by a as well.
  EXPECT_EQ(ps->At(1, 1), 2);
}

TEST(ParetoSensitivityTest, ClosedFormE7PrimeEqualsE7OnRandomInstances) {
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<int> value(0, 8);
  std::uniform_int_distribution<int> sens(0, 6);
  for (int rep = 0; rep < 4000; ++rep) {
    ScoreTable u;
    u.num_candidates = 1 + rep % 9;
    u.num_objectives = 1 + rep % 4;
    u.scores.resize(u.num_candidates * u.num_objectives);
    std::vector<double> s(u.scores.size());
    // Multiples of 1/4: exact in binary, with many boundary cases.
    for (double& x : u.scores) x = value(rng) / 4.0;
    for (double& x : s) x = sens(rng) / 4.0;
    const std::vector<int64_t> fast = ParetoSensitivityLevel(u, s, {});
    for (size_t r = 0; r < u.num_candidates; ++r) {
      ASSERT_EQ(fast[r], E7(u, s, r)) << "rep " << rep << " r " << r;
      ASSERT_GE(fast[r], 0);
      ASSERT_LE(fast[r], static_cast<int64_t>(u.num_candidates) - 1);
    }
    // A subset of queries gives the same values.
    const std::vector<size_t> some = {u.num_candidates - 1, 0};
    const std::vector<int64_t> part = ParetoSensitivityLevel(u, s, some);
    ASSERT_EQ(part[0], fast[u.num_candidates - 1]);
    ASSERT_EQ(part[1], fast[0]);
  }
}

TEST(ParetoSensitivityTest, RejectsMismatchedComponents) {
  ScoreTable u;
  u.num_candidates = 2;
  u.num_objectives = 2;
  u.scores = {1, 2, 3, 4};
  ConstantSensitivity one(1);
  EXPECT_FALSE(ParetoSensitivity::Create(u, {&one}).ok());
  EXPECT_FALSE(ParetoSensitivity::Create(u, {&one, nullptr}).ok());
}

}  // namespace
}  // namespace dpq::core::selection
