// Composition and privacy on small tabular data (docs/selection.md, "Tests"):
// records (feature f in {0,1,2}, label in {0,1}), candidates = all 8
// classifiers {0,1,2} -> {0,1} (the role of the trees in DP-MOET), objectives
// TPR and TNR with the corrected rate sensitivities. Every dataset with at most
// 5 records; neighbours by replacing, adding or removing one record.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <vector>

#include "core/dp/exponential_mechanism.h"
#include "core/selection/dominance.h"
#include "core/selection/pareto_sensitivity.h"
#include "core/selection/priv_agg.h"
#include "core/selection/priv_pareto.h"
#include "core/selection/rate_sensitivity.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "gtest/gtest.h"

namespace dpq::core::selection {
namespace {

constexpr int kTypes = 6;                 // record type = 2 * feature + label
constexpr size_t kTrees = 8;              // classifier c predicts bit f of c
using Dataset = std::array<int, kTypes>;  // count per record type

struct Case {
  ScoreTable table;
  RateSensitivity tpr, tnr;
  Case(ScoreTable t, uint64_t p, uint64_t n)
      : table(std::move(t)), tpr(p), tnr(n) {}
  std::vector<const SensitivityFunction*> sens() const { return {&tpr, &tnr}; }
};

Case Evaluate(const Dataset& d) {
  ScoreTable t;
  t.num_candidates = kTrees;
  t.num_objectives = 2;
  t.scores.resize(2 * kTrees);
  uint64_t p = 0, n = 0;
  for (int type = 0; type < kTypes; ++type) {
    (type % 2 ? p : n) += static_cast<uint64_t>(d[type]);
  }
  for (size_t c = 0; c < kTrees; ++c) {
    uint64_t tp = 0, tn = 0;
    for (int type = 0; type < kTypes; ++type) {
      const bool predicted = (c >> (type / 2)) & 1u;
      const bool label = type % 2;
      if (predicted && label) tp += static_cast<uint64_t>(d[type]);
      if (!predicted && !label) tn += static_cast<uint64_t>(d[type]);
    }
    t.at(0, c) = Rate(tp, p);
    t.at(1, c) = Rate(tn, n);
  }
  return Case(std::move(t), p, n);
}

class TabularCompositionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    datasets_ = new std::vector<Dataset>();
    index_ = new std::map<Dataset, size_t>();
    Dataset d{};
    Enumerate(d, 0, 5);
  }
  static void TearDownTestSuite() {
    delete datasets_;
    delete index_;
  }
  static void Enumerate(Dataset& d, int type, int left) {
    if (type == kTypes) {
      (*index_)[d] = datasets_->size();
      datasets_->push_back(d);
      return;
    }
    for (int c = 0; c <= left; ++c) {
      d[type] = c;
      Enumerate(d, type + 1, left - c);
    }
    d[type] = 0;
  }
  // Indices of the neighbours inside the enumerated domain.
  static std::vector<size_t> Neighbours(const Dataset& d) {
    std::vector<size_t> out;
    for (int from = -1; from < kTypes; ++from) {
      for (int to = -1; to < kTypes; ++to) {
        if (from == to) continue;
        Dataset y = d;
        if (from >= 0 && y[from]-- == 0) continue;
        if (to >= 0) ++y[to];
        const auto it = index_->find(y);
        if (it != index_->end()) out.push_back(it->second);
      }
    }
    return out;
  }
  static std::vector<Dataset>* datasets_;
  static std::map<Dataset, size_t>* index_;
};
std::vector<Dataset>* TabularCompositionTest::datasets_ = nullptr;
std::map<Dataset, size_t>* TabularCompositionTest::index_ = nullptr;

TEST_F(TabularCompositionTest, ParetoSensitivityIsAdmissible) {
  constexpr uint64_t kLevels = 3;  // (A2) for t <= 1
  std::vector<std::vector<int64_t>> ps;
  std::vector<std::vector<std::vector<double>>> delta;  // [dataset][t][r]
  for (const Dataset& d : *datasets_) {
    const Case c = Evaluate(d);
    ps.push_back(ParetoScores(c.table));
    auto ds = ParetoSensitivity::Create(c.table, c.sens());
    ASSERT_TRUE(ds.ok());
    std::vector<std::vector<double>> levels(kLevels,
                                            std::vector<double>(kTrees));
    for (uint64_t t = 0; t < kLevels; ++t) {
      for (size_t r = 0; r < kTrees; ++r) levels[t][r] = ds->At(r, t);
    }
    delta.push_back(std::move(levels));
  }
  int checked = 0;
  for (size_t i = 0; i < datasets_->size(); ++i) {
    for (size_t j : Neighbours((*datasets_)[i])) {
      for (size_t r = 0; r < kTrees; ++r) {
        ASSERT_LE(std::abs(ps[i][r] - ps[j][r]), delta[i][0][r]) << "A1";
        for (uint64_t t = 0; t + 1 < kLevels; ++t) {
          ASSERT_GE(delta[i][t + 1][r], delta[j][t][r]) << "A2";
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

// |D(x,r) - D(y,r)| <= 1 and the exact output distributions of all four
// variants (k = 1, epsilon = 1) within e^epsilon on every neighbouring pair.
TEST_F(TabularCompositionTest, DampenedScoresAndExactAudit) {
  const double eps = 1;
  const std::vector<double> w = {3, 2};  // the paper's tree weights
  std::vector<std::array<SelectionScores, 4>> scores;
  for (const Dataset& d : *datasets_) {
    const Case c = Evaluate(d);
    scores.push_back({PrivParetoGlobalScores(c.table),
                      *PrivParetoLocalScores(c.table, c.sens(), 1000),
                      *PrivAggGlobalScores(c.table, c.sens(), w),
                      *PrivAggLocalScores(c.table, c.sens(), w, 1000)});
  }
  std::array<double, 4> worst{};
  double worst_d = 0;
  for (size_t i = 0; i < datasets_->size(); ++i) {
    for (size_t j : Neighbours((*datasets_)[i])) {
      for (int v = 0; v < 4; ++v) {
        const SelectionScores& a = scores[i][v];
        const SelectionScores& b = scores[j][v];
        if (v % 2 == 1) {
          for (size_t r = 0; r < kTrees; ++r) {
            worst_d = std::max(worst_d, std::fabs(a.scores[r] - b.scores[r]));
          }
        }
        const auto pa = *dp::ExponentialMechanismProbabilities(a.scores, eps,
                                                               a.sensitivity);
        const auto pb = *dp::ExponentialMechanismProbabilities(b.scores, eps,
                                                               b.sensitivity);
        for (size_t r = 0; r < kTrees; ++r) {
          worst[v] = std::max(worst[v], std::fabs(std::log(pa[r] / pb[r])));
        }
      }
    }
  }
  EXPECT_LE(worst_d, 1 + 1e-12);
  std::cout << "max |D(x)-D(y)| " << worst_d << "; max log-ratio Pareto "
            << worst[0] << "/" << worst[1] << ", Agg " << worst[2] << "/"
            << worst[3] << " (global/local)\n";
  for (int v = 0; v < 4; ++v) {
    EXPECT_LE(worst[v], eps + 1e-9) << "variant " << v;
    EXPECT_GT(worst[v], 0.01) << "variant " << v;
  }
}

}  // namespace
}  // namespace dpq::core::selection
