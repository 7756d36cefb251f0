// The dataset manifest (v1::DatasetManifest): the checks that need no data,
// and its stored form, manifest.json (dataset_directory.h), which is
// protobuf's own JSON mapping with the proto's field names. What the
// manifest means for the rows is decided in dataset_builder.h.
#ifndef DPQ_SERVER_REGISTRY_MANIFEST_H_
#define DPQ_SERVER_REGISTRY_MANIFEST_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::server::registry {

// Most public exact cuboids a manifest may declare: the generic
// sensitivity has a proven bound for at most two (docs/privacy.md,
// "Datasets with public exact cuboids").
inline constexpr int kMaxPublicCuboids = 2;

// The manifest's kind with UNSPECIFIED read as TABLE; kInvalidArgument for
// a value that is neither.
absl::StatusOr<v1::DatasetKind> ManifestKind(
    const v1::DatasetManifest& manifest);

// Checks everything in the manifest that does not need the data: the id,
// the kind, the description's size, and per kind the fields that apply
// (a graph refuses every table field; a table needs constraints and
// public_max_rows, typed columns listed once, at most kMaxPublicCuboids
// public cuboids with distinct dimensions). kInvalidArgument naming the
// field.
absl::Status ValidateManifest(const v1::DatasetManifest& manifest);

// The stored text of a manifest. kInternal if protobuf cannot print it.
absl::StatusOr<std::string> ManifestToJson(const v1::DatasetManifest& manifest);

// Parses stored text. kInvalidArgument with protobuf's reason if it is
// not a DatasetManifest in JSON. The id and fields are not validated
// here: a stored manifest is checked again when its rows are loaded.
absl::StatusOr<v1::DatasetManifest> ManifestFromJson(absl::string_view json);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_MANIFEST_H_
