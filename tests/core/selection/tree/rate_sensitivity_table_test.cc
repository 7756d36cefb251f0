// Admissibility of the corrected delta^TPR / delta^TNR (docs/privacy.md 6.1;
// core/selection/rate_sensitivity.h) checked on real tables and trees:
// every table of up to 4 rows over a small domain, every neighbour under
// add/remove AND replacement, every tree of a fixed set, t <= 4. Plus the
// counterexample that the paper's printed Lemma 6.1 is not admissible.
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "core/selection/rate_sensitivity.h"
#include "core/selection/tree/tree_evaluation.h"
#include "gtest/gtest.h"
#include "tests/core/selection/tree/tree_test_util.h"

namespace dpq::core::selection {
namespace {

using ::dpq::core::selection::testing::Stump;
using ::dpq::core::selection::testing::XLabelTable;
using Rows = std::vector<std::pair<int, bool>>;

// Row kinds: x in {0, 1, 2}, label in {no, yes}.
const std::vector<std::pair<int, bool>>& Kinds() {
  static const auto* kinds = new std::vector<std::pair<int, bool>>{
      {0, false}, {0, true}, {1, false}, {1, true}, {2, false}, {2, true}};
  return *kinds;
}

// Multisets of up to `max_rows` row kinds (order does not matter for the
// rates), as sorted row lists.
void Enumerate(size_t max_rows, size_t from, Rows& current,
               std::vector<Rows>& out) {
  out.push_back(current);
  if (current.size() == max_rows) return;
  for (size_t k = from; k < Kinds().size(); ++k) {
    current.push_back(Kinds()[k]);
    Enumerate(max_rows, k, current, out);
    current.pop_back();
  }
}

std::vector<Rows> Neighbours(const Rows& rows) {
  std::vector<Rows> out;
  for (const auto& kind : Kinds()) {  // add one row
    Rows y = rows;
    y.push_back(kind);
    out.push_back(y);
  }
  for (size_t i = 0; i < rows.size(); ++i) {  // remove or replace one row
    Rows y = rows;
    y.erase(y.begin() + i);
    out.push_back(y);
    for (const auto& kind : Kinds()) {
      Rows z = rows;
      z[i] = kind;
      out.push_back(z);
    }
  }
  return out;
}

struct State {
  std::vector<double> tpr, tnr;  // per tree
  uint64_t positives = 0, negatives = 0;
};

State Evaluate(const Rows& rows, const std::vector<DecisionTree>& trees) {
  State s;
  // Count by hand with the same Predict rules (the marker row, ignored
  // below, keeps the table non-empty).
  Rows with_marker = rows;
  with_marker.push_back({0, true});  // last row ignored below
  const table::Table t = XLabelTable(with_marker);
  auto data = EncodedTable::Create(t, "label", "yes", {"x"});
  EXPECT_TRUE(data.ok());
  for (const auto& [x, positive] : rows) {
    (positive ? s.positives : s.negatives)++;
  }
  for (const DecisionTree& tree : trees) {
    ConfusionCounts c;
    c.positives = s.positives;
    c.negatives = s.negatives;
    for (size_t r = 0; r < rows.size(); ++r) {
      const bool predicted = data->Predict(tree, r);
      if (rows[r].second)
        c.true_positives += predicted;
      else
        c.true_negatives += !predicted;
    }
    s.tpr.push_back(c.Tpr());
    s.tnr.push_back(c.Tnr());
  }
  return s;
}

std::vector<DecisionTree> Trees() {
  return {Stump("x", 0.5, true, false), Stump("x", 1.5, true, false),
          Stump("x", 0.5, false, true), Stump("x", 1.5, false, true),
          Stump("x", 5, true, true)};
}

TEST(RateSensitivityTableTest, CorrectedFunctionIsAdmissibleOnAllSmallTables) {
  std::vector<Rows> tables;
  Rows current;
  Enumerate(4, 0, current, tables);
  const std::vector<DecisionTree> trees = Trees();
  size_t pairs = 0;
  for (const Rows& x : tables) {
    const State sx = Evaluate(x, trees);
    for (const Rows& y : Neighbours(x)) {
      const State sy = Evaluate(y, trees);
      for (size_t r = 0; r < trees.size(); ++r) {
        // (A1): delta(x, 0) bounds the change to every neighbour.
        EXPECT_LE(std::abs(sx.tpr[r] - sy.tpr[r]),
                  RateSensitivityAt(sx.positives, 0) + 1e-12);
        EXPECT_LE(std::abs(sx.tnr[r] - sy.tnr[r]),
                  RateSensitivityAt(sx.negatives, 0) + 1e-12);
      }
      // (A2): delta(x, t + 1) >= delta(y, t).
      for (uint64_t t = 0; t <= 4; ++t) {
        EXPECT_GE(RateSensitivityAt(sx.positives, t + 1),
                  RateSensitivityAt(sy.positives, t));
        EXPECT_GE(RateSensitivityAt(sx.negatives, t + 1),
                  RateSensitivityAt(sy.negatives, t));
      }
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 2000u);
}

// Lemma 6.1 as printed (main text; docs/privacy.md 6.1).
double PaperDeltaTpr(double tp, double p, double t) {
  const double fn = p - tp;
  const double tp_prime = std::max(tp - std::max(t - fn, 0.0), 2.0);
  const double p_prime = std::max(p - t, 2.0);
  const double num = t <= fn ? p_prime - tp_prime : tp_prime;
  return num / (p_prime * (p_prime - 1));
}

TEST(RateSensitivityTableTest, PaperLemma61IsNotAdmissible) {
  // TP = 9, FN = 1: a tree that is right on 9 of 10 positives. Replacing
  // one correctly classified positive (x = 0) by one at x = 2 moves TPR by
  // 1/10, while the printed delta(x, 0) is 1 / 90.
  Rows x(9, {0, true});
  x.push_back({2, true});
  Rows y = x;
  y[0] = {2, true};
  const std::vector<DecisionTree> tree = {Stump("x", 0.5, true, false)};
  const State sx = Evaluate(x, tree);
  const State sy = Evaluate(y, tree);
  EXPECT_DOUBLE_EQ(sx.tpr[0], 0.9);
  const double change = std::abs(sx.tpr[0] - sy.tpr[0]);
  EXPECT_NEAR(change, 0.1, 1e-12);
  EXPECT_NEAR(PaperDeltaTpr(9, 10, 0), 1.0 / 90, 1e-15);
  EXPECT_LT(PaperDeltaTpr(9, 10, 0), change);           // (A1) fails
  EXPECT_GE(RateSensitivityAt(10, 0) + 1e-15, change);  // ours holds
  // Its first branch also decreases with t, so (A2) with y = x fails.
  EXPECT_LT(PaperDeltaTpr(8, 10, 1), PaperDeltaTpr(8, 10, 0));
}

}  // namespace
}  // namespace dpq::core::selection
