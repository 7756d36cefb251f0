// Reproduction of the DP-MOET experiments (paper: dp-multi-objective-
// selection, Table 1 and Figure 2; docs/selection-experiments.md). Not run
// by ctest.
//
//   moet_experiment [--part pareto|agg|all] [--datasets nltcs,adult,acs]
//                   [--runs R] [--eps 0.01,...] [--out DIR]
//
// Table 1 (Pareto): per run i (seed i), NODP-MOET-Pareto once, then every DP
// variant at every epsilon; mean C(NODP, DP) with strict dominance on (TPR,
// TNR) over the full data. p=30, s=3, paper k=3 (= 2 generations + the final
// selection), d=4, d_max=10, o=3. Variants: MOg (global, Delta = |T| - 1 as in
// the paper), MOl (local dampening, corrected delta^TPR/TNR) and MOg-artifact
// (global with Delta = n_records - 1, the artifact's choice;
// docs/selection-experiments.md), to explain the paper's flat global column.
//
// Figure 2 (Aggregation): fixed 67/33 train/test split (seed 0); p=100,
// s=20, paper k=2 (= 1 generation), d=3, d_max=5, o=1, w=(3,2); mean
// fitness 3 TPR + 2 TNR of the output tree on the test split, for
// NODP-MOET-Agg, DP-MOET-Agg_global and DP-MOET-Agg_local, and DiffPID3
// (depth 5), a global-sensitivity stand-in for the LocalDiffPID3 baseline
// (diffpid3_baseline.h).
//
// The random source is a seeded generator (tests/testing/seeded_urbg.h):
// reproducible, NOT private. Experiments only.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/selection/diffpid3_baseline.h"
#include "bench/selection/experiment_common.h"
#include "bench/selection/experiment_data.h"
#include "bench/selection/experiment_metrics.h"
#include "core/dp/exponential_mechanism.h"
#include "core/selection/dominance.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/tree/dp_moet.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench {
namespace {

using core::selection::Approach;
using core::selection::DecisionTree;
using core::selection::EncodedTable;
using core::selection::FeatureDomain;
using core::selection::GeneticParameters;
using core::selection::SelectionOptions;
using core::selection::SensitivityMode;
using core::selection::TreeSelector;

std::vector<Point> Objectives(const EncodedTable& data,
                              const std::vector<DecisionTree>& trees) {
  std::vector<Point> out;
  for (const DecisionTree& t : trees) {
    const auto c = data.Evaluate(t);
    out.push_back({c.Tpr(), c.Tnr()});
  }
  return out;
}

// The artifact's Pareto-global step: EM on PS with Delta = n_records - 1,
// `count` draws without replacement at epsilon / count each.
TreeSelector ArtifactParetoGlobal(size_t num_records,
                                  core::dp::SecureUrbg& urbg) {
  return [num_records, &urbg](
             const core::selection::ScoreTable& scores, size_t count,
             double epsilon) -> absl::StatusOr<std::vector<size_t>> {
    const std::vector<int64_t> ps = core::selection::ParetoScores(scores);
    std::vector<size_t> remaining(ps.size());
    for (size_t i = 0; i < ps.size(); ++i) remaining[i] = i;
    std::vector<size_t> chosen;
    for (size_t j = 0; j < count; ++j) {
      std::vector<double> q;
      for (size_t r : remaining) q.push_back(static_cast<double>(ps[r]));
      absl::StatusOr<size_t> pick = core::dp::SampleExponentialMechanism(
          urbg, q, epsilon / count, static_cast<double>(num_records - 1));
      if (!pick.ok()) return pick.status();
      chosen.push_back(remaining[*pick]);
      remaining.erase(remaining.begin() + *pick);
    }
    return chosen;
  };
}

absl::StatusOr<TreeDataset> Load(const std::string& dir,
                                 const std::string& name) {
  if (name == "adult") return LoadAdult(dir);
  if (name == "nltcs") return LoadBinaryDat(dir, "nltcs", 13);
  if (name == "acs") return LoadBinaryDat(dir, "acs", 10);
  return absl::InvalidArgumentError("unknown dataset " + name);
}

void RunPareto(const TreeDataset& ds, int runs, const std::vector<double>& eps,
               const std::vector<double>& big_eps, const std::string& out) {
  auto data =
      EncodedTable::Create(ds.table, ds.label, ds.positive, ds.features);
  if (!data.ok()) {
    std::fprintf(stderr, "%s\n", data.status().ToString().c_str());
    return;
  }
  const std::vector<FeatureDomain> domains = data->ObservedDomains();
  GeneticParameters params;
  params.population = 30;
  params.selected = 3;
  params.generations = 2;
  params.initial_depth = 4;
  params.max_depth = 10;
  const size_t o = 3;
  struct Variant {
    std::string name;
    SensitivityMode mode;
    bool artifact;
  };
  const std::vector<Variant> variants = {
      {"MOg", SensitivityMode::kGlobal, false},
      {"MOl", SensitivityMode::kLocal, false},
      {"MOg-artifact", SensitivityMode::kGlobal, true}};
  std::vector<double> all_eps = eps;
  all_eps.insert(all_eps.end(), big_eps.begin(), big_eps.end());
  // values[variant][eps] over runs.
  std::vector<std::vector<std::vector<double>>> values(
      variants.size(), std::vector<std::vector<double>>(all_eps.size()));
  for (int run = 0; run < runs; ++run) {
    testing::SeededUrbg urbg(run);
    auto nodp = core::selection::RunMoet(
        *data, domains, params, o, 1.0,
        core::selection::NonPrivateTreeSelector(Approach::kPareto, {}), urbg);
    if (!nodp.ok()) return;
    const std::vector<Point> reference = Objectives(*data, *nodp);
    for (size_t v = 0; v < variants.size(); ++v) {
      for (size_t e = 0; e < all_eps.size(); ++e) {
        SelectionOptions options;
        options.approach = Approach::kPareto;
        options.sensitivity = variants[v].mode;
        const TreeSelector selector =
            variants[v].artifact
                ? ArtifactParetoGlobal(data->num_rows(), urbg)
                : core::selection::DpTreeSelector(*data, options, urbg);
        auto trees = core::selection::RunMoet(*data, domains, params, o,
                                              all_eps[e], selector, urbg);
        if (!trees.ok()) {
          std::fprintf(stderr, "%s\n", trees.status().ToString().c_str());
          return;
        }
        values[v][e].push_back(CoverageC(reference, Objectives(*data, *trees)));
      }
    }
  }
  for (size_t v = 0; v < variants.size(); ++v) {
    for (size_t e = 0; e < all_eps.size(); ++e) {
      const MeanAndError m = Summarize(values[v][e]);
      std::printf("table1 %-6s %-13s eps=%-8g C=%.3f (+-%.3f, %d runs)\n",
                  ds.name.c_str(), variants[v].name.c_str(), all_eps[e], m.mean,
                  m.stderr_of_mean, runs);
      AppendCsv(out + "/table1.csv",
                "dataset,method,epsilon,runs,mean_c,stderr",
                absl::StrCat(ds.name, ",", variants[v].name, ",", all_eps[e],
                             ",", runs, ",", m.mean, ",", m.stderr_of_mean));
    }
  }
  std::fflush(stdout);
}

void RunAgg(const TreeDataset& ds, int runs, const std::vector<double>& eps,
            const std::string& out) {
  // Fixed 67/33 split (the artifact: train_test_split(test_size=0.33,
  // random_state=0)); a seeded shuffle here.
  std::vector<size_t> rows(ds.table.num_rows());
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  testing::SeededUrbg split_urbg(0);
  for (size_t i = rows.size(); i > 1; --i) {
    std::swap(rows[i - 1], rows[split_urbg.UniformBelow(i)]);
  }
  const size_t test_size = rows.size() * 33 / 100;
  const std::vector<size_t> test(rows.begin(), rows.begin() + test_size);
  const std::vector<size_t> train(rows.begin() + test_size, rows.end());
  auto train_data =
      EncodedTable::Create(ds.table, ds.label, ds.positive, ds.features, train);
  auto test_data =
      EncodedTable::Create(ds.table, ds.label, ds.positive, ds.features, test);
  if (!train_data.ok() || !test_data.ok()) return;
  // Domains from the whole table: the public attribute domains.
  auto full =
      EncodedTable::Create(ds.table, ds.label, ds.positive, ds.features);
  if (!full.ok()) return;
  const std::vector<FeatureDomain> domains = full->ObservedDomains();
  GeneticParameters params;
  params.population = 100;
  params.selected = 20;
  params.generations = 1;
  params.initial_depth = 3;
  params.max_depth = 5;
  const std::vector<double> weights = {3, 2};
  auto fitness = [&](const DecisionTree& t) {
    const auto c = test_data->Evaluate(t);
    return 3 * c.Tpr() + 2 * c.Tnr();
  };
  auto discretized =
      DiscretizedTable::Create(ds.table, ds.label, ds.positive, ds.features);
  if (!discretized.ok()) return;
  std::vector<double> nodp_values;
  std::vector<std::vector<double>> global(eps.size()), local(eps.size()),
      id3(eps.size());
  for (int run = 0; run < runs; ++run) {
    testing::SeededUrbg urbg(run);
    auto nodp =
        core::selection::RunMoet(*train_data, domains, params, 1, 1.0,
                                 core::selection::NonPrivateTreeSelector(
                                     Approach::kAggregation, weights),
                                 urbg);
    if (!nodp.ok()) return;
    nodp_values.push_back(fitness(nodp->front()));
    for (size_t e = 0; e < eps.size(); ++e) {
      id3[e].push_back(
          Id3Fitness(*TrainDiffPId3(*discretized, train, eps[e], 5, urbg),
                     *discretized, test));
      for (SensitivityMode mode :
           {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
        SelectionOptions options;
        options.approach = Approach::kAggregation;
        options.sensitivity = mode;
        options.weights = weights;
        auto trees = core::selection::RunMoet(
            *train_data, domains, params, 1, eps[e],
            core::selection::DpTreeSelector(*train_data, options, urbg), urbg);
        if (!trees.ok()) {
          std::fprintf(stderr, "%s\n", trees.status().ToString().c_str());
          return;
        }
        (mode == SensitivityMode::kGlobal ? global : local)[e].push_back(
            fitness(trees->front()));
      }
    }
  }
  const MeanAndError nodp = Summarize(nodp_values);
  auto emit = [&](const std::string& method, double e, const MeanAndError& m) {
    std::printf("figure2 %-6s %-12s eps=%-8g fitness=%.3f (+-%.3f, %d runs)\n",
                ds.name.c_str(), method.c_str(), e, m.mean, m.stderr_of_mean,
                runs);
    AppendCsv(out + "/figure2.csv",
              "dataset,method,epsilon,runs,mean_fitness,stderr",
              absl::StrCat(ds.name, ",", method, ",", e, ",", runs, ",", m.mean,
                           ",", m.stderr_of_mean));
  };
  for (size_t e = 0; e < eps.size(); ++e) {
    emit("NODP-Agg", eps[e], nodp);
    emit("Agg_global", eps[e], Summarize(global[e]));
    emit("Agg_local", eps[e], Summarize(local[e]));
    emit("DiffPID3", eps[e], Summarize(id3[e]));
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace dpq::bench

int main(int argc, char** argv) {
  using namespace dpq::bench;
  const std::string dir = Flag(argc, argv, "data", DPQ_SHARED_DATA_DIR);
  const std::string out = Flag(argc, argv, "out", ".");
  const std::string part = Flag(argc, argv, "part", "all");
  const int runs = std::atoi(Flag(argc, argv, "runs", "20").c_str());
  for (const std::string& name :
       ListFlag(argc, argv, "datasets", "nltcs,adult,acs")) {
    auto ds = Load(dir, name);
    if (!ds.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(),
                   ds.status().ToString().c_str());
      return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    if (part == "pareto" || part == "all") {
      RunPareto(*ds, runs,
                DoubleListFlag(argc, argv, "eps", "0.01,0.05,0.1,0.5,1,2,5"),
                DoubleListFlag(argc, argv, "big-eps", "100,10000,100000"), out);
    }
    if (part == "agg" || part == "all") {
      RunAgg(*ds, runs,
             DoubleListFlag(argc, argv, "agg-eps", "0.01,0.05,0.1,0.5,1,2"),
             out);
    }
    std::printf(
        "# %s (%zu rows) done in %.1f s\n", name.c_str(), ds->table.num_rows(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return 0;
}
