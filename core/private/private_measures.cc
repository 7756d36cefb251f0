#include "core/private/private_measures.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/graph/edge_addition.h"
#include "core/private/noisy_count.h"
#include "core/private/private_vertex_cover.h"
#include "core/private/projection_quality.h"
#include "core/private/theta_candidates.h"
#include "core/private/threshold_selection.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

absl::StatusOr<PrivateMeasureResult> ReleaseRepair(dp::SecureUrbg& urbg,
                                                   const graph::Graph& g,
                                                   double epsilon) {
  ASSIGN_OR_RETURN(const NoisyCount noisy,
                   PrivateVertexCoverSize(urbg, g, epsilon));
  PrivateMeasureResult out;
  out.value = noisy.value;
  out.bound95 = noisy.bound95;
  out.epsilon_release = epsilon;
  out.epsilon_spent = epsilon;
  out.method = std::string(kVertexCoverMethodName);
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
  if (t == "optimized") return SelectionMethod::kOptimized;
  if (t == "hierarchical") return SelectionMethod::kHierarchical;
  if (t == "basic") return SelectionMethod::kBasic;
  if (t == "baseline") return SelectionMethod::kBaseline;
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown threshold selection method '", text,
                   "'; expected one of optimized, hierarchical, basic, "
                   "baseline."));
}

absl::string_view SelectionMethodName(SelectionMethod method) {
  switch (method) {
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

absl::StatusOr<PrivateMeasureResult> ComputePrivateMeasure(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request) {
  const Measure measure = request.measure;
  RETURN_IF_ERROR(CheckMeasureReleasable(measure));
  RETURN_IF_ERROR(dp::ValidateEpsilon(request.epsilon));
  // Algorithm 5 needs neither N nor Theta nor a selection method.
  if (measure == Measure::kRepair) {
    return ReleaseRepair(urbg, g, request.epsilon);
  }

  ASSIGN_OR_RETURN(const uint32_t max_rows,
                   ValidatePublicMaxRows(request.public_max_rows));
  RETURN_IF_ERROR(CheckRowsWithinPublicMax(g.num_nodes(), max_rows));

  PrivateMeasureResult out;
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
    out.num_candidates = candidates.size();
    // The two parts sum to at most epsilon exactly (design 5.6).
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
  return out;
}

}  // namespace dpq::core::private_measures
