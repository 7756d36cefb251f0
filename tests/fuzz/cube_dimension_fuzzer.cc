// Fuzz target: cube dimensions and cuboid specs, from the owner's text to
// the checked request. Each input line is a --cube-dimension value
// (client/flag_values.h ParseCubeDimension), or with a leading '@' a
// cuboid's --dims list (ParseNameList). The parsed dimensions then build
// the cube schema of a small fixed table as the registry does
// (core::cube::BuildCubeSchema), and each cuboid list is checked against
// it (core::cube::BuildCuboidRequest).
// Invariants: errors are kInvalidArgument (kResourceExhausted for too many
// cells) with a message; a parsed value prints back to the same value; a
// schema's dimensions have distinct labels, one per bin or declared value
// plus "other" (unless closed); a checked request names declared
// dimensions and stays within the cell limits.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "client/flag_values.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/cuboid_request.h"
#include "core/cube/data_cube.h"
#include "core/table/table.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

using core::table::ColumnType;

// Most lines looked at: the schema is built once per input.
constexpr size_t kMaxLines = 64;

// Sex (string), Age (int64), Score (double), City (string), with NULLs.
const core::table::Table& FixedTable() {
  static const core::table::Table* const table = [] {
    absl::StatusOr<core::table::Schema> schema =
        core::table::Schema::Create({{"Sex", ColumnType::kString},
                                     {"Age", ColumnType::kInt64},
                                     {"Score", ColumnType::kDouble},
                                     {"City", ColumnType::kString}});
    FUZZ_CHECK(schema.ok());
    std::vector<std::vector<std::optional<std::string>>> rows = {
        {"F", "20", "0.5", "Paris"},
        {"M", "35", "1.5", "other"},
        {"F", "35", std::nullopt, ""},
        {std::nullopt, "70", "-3", "Lyon"},
        {"M", std::nullopt, "2", "(other)"}};
    absl::StatusOr<core::table::Table> t =
        core::table::Table::FromCells(*schema, rows);
    FUZZ_CHECK_MSG(t.ok(), t.status().ToString());
    return new core::table::Table(*std::move(t));
  }();
  return *table;
}

// The flag text of a parsed dimension.
std::string DimensionText(const v1::CubeDimension& dim) {
  if (dim.bin_edges_size() > 0) {
    std::vector<std::string> edges;
    for (double e : dim.bin_edges())
      edges.push_back(absl::StrFormat("%.17g", e));
    return absl::StrCat(dim.column(), ":", absl::StrJoin(edges, ","));
  }
  if (dim.infer_domain()) return absl::StrCat(dim.column(), "=*");
  if (dim.domain_size() > 0) {
    return absl::StrCat(dim.column(), "=", absl::StrJoin(dim.domain(), "|"));
  }
  return dim.column();
}

void CheckUsageError(const absl::Status& status) {
  CheckError(status);
  FUZZ_CHECK_MSG(status.code() == absl::StatusCode::kInvalidArgument,
                 status.ToString());
}

std::optional<v1::CubeDimension> ParseDimension(const std::string& text) {
  absl::StatusOr<v1::CubeDimension> dim = client::ParseCubeDimension(text);
  if (!dim.ok()) {
    CheckUsageError(dim.status());
    return std::nullopt;
  }
  FUZZ_CHECK(!dim->column().empty());
  const std::string printed = DimensionText(*dim);
  absl::StatusOr<v1::CubeDimension> again = client::ParseCubeDimension(printed);
  FUZZ_CHECK_MSG(again.ok(), again.status().ToString() + "\n" + printed);
  FUZZ_CHECK_MSG(again->SerializeAsString() == dim->SerializeAsString(),
                 printed);
  return *dim;
}

std::optional<std::vector<std::string>> ParseCuboid(const std::string& text) {
  absl::StatusOr<std::vector<std::string>> names =
      client::ParseNameList("--dims", text, /*allow_empty=*/true);
  if (!names.ok()) {
    CheckUsageError(names.status());
    return std::nullopt;
  }
  absl::flat_hash_set<std::string> seen;
  for (const std::string& name : *names) {
    FUZZ_CHECK(!name.empty());
    FUZZ_CHECK(seen.insert(name).second);
  }
  absl::StatusOr<std::vector<std::string>> again =
      client::ParseNameList("--dims", absl::StrJoin(*names, ","), true);
  FUZZ_CHECK(again.ok() && *again == *names);
  return *names;
}

void CheckSchema(const core::cube::CubeSchema& schema,
                 const std::vector<core::cube::DimensionSpec>& specs) {
  FUZZ_CHECK(schema.dimensions.size() == specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const core::cube::CubeDimension& dim = schema.dimensions[i];
    FUZZ_CHECK(dim.column == specs[i].column);
    absl::flat_hash_set<std::string> labels(dim.labels.begin(),
                                            dim.labels.end());
    FUZZ_CHECK_MSG(labels.size() == dim.labels.size(),
                   absl::StrCat("labels of ", dim.column, ": ",
                                absl::StrJoin(dim.labels, " | ")));
    const size_t other = dim.has_other ? 1 : 0;
    if (!specs[i].bin_edges.empty()) {
      FUZZ_CHECK(dim.labels.size() == specs[i].bin_edges.size() - 1 + other);
    } else if (!specs[i].domain.empty()) {
      FUZZ_CHECK(dim.labels.size() == specs[i].domain.size() + other);
    }
  }
}

void CheckRequest(const core::cube::CubeSchema& schema,
                  const std::vector<std::vector<std::string>>& cuboids) {
  core::cube::CuboidRequestSpec spec;
  spec.cuboids = cuboids;
  spec.epsilon = 1;
  absl::StatusOr<core::cube::CuboidRequest> request =
      core::cube::BuildCuboidRequest(schema, {}, spec);
  if (!request.ok()) {
    CheckError(request.status());
    FUZZ_CHECK_MSG(
        request.status().code() == absl::StatusCode::kInvalidArgument ||
            request.status().code() == absl::StatusCode::kResourceExhausted,
        request.status().ToString());
    return;
  }
  FUZZ_CHECK(!request->cuboids.empty());
  FUZZ_CHECK(request->cuboids.size() <= core::cube::kMaxCuboidsPerRequest);
  size_t cells = 0;
  for (const std::vector<std::string>& names : request->cuboids) {
    absl::StatusOr<std::vector<size_t>> dims =
        core::cube::ResolveDimensions(schema, names);
    FUZZ_CHECK_MSG(dims.ok(), dims.status().ToString());
    cells += core::cube::CuboidSize(schema, *dims);
  }
  FUZZ_CHECK(cells <= core::cube::kMaxReleasedCells);
}

}  // namespace

int FuzzCubeDimension(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<core::cube::DimensionSpec> specs;
  std::vector<std::vector<std::string>> cuboids;
  size_t lines = 0;
  for (absl::string_view line : absl::StrSplit(input, '\n')) {
    if (++lines > kMaxLines) break;
    if (!line.empty() && line[0] == '@') {
      std::optional<std::vector<std::string>> names =
          ParseCuboid(std::string(line.substr(1)));
      if (names.has_value()) cuboids.push_back(*std::move(names));
      continue;
    }
    std::optional<v1::CubeDimension> dim = ParseDimension(std::string(line));
    if (!dim.has_value()) continue;
    // As the registry reads a manifest's dimension (cube_builder.cc).
    core::cube::DimensionSpec spec;
    spec.column = dim->column();
    spec.bin_edges.assign(dim->bin_edges().begin(), dim->bin_edges().end());
    spec.domain.assign(dim->domain().begin(), dim->domain().end());
    spec.infer_domain = dim->infer_domain();
    specs.push_back(std::move(spec));
  }
  if (specs.empty()) return 0;
  absl::StatusOr<core::cube::CubeSchema> schema =
      core::cube::BuildCubeSchema(FixedTable(), specs);
  if (!schema.ok()) {
    CheckUsageError(schema.status());
    return 0;
  }
  CheckSchema(*schema, specs);
  CheckRequest(*schema, cuboids);
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzCubeDimension)
