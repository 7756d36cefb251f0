#include "server/registry/cube_builder.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/cube/data_cube.h"
#include "core/cube/generic_sensitivity.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::server::registry::internal {
namespace {

// Public cuboids as lists of dimension names.
using CuboidNames = std::vector<std::vector<std::string>>;

// "[A,B] [C]".
std::string CuboidList(const CuboidNames& q) {
  std::vector<std::string> parts;
  for (const auto& dims : q) {
    parts.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  }
  return absl::StrJoin(parts, " ");
}

// The manifest's dimensions as the cube builder takes them. A stored
// manifest from before frozen domains: a bare dimension was inferred then
// (and its values shown to buyers).
std::vector<core::cube::DimensionSpec> DimensionSpecs(
    const v1::DatasetManifest& manifest, const BuildContext& context) {
  std::vector<core::cube::DimensionSpec> specs;
  for (const v1::CubeDimension& dim : manifest.cube_dimensions()) {
    core::cube::DimensionSpec spec;
    spec.column = dim.column();
    spec.bin_edges.assign(dim.bin_edges().begin(), dim.bin_edges().end());
    spec.domain.assign(dim.domain().begin(), dim.domain().end());
    spec.infer_domain =
        dim.infer_domain() ||
        (context.stored && spec.domain.empty() && spec.bin_edges.empty());
    specs.push_back(std::move(spec));
  }
  return specs;
}

// Freezes the inferred domains (labels without the "other" cell) into
// d->manifest: a note for the owner who asked, or *migrated.
void FreezeDomains(const v1::DatasetManifest& manifest,
                   const std::vector<core::cube::DimensionSpec>& specs,
                   LoadedDataset* d, bool* migrated) {
  for (int i = 0; i < manifest.cube_dimensions_size(); ++i) {
    if (!specs[i].infer_domain) continue;
    const core::cube::CubeDimension& dim = d->cube_schema.dimensions[i];
    v1::CubeDimension* out = d->manifest.mutable_cube_dimensions(i);
    out->clear_domain();
    for (size_t l = 0; l + 1 < dim.labels.size(); ++l) {
      out->add_domain(dim.labels[l]);
    }
    out->set_infer_domain(false);
    if (manifest.cube_dimensions(i).infer_domain()) {
      d->notes.push_back(absl::StrCat(
          "Dimension ", dim.column, ": its ", dim.labels.size() - 1,
          " values were taken from the data, now frozen and public (plus "
          "\"other\")."));
    } else if (migrated != nullptr) {
      *migrated = true;
    }
  }
}

// The cube schema with declared or explicitly inferred domains.
absl::Status BuildSchema(const v1::DatasetManifest& manifest,
                         const BuildContext& context, LoadedDataset* d,
                         bool* migrated) {
  const std::vector<core::cube::DimensionSpec> specs =
      DimensionSpecs(manifest, context);
  absl::StatusOr<core::cube::CubeSchema> schema =
      core::cube::BuildCubeSchema(d->table, specs);
  if (!schema.ok()) {
    std::string hint;
    if (absl::StrContains(schema.status().message(), "neither a domain")) {
      hint = " (dpq admin register --cube-dimension 'COL=*' asks for that)";
    }
    return core::util::WithPrefix("cube_dimensions: ", schema.status(), hint);
  }
  d->cube_schema = *std::move(schema);
  FreezeDomains(manifest, specs, d, migrated);
  return absl::OkStatus();
}

// The exact counts of the public cuboids, at most kMaxPublicCuboidCells
// cells together; returns their dimension names.
absl::StatusOr<CuboidNames> ComputePublicCuboids(
    const v1::DatasetManifest& manifest, LoadedDataset* d) {
  size_t cells = 0;
  CuboidNames q;
  for (int i = 0; i < manifest.public_cuboids_size(); ++i) {
    const auto& dims = manifest.public_cuboids(i).dimensions();
    q.emplace_back(dims.begin(), dims.end());
    absl::StatusOr<core::cube::Cuboid> exact =
        core::cube::ComputeExactCuboid(d->table, d->cube_schema, q.back());
    if (!exact.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("public_cuboids[", i, "]: "), exact.status(),
          " (the cube's dimensions are the manifest's cube_dimensions)");
    }
    cells += exact->cells.size();
    if (cells > kMaxPublicCuboidCells) {
      return absl::InvalidArgumentError(absl::StrCat(
          "public_cuboids: the exact cuboids have more than ",
          kMaxPublicCuboidCells,
          " cells together; declare coarser ones (fewer dimensions or "
          "bins)."));
    }
    d->public_cuboids.push_back(*std::move(exact));
  }
  return q;
}

// The privacy unit under public exact cuboids q (not empty).
//
// k_Q (docs/privacy.md, "Datasets with public exact cuboids"): two
// induced neighbours under Q are at most S_Q(C_base) rows added or
// removed apart, where C_base is the cuboid over every attribute (the
// rows themselves): S_Q is the largest L1 distance between the base
// cuboids of induced neighbours, and the L1 distance between two tables'
// base cuboids is the number of rows added plus removed. Attributes
// outside the cube are dimensions in no exact cuboid, which Lemma 4.2
// allows. So an epsilon-DP (add/remove one row) release is
// k_Q epsilon-DP for induced neighbours (group privacy).
absl::Status SetInducedNeighbours(const v1::DatasetManifest& manifest,
                                  const CuboidNames& q, LoadedDataset* d) {
  // The cells of an exact cuboid add up to the row count, so it is public
  // whatever row_count_public says.
  if (!manifest.row_count_public()) {
    d->manifest.set_row_count_public(true);
    d->notes.push_back(
        "row_count_public is now true: the public exact cuboids add up to "
        "the row count, so it is public anyway.");
  }
  std::vector<core::cube::DimSet> exact;
  for (const auto& names : q) {
    ASSIGN_OR_RETURN(std::vector<size_t> dims,
                     core::cube::ResolveDimensions(d->cube_schema, names));
    exact.push_back(core::cube::MakeDimSet(std::move(dims)));
  }
  absl::StatusOr<int64_t> k = core::cube::BaseCuboidSensitivity(
      d->cube_schema, core::cube::ReduceExactCuboids(exact));
  if (!k.ok() || *k < 1 || *k > 1'000'000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public_cuboids ", CuboidList(q),
        ": two tables that agree on them can be too many rows apart for a "
        "usable charge (",
        k.ok() ? absl::StrCat(*k) : std::string(k.status().message()),
        "); declare fewer or coarser exact cuboids."));
  }
  d->charge_multiplier = static_cast<uint32_t>(*k);
  d->neighbouring =
      absl::StrCat("induced neighbours under the public exact cuboids ",
                   CuboidList(q), " (tables that agree on them; at most ", *k,
                   " rows added or removed apart)");
  if (*k > 1) {
    d->notes.push_back(absl::StrCat(
        "Privacy unit: induced neighbours under the public exact cuboids ",
        CuboidList(q),
        ". ReleaseCuboids is charged its epsilon, every other release ", *k,
        " times its epsilon (group privacy)."));
  }
  return absl::OkStatus();
}

// The reduced public cuboids as sorted name lists (for comparing versions).
CuboidNames ReducedQ(const LoadedDataset& d) {
  std::vector<core::cube::DimSet> exact;
  for (const core::cube::Cuboid& c : d.public_cuboids) {
    absl::StatusOr<std::vector<size_t>> dims =
        core::cube::ResolveDimensions(d.cube_schema, c.dimensions);
    if (dims.ok()) exact.push_back(core::cube::MakeDimSet(*std::move(dims)));
  }
  CuboidNames out;
  for (const core::cube::DimSet& set : core::cube::ReduceExactCuboids(exact)) {
    std::vector<std::string> names;
    for (size_t i : set) names.push_back(d.cube_schema.dimensions[i].column);
    std::sort(names.begin(), names.end());
    out.push_back(std::move(names));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

absl::Status BuildCube(const v1::DatasetManifest& manifest,
                       const BuildContext& context, LoadedDataset* d,
                       bool* migrated) {
  // No declared dimensions: no cube. Inferring dimensions from every
  // low-cardinality column would publish their value sets (hospital
  // names, cities) without the owner asking for it.
  if (manifest.cube_dimensions().empty()) {
    if (manifest.public_cuboids_size() > 0) {
      return absl::InvalidArgumentError(
          "public_cuboids needs cube_dimensions: declare the dimensions "
          "the exact cuboids are over.");
    }
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(BuildSchema(manifest, context, d, migrated));
  ASSIGN_OR_RETURN(const CuboidNames q, ComputePublicCuboids(manifest, d));
  if (q.empty()) return absl::OkStatus();
  return SetInducedNeighbours(manifest, q, d);
}

absl::Status CheckSameNeighbourUnit(const LoadedDataset& old_version,
                                    const LoadedDataset& new_version) {
  const CuboidNames before = ReducedQ(old_version);
  const CuboidNames after = ReducedQ(new_version);
  if (before == after) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "public_cuboids: the replacement's public exact cuboids (",
      after.empty() ? "none" : CuboidList(after), ") differ from version ",
      old_version.version, "'s (", before.empty() ? "none" : CuboidList(before),
      "). The budgets and ledger of this dataset count epsilon in that "
      "version's privacy unit, so it cannot change: register the new data "
      "under a new dataset id (which starts fresh budgets)."));
}

}  // namespace dpq::server::registry::internal
