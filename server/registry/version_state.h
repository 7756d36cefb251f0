// state.txt, the file next to a stored version's data.csv and
// manifest.json (dataset_directory.h) that records what the registration
// decided and the manifest does not hold: the version number, when it was
// registered, the conflict graph's edge count, cover bound and degree
// bounds, and the exact repair. In the PostgreSQL mode the catalog holds
// the same text (dataset_catalog.h).
//
// Format, one "key value" line each, in this order:
//   version <n>                   n >= 1
//   registered_at <RFC 3339>      UTC, full precision
//   edges <m>                     tables only (absent in older files)
//   cover_bound <c>               tables only (absent in older files)
//   degree_bounds <b> ...         tables only (absent in older files): one
//                                 per DC in order, '-' for an unkeyed DC
//   cross_bounds <c> ...          with degree_bounds (absent in older
//                                 files): one per DC in order, '-' unless
//                                 the DC is cross-keyed (degree_bound.h)
//   release_cost light|heavy      tables only (absent in older files): the
//                                 cost class of its releases
//                                 (core/private/release_cost.h)
//   exact_repair <r>              only if the manifest sets exact_repair
// Unknown keys are ignored, so a newer server's file still loads.
#ifndef DPQ_SERVER_REGISTRY_VERSION_STATE_H_
#define DPQ_SERVER_REGISTRY_VERSION_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/private/degree_bound.h"
#include "core/private/release_cost.h"

namespace dpq::server::registry {

struct VersionState {
  uint64_t version = 0;
  absl::Time registered_at;
  // Edges of the conflict graph built at registration (tables; absent in
  // files written by an older server).
  std::optional<uint64_t> edges;
  // The cover bound and the degree bounds computed with that graph
  // (tables; absent in files written before they were recorded). Private:
  // a rebuild after a start must reproduce them, or the version is not
  // served (DatasetRegistry, docs/operations.md "Recorded bounds").
  std::optional<uint64_t> cover_bound;
  std::optional<std::vector<core::private_measures::DcDegreeBound>>
      degree_bounds;
  // Whether degree_bounds' cross-keyed fields were recorded (a
  // cross_bounds line): older files have '-' for a cross-keyed DC.
  bool cross_bounds_recorded = false;
  // The cost class fixed at registration (tables; absent in older files).
  std::optional<core::private_measures::ReleaseCost> release_cost;
  // The exact minimum cover computed at registration (exact_repair).
  std::optional<uint64_t> exact_repair;
};

// The file's text for `state`.
std::string FormatVersionState(const VersionState& state);

// Parses the file's text. kDataLoss naming `path` (for the message only)
// without a valid version and registration time, or with a malformed
// edges, cover_bound, degree_bounds, cross_bounds, release_cost or
// exact_repair line (a
// cross_bounds line must match a degree_bounds line DC for DC).
absl::StatusOr<VersionState> ParseVersionState(absl::string_view text,
                                               const std::string& path);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_VERSION_STATE_H_
