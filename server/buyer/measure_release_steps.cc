#include "server/buyer/measure_release_steps.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/dp/secure_urbg.h"
#include "core/private/private_measures.h"
#include "core/private/release_cost.h"
#include "core/private/report_consistency.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"

namespace dpq::server::buyer {
namespace {

namespace pm = core::private_measures;
using core::measures::Measure;

// One release of `measure` on the dataset's cached graph.
absl::StatusOr<pm::PrivateMeasureResult> ReleaseOne(
    const registry::ConflictGraphData& g, const registry::LoadedDataset& d,
    Measure measure, const pm::MeasureRelease& release,
    core::dp::SecureUrbg& urbg, const CallContext& call) {
  pm::PrivateMeasureRequest request;
  request.stop = [&call] { return call.Over(); };
  request.measure = measure;
  request.method = release.method;
  request.repair_method = release.repair_method;
  request.exact_repair = d.exact_repair;
  request.cover_bound = g.cover_bound;
  request.epsilon = release.epsilon_each;
  request.public_max_rows = d.manifest.public_max_rows();
  if (pm::UsesDegreeBounds(release.method)) {
    request.degree_bounds = g.degree_bounds;
    request.degree_keys = pm::CountDegreeKeys(d.dcs);
  }
  return pm::ComputePrivateMeasure(urbg, g.graph.graph, request);
}

}  // namespace

absl::StatusOr<pm::MeasureRelease> CheckMeasureRelease(
    v1::SelectionMethod method, v1::RepairMethod repair_method,
    std::vector<Measure> measures, const registry::LoadedDataset& d,
    const ReleaseBudget& budget, bool row_count) {
  ASSIGN_OR_RETURN(
      pm::MeasureReleaseSpec spec,
      MeasureReleaseSpecFromProto(method, repair_method, std::move(measures)));
  spec.epsilon = budget.epsilon;
  // Whether the row count is public is the owner's declaration (public).
  spec.row_count = row_count;
  spec.row_count_public = d.manifest.row_count_public();
  ASSIGN_OR_RETURN(pm::MeasureRelease release,
                   pm::BuildMeasureRelease(spec, d.manifest.exact_repair()));
  // The check's noise is discarded.
  pm::PublicDatasetShape shape;
  shape.public_max_rows = d.manifest.public_max_rows();
  shape.dc_shape = pm::DcBoundShape(d.dcs);
  shape.degree_keys = pm::CountDegreeKeys(d.dcs);
  shape.exact_repair = d.manifest.exact_repair();
  core::dp::OpenSslUrbg urbg;
  RETURN_IF_ERROR(pm::CheckMeasureReleaseRuns(release, shape, urbg));
  return release;
}

absl::StatusOr<std::vector<v1::MeasureResult>> ComputeMeasures(
    const BuyerCore& service, const auth::Principal& caller,
    const PreparedRelease<pm::MeasureRelease>& prepared,
    const CallContext& call) {
  const registry::LoadedDataset& d = *prepared.dataset;
  // After the charge: how long the graph takes (after a server start)
  // depends on the data.
  ASSIGN_OR_RETURN(const registry::ConflictGraphData* graph,
                   d.WaitForConflictGraph(call.deadline, call.cancelled));
  // After the charge too: the cost class depends on the edges. Held until
  // every measure is computed.
  std::optional<HeavyReleaseQueue::Slot> slot;
  if (d.release_cost == pm::ReleaseCost::kHeavy &&
      pm::ComputesOnGraph(prepared.spec)) {
    absl::StatusOr<HeavyReleaseQueue::Slot> acquired =
        service.heavy_releases.Acquire(caller.id, call);
    if (!acquired.ok()) return acquired.status();
    slot.emplace(*std::move(acquired));
  }
  const std::unique_ptr<core::dp::SecureUrbg> urbg = service.NewUrbg();
  std::vector<pm::PrivateMeasureResult> released;
  for (const Measure measure : prepared.spec.measures) {
    ASSIGN_OR_RETURN(
        pm::PrivateMeasureResult result,
        ReleaseOne(*graph, d, measure, prepared.spec, *urbg, call));
    released.push_back(std::move(result));
  }
  pm::MakeResultsConsistent(prepared.spec.measures, released);
  std::vector<v1::MeasureResult> results;
  for (size_t i = 0; i < released.size(); ++i) {
    results.push_back(ToMeasureResult(MeasureToProto(prepared.spec.measures[i]),
                                      released[i]));
  }
  return results;
}

}  // namespace dpq::server::buyer
