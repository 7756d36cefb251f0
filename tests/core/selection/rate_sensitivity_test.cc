#include "core/selection/rate_sensitivity.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace dpq::core::selection {
namespace {

// A state of the private data as far as TPR sees it: true positives, false
// negatives and negatives (TNR is the same function with the classes
// swapped, so this also covers delta^TNR).
using State = std::array<int, 3>;  // {TP, FN, NEG}

int P(const State& s) { return s[0] + s[1]; }
double Tpr(const State& s) { return Rate(s[0], P(s)); }

// Replacement neighbours: one record changes category (any to any other).
// Add/remove neighbours: one record more or fewer in any category.
std::vector<State> Neighbours(const State& s, bool replacement) {
  std::vector<State> out;
  for (int from = 0; from < 3; ++from) {
    for (int to = 0; to < 3; ++to) {
      State y = s;
      if (replacement) {
        if (from == to || y[from] == 0) continue;
        --y[from];
        ++y[to];
        out.push_back(y);
      } else if (from == to) {
        ++y[from];
        out.push_back(y);
        if (s[from] > 0) {
          y[from] -= 2;
          out.push_back(y);
        }
      }
    }
  }
  return out;
}

double Delta(const State& s, uint64_t t) {
  return RateSensitivityAt(static_cast<uint64_t>(P(s)), t);
}

// (A1) and (A2) for every state with P <= 12, NEG <= 2, t <= 4, under both
// neighbour models (docs/selection.md, "Sensitivities").
TEST(RateSensitivityTest, AdmissibleOnAllSmallStatesBothNeighbourModels) {
  int checked = 0;
  for (bool replacement : {true, false}) {
    for (int tp = 0; tp <= 12; ++tp) {
      for (int fn = 0; tp + fn <= 12; ++fn) {
        for (int neg = 0; neg <= 2; ++neg) {
          const State x = {tp, fn, neg};
          for (const State& y : Neighbours(x, replacement)) {
            ASSERT_GE(Delta(x, 0) + 1e-15, std::fabs(Tpr(x) - Tpr(y)))
                << "A1 TP=" << tp << " FN=" << fn << " NEG=" << neg;
            for (uint64_t t = 0; t <= 4; ++t) {
              ASSERT_GE(Delta(x, t + 1), Delta(y, t))
                  << "A2 TP=" << tp << " FN=" << fn << " t=" << t;
              ++checked;
            }
          }
          for (uint64_t t = 0; t <= 5; ++t) {
            ASSERT_LE(Delta(x, t), 1.0);  // never above Delta TPR = 1
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(RateSensitivityTest, ValuesAndClassWrapper) {
  EXPECT_DOUBLE_EQ(RateSensitivityAt(10, 0), 0.1);
  EXPECT_DOUBLE_EQ(RateSensitivityAt(10, 5), 0.2);
  EXPECT_DOUBLE_EQ(RateSensitivityAt(10, 9), 1.0);
  EXPECT_DOUBLE_EQ(RateSensitivityAt(10, 50), 1.0);
  EXPECT_DOUBLE_EQ(RateSensitivityAt(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(Rate(3, 4), 0.75);
  EXPECT_DOUBLE_EQ(Rate(0, 0), 0.0);
  const RateSensitivity s(40);
  EXPECT_DOUBLE_EQ(s.At(7, 0), 1.0 / 40);
  EXPECT_DOUBLE_EQ(s.At(0, 20), 1.0 / 20);
  EXPECT_DOUBLE_EQ(s.Global(), 1.0);
}

// Lemma 6.1 of the paper as printed, kept only to show why it is not used
// (docs/privacy.md 6.1).
double PaperLemma61(int tp, int p, int t) {
  const int p1 = std::max(p - t, 2);
  const int tp1 = std::max(tp - std::max(t - (p - tp), 0), 2);
  return t <= p - tp ? static_cast<double>(p1 - tp1) / (p1 * (p1 - 1))
                     : static_cast<double>(tp1) / (p1 * (p1 - 1));
}

TEST(RateSensitivityTest, PaperFormulaIsNotAdmissible) {
  // TP = 9, FN = 1: the paper gives 1/90, but replacing one true positive
  // by a false negative moves TPR from 0.9 to 0.8.
  EXPECT_DOUBLE_EQ(PaperLemma61(9, 10, 0), 1.0 / 90);
  EXPECT_LT(PaperLemma61(9, 10, 0), std::fabs(Tpr({9, 1, 0}) - Tpr({8, 2, 0})));
  // It also decreases with t (violates (A2) with y = x): TP = FN = 5.
  EXPECT_LT(PaperLemma61(5, 10, 2), PaperLemma61(5, 10, 1));
  // The corrected function covers both.
  EXPECT_GE(RateSensitivityAt(10, 0), 0.1);
}

}  // namespace
}  // namespace dpq::core::selection
