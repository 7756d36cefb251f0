#include "core/private/private_measures.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/graph/edge_addition.h"
#include "core/measures/clique_lp_bound.h"
#include "core/measures/vertex_cover.h"
#include "core/private/gem_release.h"
#include "core/private/group_bound_release.h"
#include "core/private/noisy_count.h"
#include "core/private/private_vertex_cover.h"
#include "core/private/projection_quality.h"
#include "core/private/release_interval.h"
#include "core/private/theta_candidates.h"
#include "core/private/threshold_selection.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

// A release before its interval: the result (value unclamped) and what its
// interval may use.
struct RawRelease {
  PrivateMeasureResult result;
  IntervalInputs interval;
};

absl::StatusOr<RawRelease> ReleaseRepair(dp::SecureUrbg& urbg,
                                         const graph::Graph& g,
                                         const PrivateMeasureRequest& request) {
  RawRelease raw;
  PrivateMeasureResult& out = raw.result;
  out.method = std::string(RepairMethodName(request.repair_method));
  out.estimate = EstimateOf(request.repair_method);
  out.epsilon_release = request.epsilon;
  out.epsilon_spent = request.epsilon;
  NoisyCount noisy;
  switch (request.repair_method) {
    case RepairMethod::kVertexCover: {
      // A 2-approximation: the statistic is at least I_R, at most 2 I_R.
      ASSIGN_OR_RETURN(noisy, PrivateVertexCoverSize(urbg, g, request.epsilon));
      raw.interval.gap = GapBound::kNoneNeeded;
      raw.interval.statistic_at_most_twice = true;
      break;
    }
    case RepairMethod::kCoverBound: {
      // Sensitivity 1: measures::CliqueLpCoverBound explains and tests why
      // (with the FD blocks or, for a bare graph, without them).
      uint64_t cover = 0;
      if (request.cover_bound.has_value()) {
        cover = *request.cover_bound;
      } else {
        ASSIGN_OR_RETURN(const measures::CliqueLpBound lp,
                         measures::CliqueLpCoverBound(g, {}));
        cover = lp.bound;
      }
      const int64_t bound = static_cast<int64_t>(cover);
      ASSIGN_OR_RETURN(noisy,
                       ReleaseNoisyCount(urbg, bound, 1.0, request.epsilon));
      raw.interval.gap = GapBound::kCoverLp;
      break;
    }
    case RepairMethod::kExact: {
      // The minimum vertex cover moves by at most 1 per node (add the new
      // node to a cover; a cover minus the removed node covers the rest).
      if (!request.exact_repair.has_value()) {
        return absl::InvalidArgumentError(
            "Method 'exact' for I_R is available only on datasets whose "
            "owner registered them with exact_repair; use cover_bound.");
      }
      ASSIGN_OR_RETURN(
          noisy,
          ReleaseNoisyCount(urbg, static_cast<int64_t>(*request.exact_repair),
                            1.0, request.epsilon));
      raw.interval.gap = GapBound::kNoneNeeded;
      break;
    }
  }
  out.value = noisy.value;
  out.bound95 = noisy.bound95;
  raw.interval.noise_scale = noisy.scale;
  return raw;
}

// What a flow-extension release (gem, group_bound) hands to its result.
struct FlowOutcome {
  uint32_t theta = 0;
  int64_t value = 0, bound95 = 0;
  double noise_scale = 0;
  double epsilon_degree_bound = 0, epsilon_selection = 0, epsilon_release = 0;
  std::optional<uint32_t> noisy_degree_bound;
  std::optional<uint64_t> degree_upper;
  std::optional<int64_t> uncovered_upper;
  size_t num_candidates = 0;
};

RawRelease FromFlow(SelectionMethod method,
                    const PrivateMeasureRequest& request,
                    const FlowOutcome& f) {
  RawRelease raw;
  PrivateMeasureResult& out = raw.result;
  out.method = std::string(SelectionMethodName(method));
  out.estimate = Estimate::kLowerBound;
  out.epsilon_spent = request.epsilon;
  out.epsilon_degree_bound = f.epsilon_degree_bound;
  out.epsilon_selection = f.epsilon_selection;
  out.epsilon_release = f.epsilon_release;
  out.noisy_degree_bound = f.noisy_degree_bound;
  out.theta = f.theta;
  out.value = f.value;
  out.bound95 = f.bound95;
  out.num_candidates = f.num_candidates;
  raw.interval.noise_scale = f.noise_scale;
  raw.interval.gap = GapBound::kFlowExtension;
  raw.interval.theta = f.theta;
  raw.interval.degree_upper = f.degree_upper;
  raw.interval.uncovered_upper = f.uncovered_upper;
  return raw;
}

absl::StatusOr<RawRelease> ReleaseGem(dp::SecureUrbg& urbg,
                                      const graph::Graph& g,
                                      const PrivateMeasureRequest& request,
                                      absl::Span<const uint32_t> candidates) {
  ASSIGN_OR_RETURN(
      const GemRelease gem,
      ReleaseWithGem(urbg, g, request.measure, candidates, request.epsilon,
                     request.degree_bounds, GemParameters(), request.stop));
  return FromFlow(SelectionMethod::kGem, request,
                  {.theta = gem.theta,
                   .value = gem.value,
                   .bound95 = gem.bound95,
                   .noise_scale = gem.noise_scale,
                   .epsilon_degree_bound = gem.epsilon_degree_bound,
                   .epsilon_selection = gem.epsilon_selection,
                   .epsilon_release = gem.epsilon_release,
                   .noisy_degree_bound = gem.noisy_degree_bound,
                   .degree_upper = gem.degree_upper,
                   .uncovered_upper = std::nullopt,
                   .num_candidates = gem.num_candidates});
}

absl::StatusOr<RawRelease> ReleaseGroupBound(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request, uint32_t max_rows) {
  ASSIGN_OR_RETURN(
      const GroupBoundRelease r,
      ReleaseWithGroupBound(urbg, g, request.measure, request.epsilon, max_rows,
                            request.degree_bounds, request.degree_keys,
                            GroupBoundParameters(), request.stop));
  // The steps before the release (B~, U~ or the scale test) are reported
  // as the degree bound's and the selection's parts of epsilon.
  return FromFlow(SelectionMethod::kGroupBound, request,
                  {.theta = r.theta,
                   .value = r.value,
                   .bound95 = r.bound95,
                   .noise_scale = r.noise_scale,
                   .epsilon_degree_bound = r.epsilon_group_bound,
                   .epsilon_selection = r.epsilon_uncovered + r.epsilon_scale,
                   .epsilon_release = r.epsilon_release,
                   .noisy_degree_bound = r.noisy_group_bound,
                   .degree_upper = r.degree_upper,
                   .uncovered_upper = r.uncovered_upper,
                   .num_candidates = 2});  // B~ and theta 2 or theta2
}

// The interval, the clamped value and what the buyer is told of the
// truncation (all post-processing).
absl::StatusOr<PrivateMeasureResult> Finish(
    const PrivateMeasureRequest& request, RawRelease raw) {
  PrivateMeasureResult& out = raw.result;
  IntervalInputs& in = raw.interval;
  in.measure = request.measure;
  in.value = out.value;
  in.max_rows = request.public_max_rows;
  if (in.degree_upper.has_value() && request.public_max_rows >= 1) {
    in.degree_upper = std::min<uint64_t>(
        *in.degree_upper, std::max<uint64_t>(1, request.public_max_rows - 1));
  }
  ASSIGN_OR_RETURN(const ReleaseInterval interval, ComputeReleaseInterval(in));
  out.value = interval.value;
  out.lower95 = interval.lower;
  out.upper95 = interval.upper;
  out.upper_proved = interval.upper_proved;
  if (request.measure != Measure::kRepair) {
    out.degree_upper = in.degree_upper;
    out.truncated = !(in.gap == GapBound::kNoneNeeded ||
                      (in.degree_upper.has_value() && out.theta.has_value() &&
                       *out.theta >= *in.degree_upper));
  }
  return out;
}

// Fails (before any noise is drawn) if releasing with threshold `theta` at
// `epsilon` would need a noise scale DiscreteLaplace cannot represent.
absl::Status CheckReleaseScale(Measure measure, uint32_t theta,
                               double epsilon) {
  ASSIGN_OR_RETURN(const double sensitivity,
                   ProjectedStatisticSensitivity(measure, theta));
  return dp::DiscreteLaplace::ForSensitivity(sensitivity, epsilon).status();
}

}  // namespace

absl::StatusOr<SelectionMethod> ParseSelectionMethod(absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(text);
  if (t == "group_bound") return SelectionMethod::kGroupBound;
  if (t == "gem") return SelectionMethod::kGem;
  if (t == "optimized") return SelectionMethod::kOptimized;
  if (t == "hierarchical") return SelectionMethod::kHierarchical;
  if (t == "basic") return SelectionMethod::kBasic;
  if (t == "baseline") return SelectionMethod::kBaseline;
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown method '", text,
                   "' for I_MI or I_P; expected one of group_bound (the "
                   "default), gem, optimized, hierarchical, basic, "
                   "baseline."));
}

absl::string_view SelectionMethodName(SelectionMethod method) {
  switch (method) {
    case SelectionMethod::kGroupBound:
      return "group_bound";
    case SelectionMethod::kGem:
      return "gem";
    case SelectionMethod::kOptimized:
      return "optimized";
    case SelectionMethod::kHierarchical:
      return "hierarchical";
    case SelectionMethod::kBasic:
      return "basic";
    case SelectionMethod::kBaseline:
      return "baseline";
  }
  return "?";
}

absl::StatusOr<RepairMethod> ParseRepairMethod(absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(text);
  if (t == "cover_bound") return RepairMethod::kCoverBound;
  if (t == "exact") return RepairMethod::kExact;
  if (t == "vertex_cover") return RepairMethod::kVertexCover;
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown method '", text,
                   "' for I_R; expected one of cover_bound (the default), "
                   "exact, vertex_cover."));
}

absl::string_view RepairMethodName(RepairMethod method) {
  switch (method) {
    case RepairMethod::kCoverBound:
      return "cover_bound";
    case RepairMethod::kExact:
      return "exact";
    case RepairMethod::kVertexCover:
      return kVertexCoverMethodName;
  }
  return "?";
}

absl::string_view EstimateName(Estimate estimate) {
  switch (estimate) {
    case Estimate::kExact:
      return "exact";
    case Estimate::kLowerBound:
      return "lower_bound";
    case Estimate::kUpperBound:
      return "upper_bound";
  }
  return "?";
}

// Every I_MI / I_P method releases a truncated statistic (the projection or
// the flow extension), which never exceeds the measure.
Estimate EstimateOf(SelectionMethod) { return Estimate::kLowerBound; }

Estimate EstimateOf(RepairMethod method) {
  switch (method) {
    case RepairMethod::kCoverBound:
      return Estimate::kLowerBound;
    case RepairMethod::kExact:
      return Estimate::kExact;
    case RepairMethod::kVertexCover:
      return Estimate::kUpperBound;
  }
  return Estimate::kLowerBound;
}

bool UsesDegreeBounds(SelectionMethod method) {
  return method == SelectionMethod::kGroupBound ||
         method == SelectionMethod::kGem ||
         method == SelectionMethod::kOptimized;
}

absl::Status CheckMeasureReleasable(Measure measure) {
  switch (measure) {
    case Measure::kMinimalInconsistency:
    case Measure::kProblematic:
    case Measure::kRepair:
      return absl::OkStatus();
    case Measure::kDrastic:
      return absl::InvalidArgumentError(
          "The drastic measure I_D cannot be released under differential "
          "privacy: it is a 0/1 answer (is there any conflict?) whose "
          "sensitivity is 1, so the noise needed to hide one tuple destroys "
          "it (paper, Section 3). Ask for I_P or I_MI instead.");
    case Measure::kMaximalConsistency:
      return absl::InvalidArgumentError(
          "The maximal consistency measure I_MC cannot be released under "
          "differential privacy: computing it is #P-complete and its "
          "sensitivity is exponential in the number of tuples (paper, "
          "Section 3 and Proposition 2). Ask for I_R, I_P or I_MI instead.");
  }
  return absl::InvalidArgumentError("Unknown measure.");
}

namespace {

absl::StatusOr<RawRelease> ComputeRawRelease(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request) {
  const Measure measure = request.measure;
  // No I_R method needs N, Theta or a selection method.
  if (measure == Measure::kRepair) {
    return ReleaseRepair(urbg, g, request);
  }

  ASSIGN_OR_RETURN(const uint32_t max_rows,
                   ValidatePublicMaxRows(request.public_max_rows));
  RETURN_IF_ERROR(CheckRowsWithinPublicMax(g.num_nodes(), max_rows));
  if (request.method == SelectionMethod::kGroupBound &&
      GroupBoundApplies(measure, request.degree_bounds) &&
      !request.candidates.has_value()) {
    return ReleaseGroupBound(urbg, g, request, max_rows);
  }

  RawRelease raw;
  PrivateMeasureResult& out = raw.result;
  out.method = std::string(SelectionMethodName(request.method));
  out.epsilon_spent = request.epsilon;

  if (request.method == SelectionMethod::kBaseline) {
    // Baseline 1 (paper Section 6): skip line 2 of Algorithm 2, theta = N,
    // and spend the whole budget on the release.
    out.theta = max_rows;
    out.epsilon_release = request.epsilon;
    out.num_candidates = 1;
  } else {
    std::vector<uint32_t> candidates;
    if (request.candidates.has_value()) {
      ASSIGN_OR_RETURN(candidates,
                       NormalizeThetaCandidates(*request.candidates, max_rows));
    } else {
      candidates = DefaultThetaCandidates(max_rows);
    }
    // group_bound runs as gem where some DC is not bounded (or when the buyer
    // named the candidates: gem chooses among them).
    if (request.method == SelectionMethod::kGem ||
        request.method == SelectionMethod::kGroupBound) {
      return ReleaseGem(urbg, g, request, candidates);
    }
    out.num_candidates = candidates.size();
    // The two parts sum to at most epsilon exactly (docs/privacy.md 5).
    const dp::TwoParts split =
        dp::SplitEpsilon(request.epsilon, kSelectionShare);
    const double epsilon_selection = split.first;
    out.epsilon_release = split.second;
    // Every theta the selection can return is <= N (optimized) or <=
    // max(Theta); check the largest release scale before any noise.
    const bool optimized = request.method == SelectionMethod::kOptimized &&
                           DegreeBoundApplies(request.degree_bounds);
    RETURN_IF_ERROR(CheckReleaseScale(measure,
                                      optimized ? max_rows : candidates.back(),
                                      out.epsilon_release));
    if (optimized) {
      double keyed = 0;
      for (const DcDegreeBound& b : request.degree_bounds) keyed += b.keyed;
      RETURN_IF_ERROR(
          dp::DiscreteLaplace::ForSensitivity(
              keyed,
              dp::SplitEpsilon(epsilon_selection, kDegreeBoundShare).first)
              .status());
    }

    ThresholdSelection selection;
    switch (request.method) {
      case SelectionMethod::kOptimized: {
        ASSIGN_OR_RETURN(
            selection,
            SelectThresholdOptimized(urbg, g, measure, candidates, max_rows,
                                     request.degree_bounds, epsilon_selection,
                                     out.epsilon_release));
        break;
      }
      case SelectionMethod::kHierarchical: {
        ASSIGN_OR_RETURN(
            selection, SelectThresholdHierarchical(urbg, g, measure, candidates,
                                                   epsilon_selection,
                                                   out.epsilon_release));
        break;
      }
      case SelectionMethod::kBasic: {
        ASSIGN_OR_RETURN(
            selection,
            SelectThresholdBasic(urbg, g, measure, candidates,
                                 epsilon_selection, out.epsilon_release));
        break;
      }
      case SelectionMethod::kBaseline:
      case SelectionMethod::kGem:
      case SelectionMethod::kGroupBound:
        break;  // handled above
    }
    out.theta = selection.theta;
    out.first_step_theta = selection.first_step_theta;
    out.noisy_degree_bound = selection.noisy_degree_bound;
    out.epsilon_degree_bound = selection.epsilon_degree_bound;
    out.epsilon_selection = selection.epsilon_selection;
  }

  // Algorithm 2 lines 3-4: project with theta*, release f(G_theta*) with
  // discrete Laplace noise of scale Delta_f(theta*) / eps2.
  const uint32_t theta = *out.theta;
  ASSIGN_OR_RETURN(
      const int64_t statistic,
      ProjectedStatistic(measure, graph::EdgeAdditionCounts(g, theta)));
  ASSIGN_OR_RETURN(const double sensitivity,
                   ProjectedStatisticSensitivity(measure, theta));
  ASSIGN_OR_RETURN(
      const NoisyCount noisy,
      ReleaseNoisyCount(urbg, statistic, sensitivity, out.epsilon_release));
  out.value = noisy.value;
  out.bound95 = noisy.bound95;
  raw.interval.noise_scale = noisy.scale;
  // Baseline's theta = N reaches every degree (n <= N): nothing is cut.
  // The other projections have no proved gap bound here.
  raw.interval.gap = request.method == SelectionMethod::kBaseline
                         ? GapBound::kNoneNeeded
                         : GapBound::kNone;
  return raw;
}

}  // namespace

absl::StatusOr<PrivateMeasureResult> ComputePrivateMeasure(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request) {
  RETURN_IF_ERROR(CheckMeasureReleasable(request.measure));
  RETURN_IF_ERROR(dp::ValidateEpsilon(request.epsilon));
  ASSIGN_OR_RETURN(RawRelease raw, ComputeRawRelease(urbg, g, request));
  return Finish(request, std::move(raw));
}

}  // namespace dpq::core::private_measures
