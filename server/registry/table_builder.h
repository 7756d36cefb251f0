// A table version from its CSV (dataset_builder.h calls it): the rows under
// declared (or explicitly inferred, then frozen) column types, the denial
// constraints, and the data cube (cube_builder.h). No I/O, no locks.
#ifndef DPQ_SERVER_REGISTRY_TABLE_BUILDER_H_
#define DPQ_SERVER_REGISTRY_TABLE_BUILDER_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/build_context.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/registry_options.h"

namespace dpq::server::registry::internal {

// Fills the table fields of `d` (whose manifest is a copy of `manifest`,
// validated): rows, DCs and their public lines, cube, public cuboids,
// neighbour unit and charge multiplier, a pending conflict graph slot.
// Freezes the column types and inferred domains into d->manifest; sets
// *migrated (if not null) when a stored manifest needed inference.
// kInvalidArgument naming the field, line or column; kResourceExhausted
// above max_rows; kFailedPrecondition for a replacement that changes the
// public exact cuboids.
absl::Status BuildTable(const RegistryOptions& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view csv_text, const BuildContext& context,
                        LoadedDataset* d, bool* migrated);

}  // namespace dpq::server::registry::internal

#endif  // DPQ_SERVER_REGISTRY_TABLE_BUILDER_H_
