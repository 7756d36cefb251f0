// Everything decided when a dataset version is registered: data-dependent
// limits are decided here, where only the owner sees them, never when a
// buyer asks (docs/privacy.md, "Decided at registration, never at
// release"). The manifest is checked (manifest.h); a table's rows are
// parsed under declared (or explicitly inferred, then frozen) column types
// with their DCs, cube and public exact cuboids (table_builder.h,
// cube_builder.h), a graph's edges over its declared node universe
// (graph_builder.h); then a table gets its conflict graph. Everything is
// built from the bytes in memory. No I/O, no locks.
#ifndef DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_
#define DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_

#include <cstdint>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/build_context.h"
#include "server/registry/conflict_graph_slot.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/registry_options.h"

namespace dpq::server::registry {

// Most columns a new table may have.
inline constexpr size_t kMaxColumns = 10'000;
// Largest public description (DatasetInfo: column names, constraint lines,
// cube labels, description) of a new version, in bytes, so that any
// dataset fits a ListDatasets page (dataset_pager.h) and a client's
// default 4 MB receive limit.
inline constexpr size_t kMaxPublicInfoBytes = size_t{1} << 20;

// The text contract of a new version (docs/security.md, "Text"): the CSV is
// UTF-8, and everything buyers read about it (DatasetInfo, node labels) is
// printable, without control characters. BuildDataset enforces it for new
// versions; a stored one that predates it is only reported by the caller.
// kInvalidArgument naming line and column, or the field.
absl::Status CheckTextContract(const LoadedDataset& dataset,
                               absl::string_view csv_text);

// Parses and validates one version from its CSV bytes (a table, or a
// graph's edge list). `manifest` has passed ValidateManifest, each caller's
// one check of it (DatasetRegistry::Write for a registration, the loaders
// for a stored version); the CSV's size was checked where its bytes arrived
// (registry/upload_limit.h). The returned dataset's manifest is the one to
// store (frozen); a table's conflict graph slot is pending (see
// BuildRegistrationGraph and BuildConflictGraphData). kInvalidArgument
// naming the field, line or column; kResourceExhausted above the limits;
// kFailedPrecondition for a replace that changes the kind or the public
// cuboids. `migrated` (may be null): set when a stored manifest needed
// inference, so the caller rewrites it frozen.
absl::StatusOr<std::shared_ptr<LoadedDataset>> BuildDataset(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    absl::string_view csv_text, const BuildContext& context,
    bool* migrated = nullptr);

// The conflict graph and degree bounds of a table version. Registration
// runs it before the version is published, so a failure (above max_edges)
// is the owner's error and nothing a buyer sees depends on it.
// `deadline`: the build stops with kDeadlineExceeded once it passes.
absl::StatusOr<ConflictGraphData> BuildConflictGraphData(
    const RegistryOptions& options, const LoadedDataset& dataset,
    absl::Time deadline = absl::InfiniteFuture());

// OK if `rebuilt` reproduces every value of `recorded` (the edge count,
// the cover bound, each DC's degree bound); else kDataLoss naming the
// first that differs with both values: for the operator's log and the
// admins, never for buyers (these values are private).
absl::Status CheckRebuild(const RecordedGraph& recorded,
                          const ConflictGraphData& rebuilt);

// Completes a new version before it is published. For a table: builds its
// conflict graph and, if the manifest sets exact_repair, proves the exact
// minimum cover (within options.exact_repair_time_limit), then fills the
// slot and d->exact_repair (the slot's graph is what state.txt records:
// the edge count, so a restart with a lower max_edges refuses the dataset
// instead of failing buyers, and the bounds). A graph dataset needs
// nothing. Errors: kDeadlineExceeded once
// `deadline` (the admin's call's) passes, so a registration never goes on
// after its caller left; "constraints: ..." with the build's code if the
// conflict graph cannot be built; kFailedPrecondition "exact_repair: ...".
absl::Status BuildRegistrationGraph(const RegistryOptions& options,
                                    absl::Time deadline, LoadedDataset* d);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_
