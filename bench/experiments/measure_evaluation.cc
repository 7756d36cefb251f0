#include "bench/experiments/measure_evaluation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/measures/vertex_cover.h"
#include "core/private/cover_bound.h"
#include "core/private/noisy_count.h"
#include "core/private/private_measures.h"
#include "core/util/status_macros.h"

namespace dpq::bench::experiments {

using core::measures::Measure;
namespace pm = core::private_measures;

std::vector<uint64_t> PaperThetaCandidates(uint64_t public_max_rows) {
  std::vector<uint64_t> out;
  for (uint64_t t : {1, 5, 10, 100, 500}) {
    if (t < public_max_rows) out.push_back(t);
  }
  for (uint64_t t = 1000; t < public_max_rows; t += 1000) out.push_back(t);
  out.push_back(public_max_rows);
  return out;
}

absl::StatusOr<GraphCase> BuildGraphCase(
    const core::table::Table& table,
    absl::Span<const core::constraints::DenialConstraint> dcs, double n_factor,
    double vertex_cover_seconds) {
  GraphCase c;
  ASSIGN_OR_RETURN(core::graph::ConflictGraph built,
                   core::graph::BuildConflictGraph(table, dcs));
  c.graph = std::move(built.graph);
  c.build_seconds = built.stats.build_seconds;
  c.public_max_rows = std::max<uint64_t>(
      1, static_cast<uint64_t>(
             std::ceil(n_factor * static_cast<double>(table.num_rows()))));
  c.candidates = PaperThetaCandidates(c.public_max_rows);
  ASSIGN_OR_RETURN(c.degree_bounds, pm::ComputeDegreeBounds(table, dcs));
  c.degree_keys = pm::CountDegreeKeys(dcs);
  ASSIGN_OR_RETURN(c.cover_bound, pm::ComputeCoverBound(table, dcs, c.graph));
  c.i_mi = c.graph.num_edges();
  c.i_p = c.graph.num_non_isolated();
  core::measures::VertexCoverLimits limits;
  limits.deadline = absl::Now() + absl::Seconds(vertex_cover_seconds);
  ASSIGN_OR_RETURN(core::measures::VertexCoverResult cover,
                   core::measures::MinimumVertexCover(c.graph, limits));
  if (cover.exact.has_value()) {
    c.i_r = static_cast<double>(*cover.exact);
    c.i_r_reference = "exact";
    c.exact_repair = *cover.exact;
  } else {
    c.i_r = cover.lp_value();
    c.i_r_reference = "lp";
  }
  c.i_r_greedy = static_cast<double>(cover.stable_greedy_size);
  return c;
}

std::string MethodName(Method method) {
  switch (method) {
    case Method::kBaseline1:
      return "baseline1";
    case Method::kBaseline2:
      return "baseline2";
    case Method::kBasic:
      return "basic";
    case Method::kHierarchical:
      return "hierarchical";
    case Method::kOptimized:
      return "optimized";
    case Method::kGem:
      return "gem";
    case Method::kGroupBound:
      return "group_bound";
    case Method::kVertexCover:
      return "vertex_cover";
    case Method::kCoverBound:
      return "cover_bound";
    case Method::kExact:
      return "exact";
  }
  return "";
}

absl::StatusOr<Method> ParseMethod(const std::string& name) {
  for (Method m : {Method::kBaseline1, Method::kBaseline2, Method::kBasic,
                   Method::kHierarchical, Method::kOptimized, Method::kGem,
                   Method::kGroupBound, Method::kVertexCover,
                   Method::kCoverBound, Method::kExact}) {
    if (MethodName(m) == name) return m;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown method '", name,
      "'; use baseline1, baseline2, basic, hierarchical, optimized, gem, "
      "group_bound, vertex_cover, cover_bound or exact."));
}

bool IsRepairMethod(Method method) {
  return method == Method::kVertexCover || method == Method::kCoverBound ||
         method == Method::kExact;
}

double Median(std::vector<double> xs) {
  if (xs.empty()) return std::numeric_limits<double>::quiet_NaN();
  for (double x : xs) {
    if (std::isnan(x)) return x;
  }
  std::sort(xs.begin(), xs.end());
  const size_t mid = xs.size() / 2;
  return xs.size() % 2 == 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

double Percentile(std::vector<double> xs, double q) {
  if (xs.empty()) return std::numeric_limits<double>::quiet_NaN();
  for (double x : xs) {
    if (std::isnan(x)) return x;
  }
  std::sort(xs.begin(), xs.end());
  const size_t rank =
      static_cast<size_t>(std::ceil(q * static_cast<double>(xs.size())));
  return xs[std::clamp<size_t>(rank, 1, xs.size()) - 1];
}

namespace {

struct OneRelease {
  double value = 0;
  double theta = 0;
  pm::Estimate estimate = pm::Estimate::kLowerBound;
  // The interval (baseline 2, which is not DP, has none: +-infinity).
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool upper_proved = false;
};

// Baseline 2 of Section 6.1: theta* = d_max. Edge addition with theta =
// d_max keeps every edge (no node reaches the bound), so the projected
// count is the exact count; the release noise is the one Algorithm 2 would
// add at that theta with all of epsilon. Not DP: d_max is private.
absl::StatusOr<OneRelease> BaselineTwo(core::dp::SecureUrbg& urbg,
                                       const GraphCase& c, Measure measure,
                                       double epsilon) {
  const double theta = std::max<uint32_t>(1, c.graph.max_degree());
  const bool mi = measure == Measure::kMinimalInconsistency;
  // I_MI: sensitivity theta (Lemma 1); I_P: theta + 1 (docs/privacy.md 6.1).
  ASSIGN_OR_RETURN(
      pm::NoisyCount noisy,
      pm::ReleaseNoisyCount(urbg, static_cast<int64_t>(mi ? c.i_mi : c.i_p),
                            mi ? theta : theta + 1, epsilon));
  OneRelease out;
  out.value = static_cast<double>(noisy.value);
  out.theta = theta;
  out.estimate = pm::Estimate::kExact;
  return out;
}

absl::StatusOr<OneRelease> Release(core::dp::SecureUrbg& urbg,
                                   const GraphCase& c, Measure measure,
                                   Method method, double epsilon) {
  if (IsRepairMethod(method) != (measure == Measure::kRepair)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Method ", MethodName(method), " does not apply to I_",
                     core::measures::MeasureName(measure), "."));
  }
  if (method == Method::kBaseline2)
    return BaselineTwo(urbg, c, measure, epsilon);
  pm::PrivateMeasureRequest request;
  request.measure = measure;
  request.epsilon = epsilon;
  request.public_max_rows = c.public_max_rows;
  request.candidates = c.candidates;
  request.degree_bounds = c.degree_bounds;
  request.degree_keys = c.degree_keys;
  request.cover_bound = c.cover_bound;
  // Every method is set explicitly: the core's defaults (gem, cover_bound)
  // are not the paper's.
  switch (method) {
    case Method::kBaseline1:
      request.method = pm::SelectionMethod::kBaseline;
      break;
    case Method::kBasic:
      request.method = pm::SelectionMethod::kBasic;
      break;
    case Method::kHierarchical:
      request.method = pm::SelectionMethod::kHierarchical;
      break;
    case Method::kOptimized:
      request.method = pm::SelectionMethod::kOptimized;
      break;
    case Method::kGem:
      // The service's default Theta (request.candidates unset).
      request.method = pm::SelectionMethod::kGem;
      request.candidates.reset();
      break;
    case Method::kGroupBound:
      request.method = pm::SelectionMethod::kGroupBound;
      request.candidates.reset();
      break;
    case Method::kVertexCover:
      request.repair_method = pm::RepairMethod::kVertexCover;
      break;
    case Method::kCoverBound:
      request.repair_method = pm::RepairMethod::kCoverBound;
      break;
    case Method::kExact:
      if (!c.exact_repair.has_value()) {
        return absl::FailedPreconditionError(
            "Method exact needs the proved minimum vertex cover, but the "
            "search did not finish on this graph (reference lp); raise "
            "--vc-seconds.");
      }
      request.repair_method = pm::RepairMethod::kExact;
      request.exact_repair = c.exact_repair;
      break;
    case Method::kBaseline2:
      break;  // handled above
  }
  ASSIGN_OR_RETURN(pm::PrivateMeasureResult result,
                   pm::ComputePrivateMeasure(urbg, c.graph, request));
  OneRelease out;
  out.value = static_cast<double>(result.value);
  out.theta =
      result.theta.has_value() ? static_cast<double>(*result.theta) : 0.0;
  out.estimate = result.estimate;
  out.lower = static_cast<double>(result.lower95);
  out.upper = static_cast<double>(result.upper95);
  out.upper_proved = result.upper_proved;
  return out;
}

double TrueValue(const GraphCase& c, Measure measure) {
  switch (measure) {
    case Measure::kMinimalInconsistency:
      return static_cast<double>(c.i_mi);
    case Measure::kProblematic:
      return static_cast<double>(c.i_p);
    default:
      return c.i_r;
  }
}

void MeanStd(const std::vector<double>& xs, double& mean, double& stddev) {
  mean = 0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  double var = 0;
  for (double x : xs) var += (x - mean) * (x - mean);
  stddev = std::sqrt(var / static_cast<double>(xs.size()));
}

}  // namespace

absl::StatusOr<RunStats> EvaluateMethod(core::dp::SecureUrbg& urbg,
                                        const GraphCase& graph_case,
                                        Measure measure, Method method,
                                        double epsilon, size_t runs) {
  if (runs == 0) return absl::InvalidArgumentError("runs must be positive.");
  RunStats stats;
  stats.runs = runs;
  stats.true_value = TrueValue(graph_case, measure);
  std::vector<double> values, errors, greedy_errors;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double theta_sum = 0, seconds = 0, covered = 0, proved = 0;
  std::map<uint32_t, size_t> theta_counts;
  for (size_t r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(OneRelease one,
                     Release(urbg, graph_case, measure, method, epsilon));
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (r == 0) {
      stats.first_seconds = took;
      stats.estimate = std::string(pm::EstimateName(one.estimate));
    }
    seconds += took;
    values.push_back(one.value);
    covered += one.lower <= stats.true_value && stats.true_value <= one.upper;
    proved += one.upper_proved;
    theta_sum += one.theta;
    ++theta_counts[static_cast<uint32_t>(one.theta)];
    errors.push_back(stats.true_value > 0
                         ? std::abs(stats.true_value - one.value) /
                               stats.true_value
                         : nan);
    const double greedy = graph_case.i_r_greedy;
    greedy_errors.push_back(measure == Measure::kRepair && greedy > 0
                                ? std::abs(greedy - one.value) / greedy
                                : nan);
  }
  MeanStd(values, stats.private_mean, stats.private_std);
  MeanStd(errors, stats.error_mean, stats.error_std);
  stats.error_median = Median(errors);
  stats.error_p90 = Percentile(errors, 0.9);
  stats.coverage = covered / static_cast<double>(runs);
  stats.upper_proved = proved / static_cast<double>(runs);
  size_t mode_count = 0;
  for (const auto& [theta, count] : theta_counts) {  // ascending theta
    if (count > mode_count) {
      stats.theta_mode = theta;
      mode_count = count;
    }
  }
  MeanStd(greedy_errors, stats.greedy_error_mean, stats.greedy_error_std);
  stats.theta_mean = theta_sum / static_cast<double>(runs);
  stats.seconds_mean = seconds / static_cast<double>(runs);
  return stats;
}

}  // namespace dpq::bench::experiments
