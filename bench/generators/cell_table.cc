#include "bench/generators/cell_table.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "core/table/csv_reader.h"
#include "core/util/status_macros.h"

namespace dpq::bench::generators {

CellTable ToCellTable(const core::table::Table& table) {
  CellTable out;
  out.schema = table.schema();
  out.rows.resize(table.num_rows());
  for (size_t r = 0; r < table.num_rows(); ++r) {
    out.rows[r].resize(table.num_columns());
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (!table.column(c).is_null(r)) out.rows[r][c] = table.CellText(c, r);
    }
  }
  return out;
}

absl::StatusOr<CellTable> ReadCellTable(const std::string& path) {
  ASSIGN_OR_RETURN(core::table::Table table, core::table::ReadCsvFile(path));
  return ToCellTable(table);
}

absl::StatusOr<core::table::Table> ToTable(const CellTable& cells) {
  return core::table::Table::FromCells(cells.schema, cells.rows);
}

namespace {

void AppendField(const std::string& field, std::string& out) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    out += field;
    return;
  }
  out += '"';
  for (char ch : field) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

}  // namespace

std::string ToCsv(const CellTable& cells) {
  std::string out;
  for (size_t c = 0; c < cells.schema.num_columns(); ++c) {
    if (c > 0) out += ',';
    AppendField(cells.schema.column(c).name, out);
  }
  out += '\n';
  for (const auto& row : cells.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += ',';
      if (row[c].has_value()) AppendField(*row[c], out);
    }
    out += '\n';
  }
  return out;
}

absl::Status WriteTextFile(const std::string& text, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return absl::InternalError(absl::StrCat("Cannot write ", path));
  return absl::OkStatus();
}

absl::Status WriteCsvFile(const CellTable& cells, const std::string& path) {
  return WriteTextFile(ToCsv(cells), path);
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat("Cannot open ", path));
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

std::vector<size_t> ConstrainedColumns(
    absl::Span<const core::constraints::DenialConstraint> dcs) {
  std::vector<size_t> columns;
  for (const auto& dc : dcs) {
    for (const auto& p : dc.predicates) {
      for (const auto* operand : {&p.lhs, &p.rhs}) {
        if (!operand->is_constant) columns.push_back(operand->column);
      }
    }
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

size_t CountChangedCells(const CellTable& a, const CellTable& b) {
  size_t changed = 0;
  for (size_t r = 0; r < a.rows.size() && r < b.rows.size(); ++r) {
    for (size_t c = 0; c < a.rows[r].size() && c < b.rows[r].size(); ++c) {
      if (a.rows[r][c] != b.rows[r][c]) ++changed;
    }
  }
  return changed;
}

CellTable SampleRows(const CellTable& cells, size_t rows, uint64_t seed) {
  if (rows >= cells.rows.size()) return cells;
  std::vector<size_t> index(cells.rows.size());
  std::iota(index.begin(), index.end(), size_t{0});
  std::mt19937_64 rng(seed);
  std::shuffle(index.begin(), index.end(), rng);
  index.resize(rows);
  std::sort(index.begin(), index.end());
  CellTable out;
  out.schema = cells.schema;
  out.rows.reserve(rows);
  for (size_t i : index) out.rows.push_back(cells.rows[i]);
  return out;
}

}  // namespace dpq::bench::generators
