#include "core/cube/data_cube.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/util/status_macros.h"

namespace dpq::core::cube {

DimSet MakeDimSet(std::vector<size_t> dims) {
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

bool IsSubset(const DimSet& a, const DimSet& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

DimSet Union(const DimSet& a, const DimSet& b) {
  DimSet out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(),
                 std::back_inserter(out));
  return out;
}

DimSet Intersection(const DimSet& a, const DimSet& b) {
  DimSet out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                        std::back_inserter(out));
  return out;
}

DimSet Minus(const DimSet& a, const DimSet& b) {
  DimSet out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::back_inserter(out));
  return out;
}

size_t CuboidSize(const CubeSchema& schema, const std::vector<size_t>& dims) {
  size_t size = 1;
  for (size_t d : dims) {
    const size_t n = schema.dimensions[d].labels.size();
    if (n != 0 && size > std::numeric_limits<size_t>::max() / n) {
      return std::numeric_limits<size_t>::max();
    }
    size *= n;
  }
  return size;
}

absl::StatusOr<std::vector<size_t>> ResolveDimensions(
    const CubeSchema& schema, const std::vector<std::string>& names) {
  std::vector<size_t> out;
  for (const std::string& name : names) {
    size_t i = 0;
    while (i < schema.dimensions.size() &&
           schema.dimensions[i].column != name) {
      ++i;
    }
    if (i == schema.dimensions.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unknown cube dimension '", name, "'."));
    }
    if (std::find(out.begin(), out.end(), i) != out.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cube dimension '", name, "' is repeated."));
    }
    out.push_back(i);
  }
  return out;
}

namespace {

// Bin of a numeric value: [e0,e1), ..., [e(k-1),ek]; else `other`.
uint32_t BinIndex(const CubeDimension& dim, double v, uint32_t other) {
  const std::vector<double>& e = dim.bin_edges;
  if (!(v >= e.front() && v <= e.back())) return other;  // also NaN
  if (v == e.back()) return static_cast<uint32_t>(e.size() - 2);
  return static_cast<uint32_t>(std::upper_bound(e.begin(), e.end(), v) -
                               e.begin() - 1);
}

// Row-major stride of position k.
size_t Stride(const std::vector<size_t>& sizes, size_t k) {
  size_t stride = 1;
  for (size_t j = k + 1; j < sizes.size(); ++j) stride *= sizes[j];
  return stride;
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> RowLabelIndexes(
    const table::Table& table, const CubeDimension& dim) {
  const std::optional<size_t> col = table.schema().FindColumn(dim.column);
  if (!col) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Cube dimension '", dim.column, "' is not a column of the table."));
  }
  const table::Column& c = table.column(*col);
  std::vector<uint32_t> out(table.num_rows());
  // Rows outside a dimension without "other" cell get kNoCell.
  const uint32_t other =
      dim.has_other ? static_cast<uint32_t>(dim.labels.size() - 1) : kNoCell;
  if (!dim.bin_edges.empty()) {
    if (!c.is_numeric()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "Binned cube dimension '", dim.column, "' is not numeric."));
    }
    for (size_t r = 0; r < table.num_rows(); ++r) {
      out[r] = c.is_null(r) ? other : BinIndex(dim, c.numeric_at(r), other);
    }
    return out;
  }
  if (c.type == table::ColumnType::kDouble) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Cube dimension '", dim.column, "' is a double column without bins."));
  }
  const size_t num_values = dim.labels.size() - (dim.has_other ? 1 : 0);
  if (c.type == table::ColumnType::kInt64) {
    // Labels are matched as the cell text; an int64 cell's text is its
    // canonical decimal form, so only canonical labels can match.
    absl::flat_hash_map<int64_t, uint32_t> index;
    for (size_t i = 0; i < num_values; ++i) {
      int64_t v = 0;
      if (absl::SimpleAtoi(dim.labels[i], &v) &&
          absl::StrCat(v) == dim.labels[i]) {
        index.emplace(v, static_cast<uint32_t>(i));
      }
    }
    for (size_t r = 0; r < table.num_rows(); ++r) {
      auto it = c.is_null(r) ? index.end() : index.find(c.int64s[r]);
      out[r] = it != index.end() ? it->second : other;
    }
    return out;
  }
  // Strings: look the dictionary text up without copying it.
  absl::flat_hash_map<std::string, uint32_t> index;
  for (size_t i = 0; i < num_values; ++i) {
    index.emplace(dim.labels[i], static_cast<uint32_t>(i));
  }
  for (size_t r = 0; r < table.num_rows(); ++r) {
    auto it = c.is_null(r) ? index.end()
                           : index.find(table.dictionary().at(c.string_ids[r]));
    out[r] = it != index.end() ? it->second : other;
  }
  return out;
}

absl::StatusOr<DenseCuboid> ComputeDenseCuboid(const table::Table& table,
                                               const CubeSchema& schema,
                                               const std::vector<size_t>& dims,
                                               size_t max_cells) {
  const size_t cells = CuboidSize(schema, dims);
  if (cells > max_cells) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "The cuboid has ",
        cells == std::numeric_limits<size_t>::max() ? std::string("too many")
                                                    : absl::StrCat(cells),
        " cells, more than the limit of ", max_cells, "."));
  }
  DenseCuboid out;
  out.dims = dims;
  for (size_t d : dims) out.sizes.push_back(schema.dimensions[d].labels.size());
  out.counts.assign(cells, 0.0);
  std::vector<size_t> cell(table.num_rows(), 0);
  // Rows outside a dimension without "other" cell are left out of every
  // cuboid (not only those over that dimension), so that all cuboids are
  // aggregates of one filtered table and stay mutually consistent.
  std::vector<uint8_t> left_out(table.num_rows(), 0);
  for (size_t d = 0; d < schema.dimensions.size(); ++d) {
    const auto pos = std::find(dims.begin(), dims.end(), d);
    if (pos == dims.end() && schema.dimensions[d].has_other) continue;
    ASSIGN_OR_RETURN(std::vector<uint32_t> labels,
                     RowLabelIndexes(table, schema.dimensions[d]));
    const size_t stride =
        pos == dims.end() ? 0 : Stride(out.sizes, pos - dims.begin());
    for (size_t r = 0; r < cell.size(); ++r) {
      if (labels[r] == kNoCell) {
        left_out[r] = 1;
      } else {
        cell[r] += labels[r] * stride;
      }
    }
  }
  for (size_t r = 0; r < cell.size(); ++r) {
    if (!left_out[r]) out.counts[cell[r]] += 1;
  }
  return out;
}

namespace {

// Stride in a coarse cuboid over `dims` of each finer dimension (0 for the
// dimensions summed away); fills `sizes` with the coarse sizes.
std::vector<size_t> CoarseStrides(const DenseCuboid& finer,
                                  const std::vector<size_t>& dims,
                                  std::vector<size_t>& sizes) {
  std::vector<size_t> stride(finer.dims.size(), 0);
  sizes.assign(dims.size(), 0);
  size_t size = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    const size_t pos =
        std::find(finer.dims.begin(), finer.dims.end(), dims[k]) -
        finer.dims.begin();
    sizes[k] = finer.sizes[pos];
    stride[pos] = size;
    size *= finer.sizes[pos];
  }
  return stride;
}

// Calls visit(finer_index, coarse_index) for every finer cell, walking an
// odometer that keeps the coarse index incrementally (no division).
template <typename Visit>
void ForEachCell(const DenseCuboid& finer, const std::vector<size_t>& stride,
                 Visit visit) {
  std::vector<size_t> digit(finer.dims.size(), 0);
  size_t target = 0;
  for (size_t i = 0; i < finer.counts.size(); ++i) {
    visit(i, target);
    for (size_t k = finer.dims.size(); k-- > 0;) {
      if (++digit[k] < finer.sizes[k]) {
        target += stride[k];
        break;
      }
      target -= stride[k] * (finer.sizes[k] - 1);
      digit[k] = 0;
    }
  }
}

}  // namespace

DenseCuboid AggregateCuboid(const DenseCuboid& finer,
                            const std::vector<size_t>& dims) {
  DenseCuboid out;
  out.dims = dims;
  const std::vector<size_t> stride = CoarseStrides(finer, dims, out.sizes);
  size_t size = 1;
  for (size_t s : out.sizes) size *= s;
  out.counts.assign(size, 0.0);
  ForEachCell(finer, stride, [&](size_t i, size_t target) {
    out.counts[target] += finer.counts[i];
  });
  return out;
}

void BroadcastAdd(DenseCuboid& finer, const DenseCuboid& coarse,
                  double factor) {
  std::vector<size_t> sizes;
  const std::vector<size_t> stride = CoarseStrides(finer, coarse.dims, sizes);
  ForEachCell(finer, stride, [&](size_t i, size_t target) {
    finer.counts[i] += factor * coarse.counts[target];
  });
}

Cuboid ToCuboid(const CubeSchema& schema, const DenseCuboid& dense) {
  Cuboid out;
  for (size_t d : dense.dims) {
    out.dimensions.push_back(schema.dimensions[d].column);
  }
  out.cells.resize(dense.counts.size());
  std::vector<size_t> digit(dense.dims.size(), 0);
  for (size_t i = 0; i < dense.counts.size(); ++i) {
    CuboidCell& cell = out.cells[i];
    for (size_t k = 0; k < dense.dims.size(); ++k) {
      cell.values.push_back(schema.dimensions[dense.dims[k]].labels[digit[k]]);
    }
    cell.count = dense.counts[i];
    for (size_t k = dense.dims.size(); k-- > 0;) {
      if (++digit[k] < dense.sizes[k]) break;
      digit[k] = 0;
    }
  }
  return out;
}

absl::StatusOr<Cuboid> ComputeExactCuboid(const table::Table& table,
                                          const CubeSchema& schema,
                                          const std::vector<std::string>& dims,
                                          size_t max_cells) {
  ASSIGN_OR_RETURN(std::vector<size_t> idx, ResolveDimensions(schema, dims));
  ASSIGN_OR_RETURN(DenseCuboid dense,
                   ComputeDenseCuboid(table, schema, idx, max_cells));
  return ToCuboid(schema, dense);
}

absl::StatusOr<Cuboid> ComputeExactCuboid(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<std::string>& dims) {
  return ComputeExactCuboid(table, schema, dims, kDefaultMaxExactCells);
}

}  // namespace dpq::core::cube
