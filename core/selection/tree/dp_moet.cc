#include "core/selection/tree/dp_moet.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/selection/dominance.h"
#include "core/selection/rate_sensitivity.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

absl::Status CheckRange(const char* name, uint64_t value, uint64_t lo,
                        uint64_t hi) {
  if (value < lo || value > hi) {
    return absl::InvalidArgumentError(
        absl::StrCat("Genetic parameter ", name, " must be in [", lo, ", ", hi,
                     "], but is ", value, "."));
  }
  return absl::OkStatus();
}

std::vector<DecisionTree> Pick(const std::vector<DecisionTree>& population,
                               const std::vector<size_t>& chosen) {
  std::vector<DecisionTree> out;
  out.reserve(chosen.size());
  for (size_t i : chosen) out.push_back(population[i]);
  return out;
}

absl::StatusOr<std::vector<size_t>> Select(const TreeSelector& selector,
                                           const ScoreTable& scores,
                                           size_t count, double epsilon) {
  ASSIGN_OR_RETURN(std::vector<size_t> chosen,
                   selector(scores, count, epsilon));
  if (chosen.size() != count) {
    return absl::InternalError(absl::StrCat(
        "Tree selection returned ", chosen.size(), " trees, not ", count, "."));
  }
  return chosen;
}

// One round of offspring (Algorithm 1, lines 5-10): p/2 pairs of distinct
// parents drawn from the current population, which already holds the
// children added earlier in the round (as the artifact does).
// Polls `stop` before every pair (a pair costs O(tree size) copies and
// operators); a stopped round returns util::StoppedError() having drawn
// nothing more.
absl::Status Breed(const std::vector<FeatureDomain>& features,
                   const GeneticParameters& params, dp::SecureUrbg& urbg,
                   std::vector<DecisionTree>& population,
                   const util::StopFn& stop) {
  const int max_levels = static_cast<int>(params.max_depth);
  for (uint32_t j = 0; j < params.population / 2; ++j) {
    if (util::StopRequested(stop)) return util::StoppedError();
    const size_t n = population.size();
    const size_t i1 = urbg.UniformBelow(n);
    size_t i2 = i1;
    if (n > 1) {
      i2 = urbg.UniformBelow(n - 1);
      if (i2 >= i1) ++i2;
    }
    DecisionTree a = population[i1];
    DecisionTree b = population[i2];
    Crossover(a, b, urbg);
    Mutate(a, features, max_levels, urbg);
    Mutate(b, features, max_levels, urbg);
    Prune(a, max_levels, urbg);
    Prune(b, max_levels, urbg);
    population.push_back(std::move(a));
    population.push_back(std::move(b));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateGeneticParameters(const GeneticParameters& params,
                                       size_t output) {
  RETURN_IF_ERROR(
      CheckRange("population", params.population, 2, kMaxPopulation));
  RETURN_IF_ERROR(
      CheckRange("generations", params.generations, 1, kMaxGenerations));
  RETURN_IF_ERROR(
      CheckRange("selected", params.selected, 1, params.population));
  RETURN_IF_ERROR(CheckRange("max_depth", params.max_depth, 1, kMaxTreeLevels));
  RETURN_IF_ERROR(
      CheckRange("initial_depth", params.initial_depth, 1, params.max_depth));
  RETURN_IF_ERROR(CheckRange("output", output, 1,
                             uint64_t{params.population} + params.selected));
  const uint64_t trees = uint64_t{params.population} + params.selected;
  const uint64_t nodes_per_tree = (uint64_t{1} << params.max_depth) - 1;
  if (trees * nodes_per_tree > kMaxPopulationNodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Genetic parameters too large: (population + selected) * "
        "(2^max_depth - 1) = ",
        trees * nodes_per_tree, " tree nodes, above ", "the limit ",
        kMaxPopulationNodes, "; lower population or max_depth."));
  }
  return absl::OkStatus();
}

ScoreTable ScorePopulation(const EncodedTable& data,
                           const std::vector<DecisionTree>& population) {
  ScoreTable scores;
  scores.num_candidates = population.size();
  scores.num_objectives = 2;
  scores.scores.assign(2 * population.size(), 0.0);
  for (size_t r = 0; r < population.size(); ++r) {
    const ConfusionCounts counts = data.Evaluate(population[r]);
    scores.at(0, r) = counts.Tpr();
    scores.at(1, r) = counts.Tnr();
  }
  return scores;
}

namespace {

// ScorePopulation, polling `stop` before every tree and every few thousand
// rows inside it (EncodedTable::Evaluate): a stopped run ends within
// ~10^5 node visits whatever the population, depth and row count.
absl::StatusOr<ScoreTable> ScoreUnlessStopped(
    const EncodedTable& data, const std::vector<DecisionTree>& population,
    const util::StopFn& stop) {
  if (!stop) return ScorePopulation(data, population);
  ScoreTable scores;
  scores.num_candidates = population.size();
  scores.num_objectives = 2;
  scores.scores.assign(2 * population.size(), 0.0);
  for (size_t r = 0; r < population.size(); ++r) {
    if (util::StopRequested(stop)) return util::StoppedError();
    ASSIGN_OR_RETURN(const ConfusionCounts counts,
                     data.Evaluate(population[r], stop));
    scores.at(0, r) = counts.Tpr();
    scores.at(1, r) = counts.Tnr();
  }
  return scores;
}

}  // namespace

absl::StatusOr<std::vector<DecisionTree>> RunMoet(
    const EncodedTable& data, const std::vector<FeatureDomain>& features,
    const GeneticParameters& params, size_t output, double epsilon,
    const TreeSelector& selector, dp::SecureUrbg& urbg,
    const util::StopFn& stop) {
  RETURN_IF_ERROR(ValidateGeneticParameters(params, output));
  if (features.empty()) {
    return absl::InvalidArgumentError("DP-MOET needs at least one feature.");
  }
  // generations + 1 selections; the parts sum to at most epsilon exactly.
  const double epsilon_per_call =
      dp::EqualPart(epsilon, uint64_t{params.generations} + 1);
  std::vector<DecisionTree> population;
  population.reserve(params.population + params.selected);
  for (uint32_t i = 0; i < params.population; ++i) {
    if (util::StopRequested(stop)) return util::StoppedError();
    population.push_back(
        RandomTree(features, static_cast<int>(params.initial_depth), urbg));
  }
  for (uint32_t g = 0; g < params.generations; ++g) {
    ASSIGN_OR_RETURN(const ScoreTable scores,
                     ScoreUnlessStopped(data, population, stop));
    ASSIGN_OR_RETURN(
        std::vector<size_t> survivors,
        Select(selector, scores, params.selected, epsilon_per_call));
    if (util::StopRequested(stop)) return util::StoppedError();
    population = Pick(population, survivors);
    RETURN_IF_ERROR(Breed(features, params, urbg, population, stop));
  }
  ASSIGN_OR_RETURN(const ScoreTable scores,
                   ScoreUnlessStopped(data, population, stop));
  ASSIGN_OR_RETURN(std::vector<size_t> best,
                   Select(selector, scores, output, epsilon_per_call));
  return Pick(population, best);
}

TreeSelector DpTreeSelector(const EncodedTable& data,
                            const SelectionOptions& options,
                            dp::SecureUrbg& urbg) {
  // delta^TPR and delta^TNR depend only on P and N (rate_sensitivity.h).
  auto tpr = std::make_shared<RateSensitivity>(data.positives());
  auto tnr = std::make_shared<RateSensitivity>(data.negatives());
  return [tpr, tnr, options, &urbg](
             const ScoreTable& scores, size_t count,
             double epsilon) -> absl::StatusOr<std::vector<size_t>> {
    SelectionOptions call = options;
    call.k = count;
    call.epsilon = epsilon;
    const SensitivityFunction* const sensitivities[] = {tpr.get(), tnr.get()};
    return SelectMultiObjective(scores, sensitivities, call, urbg);
  };
}

TreeSelector NonPrivateTreeSelector(Approach approach,
                                    std::vector<double> weights) {
  return [approach, weights](const ScoreTable& scores, size_t count,
                             double) -> absl::StatusOr<std::vector<size_t>> {
    std::vector<double> value;
    if (approach == Approach::kPareto) {
      for (int64_t ps : ParetoScores(scores)) {
        value.push_back(static_cast<double>(ps));
      }
    } else {
      if (weights.size() != scores.num_objectives) {
        return absl::InvalidArgumentError(
            absl::StrCat("Expected ", scores.num_objectives, " weights, got ",
                         weights.size(), "."));
      }
      value.assign(scores.num_candidates, 0.0);
      for (size_t r = 0; r < scores.num_candidates; ++r) {
        for (size_t i = 0; i < scores.num_objectives; ++i) {
          value[r] += weights[i] * scores.at(i, r);
        }
      }
    }
    std::vector<size_t> order(scores.num_candidates);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return value[a] > value[b]; });
    order.resize(std::min(count, order.size()));
    return order;
  };
}

}  // namespace dpq::core::selection
