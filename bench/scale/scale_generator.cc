#include "bench/scale/scale_generator.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/table/csv_reader.h"

namespace dpq::bench::scale {
namespace {

using core::table::Column;
using core::table::ColumnType;
using core::table::Table;

// SplitMix64 (Steele et al. 2014): tiny, seedable and identical on every
// platform, unlike std::shuffle over std::mt19937_64.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift; the bias is
  // below 2^-40 for template sizes and irrelevant for benchmark inputs).
  uint64_t Below(uint64_t bound) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }

 private:
  uint64_t state_;
};

// CSV text of one cell value: quoted only when it must be.
std::string Quote(absl::string_view value) {
  if (value.find_first_of(",\"\r\n") == absl::string_view::npos) {
    return std::string(value);
  }
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

// The column index of a distinct column, which must be a string column.
absl::StatusOr<size_t> DistinctColumnIndex(const Table& templ,
                                           const std::string& name) {
  std::optional<size_t> index = templ.schema().FindColumn(name);
  if (!index.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Distinct column \"", name, "\" is not in the template's header."));
  }
  if (templ.column(*index).type != ColumnType::kString) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Distinct column \"", name,
        "\" is not a string column; read the template with ReadTemplateCsv."));
  }
  return *index;
}

// Template cells rendered once; distinct columns are rendered per group.
struct Template {
  std::vector<std::vector<std::string>> cells;  // [row][column], CSV-quoted
  std::vector<size_t> distinct;                 // column indices
  std::vector<bool> is_distinct;                // per column
};

std::string DistinctCell(const Table& templ, size_t column, size_t row,
                         uint64_t group, const std::string& rendered) {
  if (group == 0 || templ.column(column).is_null(row)) return rendered;
  return Quote(absl::StrCat(templ.CellText(column, row), "~", group));
}

absl::StatusOr<Template> Render(const Table& templ,
                                const ScaleOptions& options) {
  Template t;
  t.is_distinct.assign(templ.num_columns(), false);
  for (const std::string& name : options.distinct_columns) {
    absl::StatusOr<size_t> d = DistinctColumnIndex(templ, name);
    if (!d.ok()) return d.status();
    if (t.is_distinct[*d]) continue;
    t.is_distinct[*d] = true;
    t.distinct.push_back(*d);
  }
  t.cells.resize(templ.num_rows());
  for (size_t row = 0; row < templ.num_rows(); ++row) {
    t.cells[row].reserve(templ.num_columns());
    for (size_t c = 0; c < templ.num_columns(); ++c) {
      t.cells[row].push_back(Quote(templ.CellText(c, row)));
    }
  }
  return t;
}

absl::Status ValidateOptions(const Table& templ, const ScaleOptions& options) {
  if (templ.num_rows() == 0) {
    return absl::InvalidArgumentError("The template table has no rows.");
  }
  if (options.rows == 0) {
    return absl::InvalidArgumentError("Rows must be positive, but is 0.");
  }
  if (options.density == 0) {
    return absl::InvalidArgumentError("Density must be >= 1, but is 0.");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Table> ReadTemplateCsv(absl::string_view text) {
  // Once to learn the header, once with every column as string.
  absl::StatusOr<Table> inferred = core::table::ReadCsv(text);
  if (!inferred.ok()) return inferred.status();
  core::table::CsvOptions options;
  for (const auto& spec : inferred->schema().columns()) {
    options.schema.columns.push_back({spec.name, ColumnType::kString});
  }
  return core::table::ReadCsv(text, options);
}

absl::Status WriteScaledTable(const Table& templ, const ScaleOptions& options,
                              std::ostream& out) {
  if (absl::Status s = ValidateOptions(templ, options); !s.ok()) return s;
  absl::StatusOr<Template> t = Render(templ, options);
  if (!t.ok()) return t.status();
  std::string line;
  for (size_t c = 0; c < templ.num_columns(); ++c) {
    if (c > 0) line += ',';
    line += Quote(templ.schema().column(c).name);
  }
  line += '\n';
  out << line;

  const size_t n = templ.num_rows();
  std::vector<uint32_t> order(n);
  std::vector<std::string> group_cells(templ.num_columns());
  uint64_t written = 0;
  for (uint64_t replica = 0; written < options.rows; ++replica) {
    // A fresh seeded Fisher-Yates permutation per replica.
    std::iota(order.begin(), order.end(), 0u);
    SplitMix64 rng(options.seed * 0x100000001B3ULL + replica);
    for (size_t i = n - 1; i > 0; --i) {
      std::swap(order[i], order[rng.Below(i + 1)]);
    }
    const uint64_t group = replica / options.density;
    for (size_t i = 0; i < n && written < options.rows; ++i, ++written) {
      const uint32_t row = order[i];
      line.clear();
      for (size_t d : t->distinct) {
        group_cells[d] = DistinctCell(templ, d, row, group, t->cells[row][d]);
      }
      for (size_t c = 0; c < templ.num_columns(); ++c) {
        if (c > 0) line += ',';
        line += t->is_distinct[c] ? group_cells[c] : t->cells[row][c];
      }
      line += '\n';
      out << line;
    }
    if (!out) {
      return absl::InternalError(absl::StrCat(
          "Writing the scaled table failed after ", written, " rows."));
    }
  }
  out.flush();
  if (!out) return absl::InternalError("Flushing the scaled table failed.");
  return absl::OkStatus();
}

}  // namespace dpq::bench::scale
