// Everything decided when a dataset version is registered (design.md 5.2:
// "data-dependent limits are decided at registration, where only the owner
// sees them"): the manifest checked, the rows parsed under declared (or
// explicitly inferred, then frozen) column types, the DCs, the cube with
// declared (or explicitly inferred, then frozen) domains, the public exact
// cuboids and the neighbour notion they imply, a graph's declared node
// universe, and the conflict graph. No I/O, no locks.
#ifndef DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_
#define DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/conflict_graph_slot.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/registry_options.h"

namespace dpq::server::registry {

// Most public exact cuboids a manifest may declare: the generic
// sensitivity has a proven bound for at most two (design.md 7).
inline constexpr int kMaxPublicCuboids = 2;
// Most cells of all public exact cuboids together (they are sent to every
// buyer in DescribeDataset).
inline constexpr size_t kMaxPublicCuboidCells = 100'000;

// Where a version comes from.
struct BuildContext {
  // ReplaceDataset: the version being replaced. Columns the new manifest
  // leaves untyped keep their frozen types from it; its public exact
  // cuboids must not change (the ledger counts in their neighbour unit).
  std::shared_ptr<const LoadedDataset> previous;
  // Loading a stored manifest. One written before this server froze types,
  // domains and node universes is completed the way the earlier server
  // did (inference on the same rows gives what buyers already saw) and
  // frozen; `migrated` is then set so the caller rewrites the file.
  bool stored = false;
};

// Checks everything in the manifest that does not need the data.
// kInvalidArgument naming the field.
absl::Status ValidateManifest(const v1::DatasetManifest& manifest);

// The text contract of a new version (docs/security.md, "Text"): the CSV is
// UTF-8, and everything buyers read about it (DatasetInfo, node labels) is
// printable, without control characters. BuildDataset enforces it for new
// versions; a stored one that predates it is only reported by the caller.
// kInvalidArgument naming line and column, or the field.
absl::Status CheckTextContract(const LoadedDataset& dataset,
                               absl::string_view csv_text);

// Parses and validates one version from its CSV bytes. The returned
// dataset's manifest is the one to store (frozen); its conflict graph slot
// is pending (see BuildConflictGraphData). kInvalidArgument naming the
// field, line or column; kResourceExhausted above the limits;
// kFailedPrecondition for a replace that changes the public cuboids.
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

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_BUILDER_H_
