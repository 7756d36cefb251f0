// BuildCubeSchema (declared in cuboid_release.h): turns columns into
// nominal dimensions with public, finished label lists.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/cube/cuboid_release.h"
#include "core/util/shortest_double.h"
#include "core/util/status_macros.h"

namespace dpq::core::cube {
namespace {

using table::ColumnType;

// Shortest text that parses back to `v` ("10", "0.5", "1e+20").
std::string EdgeText(double v) { return util::ShortestDouble(v); }

// The catch-all label: "other", in as many parentheses as it takes to
// differ from every real label ("other" and "(other)" both declared:
// "((other))"), so that no two cells of a dimension share a label.
std::string OtherLabel(const std::vector<std::string>& labels) {
  std::string label = "other";
  while (std::find(labels.begin(), labels.end(), label) != labels.end()) {
    label = absl::StrCat("(", label, ")");
  }
  return label;
}

absl::StatusOr<CubeDimension> BinnedDimension(const std::string& column,
                                              const std::vector<double>& e,
                                              bool closed) {
  if (e.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Dimension '", column, "' needs at least two bin edges, but has ",
        e.size(), "."));
  }
  for (size_t i = 0; i < e.size(); ++i) {
    if (!std::isfinite(e[i]) || (i > 0 && !(e[i - 1] < e[i]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("Bin edges of dimension '", column,
                       "' must be finite and strictly ascending; edge ", i,
                       " is ", EdgeText(e[i]), "."));
    }
  }
  CubeDimension dim{column, {}, e, /*has_other=*/!closed};
  for (size_t i = 0; i + 1 < e.size(); ++i) {
    const bool last = i + 2 == e.size();
    dim.labels.push_back(absl::StrCat("[", EdgeText(e[i]), ",",
                                      EdgeText(e[i + 1]), last ? "]" : ")"));
  }
  if (!closed) dim.labels.push_back(OtherLabel(dim.labels));
  return dim;
}

// Distinct non-NULL values in natural order (numeric for int64, byte-wise
// for strings); stops early once more than `limit` are seen. Sets
// `has_null` if some cell is NULL.
std::vector<std::string> DistinctValues(const table::Table& t, size_t col,
                                        size_t limit, bool& has_null) {
  const table::Column& c = t.column(col);
  has_null = false;
  if (c.type == ColumnType::kInt64) {
    absl::flat_hash_set<int64_t> seen;
    for (size_t r = 0; r < t.num_rows() && seen.size() <= limit; ++r) {
      if (c.is_null(r)) {
        has_null = true;
      } else {
        seen.insert(c.int64s[r]);
      }
    }
    std::vector<int64_t> sorted(seen.begin(), seen.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::string> out;
    for (int64_t v : sorted) out.push_back(absl::StrCat(v));
    return out;
  }
  absl::flat_hash_set<uint32_t> seen;  // dictionary ids sort like strings
  for (size_t r = 0; r < t.num_rows() && seen.size() <= limit; ++r) {
    if (c.is_null(r)) {
      has_null = true;
    } else {
      seen.insert(c.string_ids[r]);
    }
  }
  std::vector<uint32_t> ids(seen.begin(), seen.end());
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> out;
  for (uint32_t id : ids) out.emplace_back(t.dictionary().at(id));
  return out;
}

// A nominal dimension with its domain inferred from the data (the owner
// thereby makes the value set public). Always with an "other" cell: making
// it depend on whether a NULL occurs would publish that bit of the data.
absl::StatusOr<CubeDimension> InferredDimension(const table::Table& t,
                                                size_t col, size_t limit) {
  bool has_null = false;
  std::vector<std::string> values = DistinctValues(t, col, limit, has_null);
  const std::string& name = t.schema().column(col).name;
  if (values.size() > limit) {
    return absl::InvalidArgumentError(
        absl::StrCat("Dimension '", name, "' has more than ", limit,
                     " distinct values; declare its domain or bin edges."));
  }
  CubeDimension dim{name, std::move(values), {}, /*has_other=*/true};
  dim.labels.push_back(OtherLabel(dim.labels));
  return dim;
}

// A nominal dimension with a declared domain: an "other" cell unless
// closed, never depending on the data (its existence would leak).
absl::StatusOr<CubeDimension> DeclaredDimension(
    const std::string& column, const std::vector<std::string>& domain,
    bool closed) {
  absl::flat_hash_set<std::string> seen;
  for (const std::string& v : domain) {
    if (!seen.insert(v).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Domain of dimension '", column, "' lists '", v, "' twice."));
    }
  }
  CubeDimension dim{column, domain, {}, /*has_other=*/!closed};
  if (!closed) dim.labels.push_back(OtherLabel(dim.labels));
  return dim;
}

absl::StatusOr<CubeDimension> SpecDimension(const table::Table& t,
                                            const DimensionSpec& spec,
                                            size_t limit) {
  const std::optional<size_t> col = t.schema().FindColumn(spec.column);
  if (!col) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unknown column '", spec.column, "' in the cube dimensions."));
  }
  const ColumnType type = t.schema().column(*col).type;
  if (!spec.bin_edges.empty() && !spec.domain.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Dimension '", spec.column,
                     "' has both bin edges and a domain; give one."));
  }
  if (!spec.bin_edges.empty()) {
    if (type == ColumnType::kString) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension '", spec.column,
                       "' is a string column and cannot have bin edges."));
    }
    return BinnedDimension(spec.column, spec.bin_edges, spec.closed);
  }
  if (type == ColumnType::kDouble) {
    return absl::InvalidArgumentError(
        absl::StrCat("Dimension '", spec.column,
                     "' is a double column and needs bin edges."));
  }
  if (!spec.domain.empty()) {
    if (spec.infer_domain) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Dimension '", spec.column,
          "' has both a declared domain and infer_domain; give one."));
    }
    return DeclaredDimension(spec.column, spec.domain, spec.closed);
  }
  if (!spec.infer_domain) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Dimension '", spec.column,
        "' declares neither a domain nor bin edges: list its values, give "
        "bin edges, or ask explicitly to take the domain from the data "
        "(which makes the column's values public)."));
  }
  ASSIGN_OR_RETURN(CubeDimension dim, InferredDimension(t, *col, limit));
  if (dim.labels.size() <= 1) {  // only "other"
    return absl::InvalidArgumentError(
        absl::StrCat("Dimension '", spec.column,
                     "' has no values to infer a domain from; declare it."));
  }
  return dim;
}

}  // namespace

absl::StatusOr<CubeSchema> BuildCubeSchema(
    const table::Table& table, const std::vector<DimensionSpec>& specs,
    size_t max_inferred_domain) {
  CubeSchema schema;
  if (specs.empty()) {
    // Every low-cardinality string/int64 column; others are skipped.
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (table.schema().column(c).type == ColumnType::kDouble) continue;
      absl::StatusOr<CubeDimension> dim =
          InferredDimension(table, c, max_inferred_domain);
      if (dim.ok() && !dim->labels.empty()) {
        schema.dimensions.push_back(*std::move(dim));
      }
    }
    return schema;
  }
  absl::flat_hash_set<std::string> seen;
  for (const DimensionSpec& spec : specs) {
    if (!seen.insert(spec.column).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Dimension '", spec.column, "' is declared twice."));
    }
    ASSIGN_OR_RETURN(CubeDimension dim,
                     SpecDimension(table, spec, max_inferred_domain));
    schema.dimensions.push_back(std::move(dim));
  }
  return schema;
}

}  // namespace dpq::core::cube
