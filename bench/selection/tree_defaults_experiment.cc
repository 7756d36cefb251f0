// How useful is the decision tree a buyer gets with the service's
// defaults? (docs/selection-experiments.md, "Default trees on adult".)
//
// Adult (LoadAdult: the paper's preparation, 30,162 rows without '?'),
// label MoreLess, positive class ">50K", registered as an owner would:
// every string column a nominal cube dimension with its values declared,
// the numeric ones binned at round, data-independent edges; N =
// public_max_rows = 32,561 (the published size of the file). Per seed: a
// 70/30 train/test split; the tree is built exactly as the service builds
// it (DecisionTreeSpec -> BuildDecisionTreeRequest on the declared cube ->
// TrainDpDecisionTree on the training rows), optionally with the genetic
// parameters, approach or candidate grid overridden by flags, and scored
// on the test rows. The reference is a non-private greedy tree of a given
// depth over the same features and the same public candidate splits,
// grown by class-balanced Gini with balanced-accuracy leaves.
//
//   tree_defaults_experiment [--seeds 20] [--eps 1,2]
//       [--approach pareto|aggregation] [--sensitivity global|local]
//       [--weights 1,1] [--generations 0] [--population 0] [--selected 0]
//       [--initial_depth 0] [--max_depth 0] [--grid 1] [--np_depth 3]
//       [--tag name] [--out bench/selection/results]
//
// 0 leaves the service default; --grid 0 drops the public thresholds
// (uniform thresholds over [min, max], the behaviour before the grid).
// Prints one line per epsilon (median and mean balanced accuracy, mean
// TPR/TNR, fraction of single leaves and of trees worse than chance) and
// appends it to <out>/tree_defaults.csv.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/selection/experiment_common.h"
#include "bench/selection/experiment_data.h"
#include "core/cube/cuboid_release.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_budget.h"
#include "core/selection/tree/tree_evaluation.h"
#include "core/selection/tree/tree_request.h"
#include "core/table/table.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench {
namespace {

namespace sel = core::selection;
using core::table::Table;

constexpr uint64_t kAdultPublicMaxRows = 32561;

// The owner's declaration: nominal dimensions with their values for the
// strings (infer_domain: the owner makes the value sets public), round
// bins for the numbers.
absl::StatusOr<core::cube::CubeSchema> AdultCube(const TreeDataset& ds) {
  std::vector<core::cube::DimensionSpec> specs;
  auto binned = [&](const std::string& column, std::vector<double> edges) {
    core::cube::DimensionSpec s;
    s.column = column;
    s.bin_edges = std::move(edges);
    specs.push_back(std::move(s));
  };
  for (const core::table::ColumnSpec& c : ds.table.schema().columns()) {
    if (c.name == "Age") {
      binned("Age", {17, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 91});
    } else if (c.name == "Gain") {
      binned("Gain", {0, 1, 3000, 5000, 7000, 10000, 15000, 100000});
    } else if (c.name == "Loss") {
      binned("Loss", {0, 1, 1500, 1800, 2000, 2500, 5000});
    } else if (c.name == "Hours") {
      binned("Hours", {1, 20, 30, 35, 40, 41, 45, 50, 60, 100});
    } else {
      core::cube::DimensionSpec s;
      s.column = c.name;
      s.infer_domain = true;
      specs.push_back(std::move(s));
    }
  }
  return core::cube::BuildCubeSchema(ds.table, specs);
}

Table Rows(const Table& table, const std::vector<size_t>& rows) {
  std::vector<std::vector<std::optional<std::string>>> cells;
  cells.reserve(rows.size());
  for (size_t r : rows) {
    std::vector<std::optional<std::string>> row;
    for (size_t c = 0; c < table.num_columns(); ++c) {
      row.push_back(table.CellText(c, r));
    }
    cells.push_back(std::move(row));
  }
  return *Table::FromCells(table.schema(), cells);
}

// ---- The non-private reference: greedy, class-balanced -------------------

struct Column {
  bool numeric = true;
  std::vector<double> values;     // numeric, NaN = NULL
  std::vector<std::string> text;  // category
};

struct Greedy {
  const std::vector<sel::FeatureDomain>* domains;
  std::vector<Column> columns;  // by domain
  std::vector<uint8_t> positive;
  double w_pos = 1, w_neg = 1;  // 1/P, 1/N
  sel::DecisionTree tree;

  bool Left(size_t f, size_t row, const sel::TreeNode& test) const {
    const Column& c = columns[f];
    if (c.numeric) return c.values[row] <= test.threshold;  // NaN: false
    return c.text[row] == test.category;
  }
  // Balanced Gini of a (pos, neg) mass.
  double Gini(double p, double n) const {
    const double wp = p * w_pos, wn = n * w_neg, t = wp + wn;
    return t == 0 ? 0 : t * (1 - (wp / t) * (wp / t) - (wn / t) * (wn / t));
  }
  int32_t Grow(const std::vector<size_t>& rows, int depth) {
    double p = 0, n = 0;
    for (size_t r : rows) (positive[r] ? p : n) += 1;
    const int32_t index = static_cast<int32_t>(tree.nodes.size());
    sel::TreeNode leaf;
    leaf.positive = p * w_pos >= n * w_neg;
    tree.nodes.push_back(leaf);
    if (depth == 0 || p == 0 || n == 0) return index;
    double best = Gini(p, n) - 1e-12;
    std::optional<sel::TreeNode> best_test;
    size_t best_f = 0;
    for (size_t f = 0; f < domains->size(); ++f) {
      const sel::FeatureDomain& d = (*domains)[f];
      std::vector<sel::TreeNode> tests;
      if (d.numeric) {
        for (double t : d.thresholds) {
          sel::TreeNode x;
          x.is_leaf = false, x.feature = d.name, x.threshold = t;
          tests.push_back(x);
        }
      } else {
        for (const std::string& cat : d.categories) {
          sel::TreeNode x;
          x.is_leaf = false, x.feature = d.name, x.numeric_test = false;
          x.category = cat;
          tests.push_back(x);
        }
      }
      for (const sel::TreeNode& t : tests) {
        double lp = 0, ln = 0;
        for (size_t r : rows) {
          if (Left(f, r, t)) (positive[r] ? lp : ln) += 1;
        }
        const double g = Gini(lp, ln) + Gini(p - lp, n - ln);
        if (g < best) best = g, best_test = t, best_f = f;
      }
    }
    if (!best_test) return index;
    std::vector<size_t> left, right;
    for (size_t r : rows)
      (Left(best_f, r, *best_test) ? left : right).push_back(r);
    tree.nodes[index] = *best_test;
    const int32_t l = Grow(left, depth - 1);
    const int32_t rr = Grow(right, depth - 1);
    tree.nodes[index].left = l;
    tree.nodes[index].right = rr;
    return index;
  }
};

sel::DecisionTree GreedyTree(const Table& train, const TreeDataset& ds,
                             const std::vector<sel::FeatureDomain>& domains,
                             int depth) {
  Greedy g;
  g.domains = &domains;
  const size_t label = *train.schema().FindColumn(ds.label);
  double p = 0;
  for (size_t r = 0; r < train.num_rows(); ++r) {
    g.positive.push_back(train.CellText(label, r) == ds.positive);
    p += g.positive.back();
  }
  g.w_pos = 1 / std::max(p, 1.0);
  g.w_neg = 1 / std::max(train.num_rows() - p, 1.0);
  for (const sel::FeatureDomain& d : domains) {
    const size_t c = *train.schema().FindColumn(d.name);
    Column col;
    col.numeric = d.numeric;
    for (size_t r = 0; r < train.num_rows(); ++r) {
      const std::string text = train.CellText(c, r);
      if (d.numeric) {
        col.values.push_back(text.empty() ? std::nan("") : std::stod(text));
      } else {
        col.text.push_back(text);
      }
    }
    g.columns.push_back(std::move(col));
  }
  std::vector<size_t> rows(train.num_rows());
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  g.Grow(rows, depth);
  return g.tree;
}

// ---- Summary ---------------------------------------------------------------

struct Outcome {
  double tpr = 0, tnr = 0;
  int depth = 0;
  double seconds = 0;
  double ba() const { return (tpr + tnr) / 2; }
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string Summary(const std::vector<Outcome>& runs) {
  std::vector<double> ba, tpr, tnr, depth, secs;
  int leaves = 0, worse = 0;
  for (const Outcome& o : runs) {
    ba.push_back(o.ba()), tpr.push_back(o.tpr), tnr.push_back(o.tnr);
    depth.push_back(o.depth), secs.push_back(o.seconds);
    leaves += o.depth == 0;
    worse += o.tpr + o.tnr < 1;
  }
  const double n = runs.empty() ? 1 : static_cast<double>(runs.size());
  return absl::StrCat(
      absl::StrFormat("median_ba=%.3f mean_ba=%.3f min_ba=%.3f tpr=%.3f "
                      "tnr=%.3f leaves=%.2f worse=%.2f depth=%.1f s=%.2f",
                      Median(ba), Summarize(ba).mean,
                      ba.empty() ? 0 : *std::min_element(ba.begin(), ba.end()),
                      Summarize(tpr).mean, Summarize(tnr).mean, leaves / n,
                      worse / n, Median(depth), Summarize(secs).mean));
}

int Main(int argc, char** argv) {
  const std::string dir = Flag(argc, argv, "data", DPQ_SHARED_DATA_DIR);
  const int seeds = std::stoi(Flag(argc, argv, "seeds", "20"));
  const std::vector<double> eps = DoubleListFlag(argc, argv, "eps", "1,2");
  const std::string approach = Flag(argc, argv, "approach", "");
  const std::string sensitivity = Flag(argc, argv, "sensitivity", "");
  const std::vector<double> weights = DoubleListFlag(argc, argv, "weights", "");
  const auto u32 = [&](const char* name) {
    return static_cast<uint32_t>(std::stoul(Flag(argc, argv, name, "0")));
  };
  const uint32_t generations = u32("generations");
  const uint32_t population = u32("population");
  const uint32_t selected = u32("selected");
  const uint32_t initial_depth = u32("initial_depth");
  const uint32_t max_depth = u32("max_depth");
  const bool grid = Flag(argc, argv, "grid", "1") != "0";
  const int np_depth = std::stoi(Flag(argc, argv, "np_depth", "3"));
  const std::string tag = Flag(argc, argv, "tag", "run");
  const std::string out =
      Flag(argc, argv, "out", DPQ_SOURCE_DIR "/bench/selection/results");

  absl::StatusOr<TreeDataset> ds = LoadAdult(dir);
  if (!ds.ok()) {
    std::fprintf(stderr, "%s\n", ds.status().ToString().c_str());
    return 1;
  }
  absl::StatusOr<core::cube::CubeSchema> cube = AdultCube(*ds);
  if (!cube.ok()) {
    std::fprintf(stderr, "%s\n", cube.status().ToString().c_str());
    return 1;
  }

  std::vector<std::vector<Outcome>> dp(eps.size());
  std::vector<Outcome> np;
  std::string config;
  for (int seed = 0; seed < seeds; ++seed) {
    std::vector<size_t> rows(ds->table.num_rows());
    for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    testing::SeededUrbg split(1000 + seed);
    for (size_t i = rows.size(); i > 1; --i) {
      std::swap(rows[i - 1], rows[split.UniformBelow(i)]);
    }
    const size_t n_test = rows.size() * 30 / 100;
    const Table test = Rows(ds->table, {rows.begin(), rows.begin() + n_test});
    const Table train = Rows(ds->table, {rows.begin() + n_test, rows.end()});
    absl::StatusOr<sel::EncodedTable> scored =
        sel::EncodedTable::Create(test, ds->label, ds->positive, ds->features);
    if (!scored.ok()) return 1;
    auto score = [&](const sel::DecisionTree& tree, double seconds) {
      const sel::ConfusionCounts c = scored->Evaluate(tree);
      return Outcome{c.Tpr(), c.Tnr(), tree.depth(), seconds};
    };

    for (size_t e = 0; e < eps.size(); ++e) {
      // The service's request: DecisionTreeSpecFromProto leaves approach,
      // sensitivity, weights, generations and population as the buyer gave
      // them (nothing: the defaults).
      sel::DecisionTreeSpec spec;
      spec.label_column = ds->label;
      spec.positive_class = ds->positive;
      if (!approach.empty()) spec.approach = *sel::ParseApproach(approach);
      if (!sensitivity.empty()) {
        spec.sensitivity = *sel::ParseSensitivityMode(sensitivity);
      }
      spec.weights = weights;
      spec.generations = generations;
      spec.population = population;
      spec.epsilon = eps[e];
      spec.public_max_rows = kAdultPublicMaxRows;
      absl::StatusOr<sel::DecisionTreeRequest> request =
          sel::BuildDecisionTreeRequest(train.schema(), *cube, spec);
      if (!request.ok()) {
        std::fprintf(stderr, "%s\n", request.status().ToString().c_str());
        return 1;
      }
      if (selected) request->genetic.selected = selected;
      if (initial_depth) request->genetic.initial_depth = initial_depth;
      if (max_depth) request->genetic.max_depth = max_depth;
      if (!grid) {
        for (sel::FeatureDomain& d : request->public_domains) {
          d.thresholds.clear();
        }
      }
      if (seed == 0 && e == 0) {
        const sel::GeneticParameters& g = request->genetic;
        config = absl::StrCat(
            sel::ApproachName(request->selection.approach), "/",
            sel::SensitivityModeName(request->selection.sensitivity),
            " w=", absl::StrJoin(request->selection.weights, ":"),
            " G=", g.generations, " p=", g.population, " s=", g.selected,
            " d=", g.initial_depth, " dmax=", g.max_depth,
            " grid=", grid ? 1 : 0);
      }
      if (seed == 0) {
        const sel::TreeBudgetAssessment a = sel::AssessTreeBudget(*request);
        std::printf("# eps=%g: useful_epsilon=%.3g%s\n", eps[e],
                    a.useful_epsilon, a.sufficient ? "" : " (caveat)");
      }
      testing::SeededUrbg urbg(seed);
      const auto start = std::chrono::steady_clock::now();
      absl::StatusOr<sel::DecisionTreeResult> result =
          sel::TrainDpDecisionTree(train, *request, urbg);
      const double seconds = std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
      if (!result.ok()) {
        std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
        return 1;
      }
      dp[e].push_back(score(result->tree, seconds));
      if (e == 0) {
        const auto t0 = std::chrono::steady_clock::now();
        const sel::DecisionTree ref =
            GreedyTree(train, *ds, request->public_domains, np_depth);
        np.push_back(score(ref, std::chrono::duration<double>(
                                    std::chrono::steady_clock::now() - t0)
                                    .count()));
      }
    }
  }
  std::printf("# %s, %d seeds, %s\n", tag.c_str(), seeds, config.c_str());
  for (size_t e = 0; e < eps.size(); ++e) {
    const std::string line = Summary(dp[e]);
    std::printf("dp eps=%-4g %s\n", eps[e], line.c_str());
    AppendCsv(
        out + "/tree_defaults.csv", "tag,config,epsilon,seeds,summary",
        absl::StrCat(tag, ",", config, ",", eps[e], ",", seeds, ",", line));
  }
  const std::string line = Summary(np);
  std::printf("non-private depth=%d %s\n", np_depth, line.c_str());
  AppendCsv(
      out + "/tree_defaults.csv", "tag,config,epsilon,seeds,summary",
      absl::StrCat(tag, ",greedy depth ", np_depth, ",inf,", seeds, ",", line));
  return 0;
}

}  // namespace
}  // namespace dpq::bench

int main(int argc, char** argv) { return dpq::bench::Main(argc, argv); }
