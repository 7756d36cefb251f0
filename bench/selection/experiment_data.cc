#include "bench/selection/experiment_data.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/selection/nodes/edge_list.h"
#include "core/table/csv_reader.h"
#include "core/util/status_macros.h"

namespace dpq::bench {
namespace {

using core::table::ColumnSpec;
using core::table::ColumnType;
using Cells = std::vector<std::vector<std::optional<std::string>>>;

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("Cannot open ", path));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

absl::StatusOr<TreeDataset> LoadAdult(const std::string& data_dir) {
  ASSIGN_OR_RETURN(core::table::Table raw,
                   core::table::ReadCsvFile(data_dir + "/adult/adult.csv"));
  const std::vector<std::pair<std::string, ColumnType>> kept = {
      {"Age", ColumnType::kInt64},
      {"WorkClass", ColumnType::kString},
      {"EduNum", ColumnType::kString},
      {"MaritalStatus", ColumnType::kString},
      {"Occupation", ColumnType::kString},
      {"Relationship", ColumnType::kString},
      {"Race", ColumnType::kString},
      {"Sex", ColumnType::kString},
      {"Gain", ColumnType::kInt64},
      {"Loss", ColumnType::kInt64},
      {"Hours", ColumnType::kInt64},
      {"Country", ColumnType::kString},
      {"MoreLess", ColumnType::kString}};
  std::vector<ColumnSpec> specs;
  std::vector<size_t> source;
  for (const auto& [name, type] : kept) {
    const std::optional<size_t> c = raw.schema().FindColumn(name);
    if (!c) return absl::NotFoundError(absl::StrCat("Adult lacks ", name));
    specs.push_back({name, type});
    source.push_back(*c);
  }
  Cells cells;
  for (size_t r = 0; r < raw.num_rows(); ++r) {
    std::vector<std::optional<std::string>> row;
    bool missing = false;
    for (size_t i = 0; i < source.size(); ++i) {
      std::string text = raw.CellText(source[i], r);
      if (text.empty() || text == "?") missing = true;
      if (specs[i].name == "MaritalStatus") {
        text = absl::StartsWith(text, "Married") ? "married" : "not-married";
      }
      row.push_back(text);
    }
    // The paper drops the rows with '?'.
    if (!missing) cells.push_back(std::move(row));
  }
  ASSIGN_OR_RETURN(core::table::Schema schema,
                   core::table::Schema::Create(specs));
  ASSIGN_OR_RETURN(core::table::Table table,
                   core::table::Table::FromCells(schema, cells));
  TreeDataset out{"adult", std::move(table), "MoreLess", ">50K", {}};
  for (size_t i = 0; i + 1 < specs.size(); ++i) {
    out.features.push_back(specs[i].name);
  }
  return out;
}

absl::StatusOr<TreeDataset> LoadBinaryDat(const std::string& data_dir,
                                          const std::string& name,
                                          size_t label_index) {
  ASSIGN_OR_RETURN(const std::string text,
                   ReadFile(data_dir + "/selection/" + name + ".dat"));
  Cells cells;
  size_t width = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (fields.empty()) continue;
    if (width == 0) width = fields.size();
    if (fields.size() != width) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ".dat: ragged row ", cells.size() + 1));
    }
    std::vector<std::optional<std::string>> row;
    for (absl::string_view f : fields) row.emplace_back(std::string(f));
    cells.push_back(std::move(row));
  }
  if (label_index >= width) {
    return absl::InvalidArgumentError("label index out of range");
  }
  std::vector<ColumnSpec> specs;
  TreeDataset out;
  out.name = name;
  for (size_t i = 0; i < width; ++i) {
    specs.push_back({absl::StrCat("a", i), ColumnType::kInt64});
    if (i != label_index) out.features.push_back(specs.back().name);
  }
  ASSIGN_OR_RETURN(core::table::Schema schema,
                   core::table::Schema::Create(specs));
  ASSIGN_OR_RETURN(out.table, core::table::Table::FromCells(schema, cells));
  out.label = absl::StrCat("a", label_index);
  out.positive = "1";
  return out;
}

absl::StatusOr<core::selection::LabeledGraph> LoadGraph(
    const std::string& data_dir, const std::string& name) {
  const std::string file = name == "github"  ? "musae-github-edges.csv"
                           : name == "enron" ? "email-enron.txt"
                                             : "";
  if (file.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Unknown graph ", name));
  }
  // ReadEdgeListCsv accepts both formats: comma-separated without header
  // (musae-github, whose README wrongly promises one) and SNAP's
  // tab-separated directed pairs (both directions merge into one edge).
  return core::selection::ReadEdgeListCsv(data_dir + "/selection/" + file);
}

}  // namespace dpq::bench
