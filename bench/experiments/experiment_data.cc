#include "bench/experiments/experiment_data.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bench/generators/conoise.h"
#include "bench/generators/rnoise.h"
#include "bench/generators/stock_generator.h"
#include "core/constraints/dc_parser.h"
#include "core/util/status_macros.h"

namespace dpq::bench::experiments {

const std::vector<std::string>& AllDatasetNames() {
  static const auto* names = new std::vector<std::string>{
      "stock", "tax", "hospital", "flights", "adult"};
  return *names;
}

namespace {

struct Files {
  std::string folder, clean, dirty, dcs;
};

absl::StatusOr<Files> FilesOf(const std::string& name) {
  if (name == "tax")
    return Files{"tax", "clean-10k.csv", "dirty-10k.csv",
                 "constraints-paper.dc"};
  if (name == "tax50k")
    return Files{"tax", "clean-50k.csv", "dirty-50k.csv",
                 "constraints-paper.dc"};
  if (name == "hospital")
    return Files{"hospital", "clean.csv", "dirty.csv", "constraints-paper.dc"};
  if (name == "flights")
    return Files{"flights", "clean.csv", "dirty.csv", "constraints.dc"};
  if (name == "adult") return Files{"adult", "adult.csv", "", "constraints.dc"};
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown dataset '", name,
                   "'; use stock, tax, tax50k, hospital, flights or adult."));
}

// Row subset shared by the clean and dirty files (same rows, same order).
std::vector<size_t> SubsetIndex(size_t total, size_t rows, uint64_t seed) {
  generators::CellTable index_table;
  index_table.rows.resize(total);
  for (size_t i = 0; i < total; ++i) index_table.rows[i] = {std::to_string(i)};
  const generators::CellTable sample =
      generators::SampleRows(index_table, rows, seed);
  std::vector<size_t> out;
  for (const auto& row : sample.rows) out.push_back(std::stoul(*row[0]));
  return out;
}

generators::CellTable Pick(const generators::CellTable& t,
                           const std::vector<size_t>& index) {
  generators::CellTable out;
  out.schema = t.schema;
  for (size_t i : index) out.rows.push_back(t.rows[i]);
  return out;
}

// Per column the wider of the two types: string > double > int64.
absl::StatusOr<core::table::Schema> WiderSchema(const core::table::Schema& a,
                                                const core::table::Schema& b) {
  using core::table::ColumnType;
  if (a.num_columns() != b.num_columns()) {
    return absl::InvalidArgumentError(
        "The clean and dirty files have different columns.");
  }
  auto rank = [](ColumnType t) {
    return t == ColumnType::kInt64 ? 0 : (t == ColumnType::kDouble ? 1 : 2);
  };
  std::vector<core::table::ColumnSpec> columns = a.columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    if (rank(b.column(c).type) > rank(columns[c].type)) {
      columns[c].type = b.column(c).type;
    }
  }
  return core::table::Schema::Create(std::move(columns));
}

}  // namespace

absl::StatusOr<Dataset> LoadDataset(const std::string& name,
                                    const std::string& data_dir, size_t rows,
                                    uint64_t seed) {
  Dataset d;
  d.name = name;
  if (name == "stock") {
    ASSIGN_OR_RETURN(d.clean,
                     generators::GenerateStock({.rows = rows, .seed = seed}));
    ASSIGN_OR_RETURN(d.dcs,
                     core::constraints::ParseDenialConstraints(
                         generators::StockConstraints(), d.clean.schema));
    return d;
  }
  ASSIGN_OR_RETURN(Files f, FilesOf(name));
  const std::string dir = data_dir + "/" + f.folder + "/";
  ASSIGN_OR_RETURN(generators::CellTable clean,
                   generators::ReadCellTable(dir + f.clean));
  const std::vector<size_t> index = SubsetIndex(clean.rows.size(), rows, seed);
  d.clean = Pick(clean, index);
  if (!f.dirty.empty()) {
    ASSIGN_OR_RETURN(generators::CellTable dirty,
                     generators::ReadCellTable(dir + f.dirty));
    if (dirty.rows.size() != clean.rows.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir, f.dirty, " has ", dirty.rows.size(),
                       " rows, the clean file ", clean.rows.size()));
    }
    d.dirty = Pick(dirty, index);
    // One schema for both: the dirty file's typos may make a numeric column
    // textual ("1xx19") or an integer one fractional; both tables get the
    // wider type so that the same DCs apply to both.
    ASSIGN_OR_RETURN(d.clean.schema, WiderSchema(d.clean.schema, dirty.schema));
    d.dirty.schema = d.clean.schema;
    d.has_dirty = true;
  }
  ASSIGN_OR_RETURN(d.dcs, core::constraints::ReadDenialConstraintsFile(
                              dir + f.dcs, d.clean.schema));
  return d;
}

std::string NoiseLabel(const NoiseSpec& noise) {
  switch (noise.kind) {
    case NoiseSpec::Kind::kRNoise:
      return absl::StrCat("rnoise-", noise.alpha);
    case NoiseSpec::Kind::kCoNoise:
      return absl::StrCat("conoise-", noise.iterations);
    case NoiseSpec::Kind::kDirty:
      return "dirty";
  }
  return "";
}

absl::StatusOr<NoiseSpec> ParseNoiseLabel(const std::string& label) {
  NoiseSpec spec;
  if (label == "dirty") {
    spec.kind = NoiseSpec::Kind::kDirty;
    return spec;
  }
  if (absl::StartsWith(label, "rnoise-") &&
      absl::SimpleAtod(label.substr(7), &spec.alpha)) {
    spec.kind = NoiseSpec::Kind::kRNoise;
    return spec;
  }
  if (absl::StartsWith(label, "conoise-") &&
      absl::SimpleAtoi(label.substr(8), &spec.iterations)) {
    spec.kind = NoiseSpec::Kind::kCoNoise;
    return spec;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Bad noise '", label,
                   "'; use rnoise-ALPHA, conoise-ITERATIONS or dirty."));
}

absl::StatusOr<generators::NoiseLog> GenerateNoise(const Dataset& dataset,
                                                   const NoiseSpec& noise,
                                                   uint64_t seed) {
  switch (noise.kind) {
    case NoiseSpec::Kind::kRNoise:
      return generators::GenerateRNoise(dataset.clean, dataset.dcs,
                                        {.alpha = noise.alpha, .seed = seed});
    case NoiseSpec::Kind::kCoNoise:
      return generators::GenerateCoNoise(
          dataset.clean, dataset.dcs,
          {.iterations = noise.iterations, .seed = seed});
    case NoiseSpec::Kind::kDirty:
      break;
  }
  return generators::NoiseLog{};
}

}  // namespace dpq::bench::experiments
