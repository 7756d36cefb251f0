// What the ledger records of each release kind (release_pipeline.h's
// ReleaseIdentity): the fingerprinted parameters and the operation text.
// The parameters are frozen: a retry of a request recorded by an earlier
// server must give the same fingerprint to replay its answer
// (ReleaseRpcsTest.FingerprintsOfEarlierReleasesAreUnchanged), so a new
// field is appended, never inserted, and no value changes its spelling.
#ifndef DPQ_SERVER_BUYER_RELEASE_IDENTITY_H_
#define DPQ_SERVER_BUYER_RELEASE_IDENTITY_H_

#include <string>
#include <vector>

#include "core/cube/cuboid_request.h"
#include "core/private/measure_release.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/buyer/release_pipeline.h"

namespace dpq::server::buyer {

// Weights as their bits (internal::DoubleBits), comma-separated.
std::string WeightBits(const std::vector<double>& weights);

// MeasureInconsistency of release.measures[0]; `epsilon` as requested.
ReleaseIdentity MeasureInconsistencyIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon);

// QualityReport (MI, P, R); `epsilon` as requested.
ReleaseIdentity QualityReportIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon);

ReleaseIdentity ReleaseCuboidsIdentity(
    const v1::ReleaseCuboidsRequest& request,
    const core::cube::CuboidRequest& cuboids);

// The features as requested (empty: the derived ones are not listed).
ReleaseIdentity TrainDecisionTreeIdentity(
    const v1::TrainDecisionTreeRequest& request,
    const core::selection::DecisionTreeRequest& tree);

ReleaseIdentity SelectInfluentialNodesIdentity(
    const v1::SelectInfluentialNodesRequest& request,
    const core::selection::InfluentialNodesRequest& nodes);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_IDENTITY_H_
