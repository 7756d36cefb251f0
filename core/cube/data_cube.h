// The data cube of a table over nominal dimensions (paper
// exact-cuboids-in-noisy-data-cube, Section 2.1): cells, dense cuboids, the
// lattice of cuboids (ordered by inclusion of their dimension sets), and
// computing a cuboid from the table or from a finer cuboid.
//
// A cuboid is stored densely: one count per cell of the product of its
// dimensions' label sets, row-major (the last dimension varies fastest).
// Dimensions are referred to by their index in CubeSchema::dimensions.
#ifndef DPQ_CORE_CUBE_DATA_CUBE_H_
#define DPQ_CORE_CUBE_DATA_CUBE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/table/table.h"

namespace dpq::core::cube {

// A set of dimensions (schema indices), kept sorted and duplicate-free: a
// point of the cuboid lattice.
using DimSet = std::vector<size_t>;

// Lattice operations on dimension sets. `a` is an ancestor of `b` (its
// cuboid can be computed from b's) iff IsSubset(a, b).
DimSet MakeDimSet(std::vector<size_t> dims);
bool IsSubset(const DimSet& a, const DimSet& b);
DimSet Union(const DimSet& a, const DimSet& b);         // join
DimSet Intersection(const DimSet& a, const DimSet& b);  // meet
DimSet Minus(const DimSet& a, const DimSet& b);

// size(dims) = product of the label counts (1 for the empty set): the
// number of cells of the cuboid. Saturates at SIZE_MAX instead of
// overflowing.
size_t CuboidSize(const CubeSchema& schema, const std::vector<size_t>& dims);

// Schema index of each named dimension, in the given order.
// kInvalidArgument naming the first unknown or repeated name.
absl::StatusOr<std::vector<size_t>> ResolveDimensions(
    const CubeSchema& schema, const std::vector<std::string>& names);

// A cuboid with dense counts. `dims` in cell order (not necessarily sorted).
struct DenseCuboid {
  std::vector<size_t> dims;
  std::vector<size_t> sizes;   // label count per dim
  std::vector<double> counts;  // row-major over `sizes`
};

// Label index of a row outside a dimension without "other" cell.
inline constexpr uint32_t kNoCell = 0xffffffffu;

// The label index of every row for schema dimension `dim` (kNoCell for a
// row outside a dimension without "other" cell). kFailedPrecondition if
// the column is missing, a binned column is not numeric or a nominal one
// is a double column. O(rows).
absl::StatusOr<std::vector<uint32_t>> RowLabelIndexes(const table::Table& table,
                                                      const CubeDimension& dim);

// The exact cuboid over `dims` from the table. kResourceExhausted if it has
// more than `max_cells` cells. O(rows * |dims| + cells).
absl::StatusOr<DenseCuboid> ComputeDenseCuboid(const table::Table& table,
                                               const CubeSchema& schema,
                                               const std::vector<size_t>& dims,
                                               size_t max_cells);

// The cuboid over `dims` (each must occur in finer.dims, any order) summed
// from the finer cuboid. O(cells of finer). Precondition (checked by
// callers): dims is a subset of finer.dims.
DenseCuboid AggregateCuboid(const DenseCuboid& finer,
                            const std::vector<size_t>& dims);

// The dual of aggregation: adds factor * coarse[a[coarse.dims]] to every
// cell a of `finer` (coarse.dims a subset of finer.dims, any order).
// O(cells of finer).
void BroadcastAdd(DenseCuboid& finer, const DenseCuboid& coarse, double factor);

// The public form with labels, dimensions named by column.
Cuboid ToCuboid(const CubeSchema& schema, const DenseCuboid& dense);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_DATA_CUBE_H_
