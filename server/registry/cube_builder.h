// A table version's data cube (table_builder.h calls it): the cube schema
// with declared (or explicitly inferred, then frozen) domains, the exact
// counts of the public exact cuboids, and the privacy unit they imply
// (docs/privacy.md, "Datasets with public exact cuboids").
#ifndef DPQ_SERVER_REGISTRY_CUBE_BUILDER_H_
#define DPQ_SERVER_REGISTRY_CUBE_BUILDER_H_

#include <cstddef>

#include "absl/status/status.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/build_context.h"
#include "server/registry/loaded_dataset.h"

namespace dpq::server::registry::internal {

// Most cells of all public exact cuboids together (they are sent to every
// buyer in DescribeDataset).
inline constexpr size_t kMaxPublicCuboidCells = 100'000;

// Fills d->cube_schema and d->public_cuboids from the manifest and d->table
// (already read); with public cuboids also the charge multiplier k_Q, the
// neighbour notion and row_count_public (then public anyway). Freezes
// inferred domains into d->manifest; sets *migrated (if not null) when a
// stored manifest needed inference. No declared dimensions: no cube.
// kInvalidArgument naming cube_dimensions or public_cuboids.
absl::Status BuildCube(const v1::DatasetManifest& manifest,
                       const BuildContext& context, LoadedDataset* d,
                       bool* migrated);

// OK if both versions have the same reduced public exact cuboids, else
// kFailedPrecondition: a dataset's budgets and ledger count epsilon in
// its privacy unit, so a replacement cannot change it.
absl::Status CheckSameNeighbourUnit(const LoadedDataset& old_version,
                                    const LoadedDataset& new_version);

}  // namespace dpq::server::registry::internal

#endif  // DPQ_SERVER_REGISTRY_CUBE_BUILDER_H_
