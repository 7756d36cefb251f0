// dpq-peers: the C++ half of bench/peers/run.sh (docs/performance.md
// "Conflict detection against DuckDB").
//
//   dpq-peers sql --data F.csv --constraints F.dc [--schema F.schema]
//       prints DuckDB SQL: "-- load", the CREATE TABLE statement, "-- query",
//       the count of conflicting pairs. The DCs are parsed by dpq's own
//       parser against the CSV header typed like dpq-measure types it
//       (every column text without --schema; with it, every column must be
//       declared), so both systems read the same constraints.
//   dpq-peers table --results F.tsv
//       prints the side-by-side Markdown table; exits 1 if any run's
//       counts differ.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bench/peers/dc_sql.h"
#include "bench/peers/report_table.h"
#include "core/constraints/dc_parser.h"
#include "core/table/csv_reader.h"
#include "core/util/status_macros.h"

namespace {

namespace peers = dpq::bench::peers;
namespace table = dpq::core::table;

constexpr char kUsage[] =
    "usage: dpq-peers sql --data F.csv --constraints F.dc [--schema S]\n"
    "       dpq-peers table --results F.tsv\n";

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("Cannot open '", path, "'."));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The header line only (a quoted header name holding a newline is not
// supported here): the SQL does not depend on the rows.
absl::StatusOr<std::string> ReadHeaderLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("Cannot open '", path, "'."));
  std::string line;
  std::getline(in, line);
  return line + "\n";
}

// The schema dpq-measure would use: declared types with --schema (every
// column must be declared), else every column text.
absl::StatusOr<table::Schema> HeaderSchema(
    const std::map<std::string, std::string>& flags) {
  table::CsvOptions csv;
  const auto schema = flags.find("--schema");
  if (schema != flags.end()) {
    ASSIGN_OR_RETURN(std::string text, ReadTextFile(schema->second));
    ASSIGN_OR_RETURN(csv.schema, table::ParseSchemaOverrides(text));
    csv.untyped = table::UntypedColumns::kRefuse;
  } else {
    csv.untyped = table::UntypedColumns::kString;
  }
  ASSIGN_OR_RETURN(std::string header, ReadHeaderLine(flags.at("--data")));
  ASSIGN_OR_RETURN(table::Table t, table::ReadCsv(header, csv));
  return t.schema();
}

absl::Status PrintSql(const std::map<std::string, std::string>& flags) {
  if (!flags.contains("--data") || !flags.contains("--constraints")) {
    return absl::InvalidArgumentError("--data and --constraints are required");
  }
  ASSIGN_OR_RETURN(const table::Schema schema, HeaderSchema(flags));
  ASSIGN_OR_RETURN(const auto dcs,
                   dpq::core::constraints::ReadDenialConstraintsFile(
                       flags.at("--constraints"), schema));
  std::cout << "-- load\n"
            << peers::LoadTableSql(schema, flags.at("--data")) << "\n"
            << "-- query\n"
            << peers::CountConflictsSql(dcs, schema) << "\n";
  return absl::OkStatus();
}

absl::StatusOr<bool> PrintTable(
    const std::map<std::string, std::string>& flags) {
  if (!flags.contains("--results")) {
    return absl::InvalidArgumentError("--results is required");
  }
  ASSIGN_OR_RETURN(const std::string text, ReadTextFile(flags.at("--results")));
  std::vector<peers::PeerRun> runs;
  bool all_agree = true;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    ASSIGN_OR_RETURN(peers::PeerRun run, peers::ParseRunLine(line));
    all_agree = all_agree && peers::CountsAgree(run);
    runs.push_back(std::move(run));
  }
  std::cout << peers::RenderTable(runs);
  return all_agree;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || (argc - 2) % 2 != 0) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  std::map<std::string, std::string> flags;
  for (int i = 2; i + 1 < argc; i += 2) flags[argv[i]] = argv[i + 1];
  absl::Status status;
  bool agree = true;
  if (command == "sql") {
    status = PrintSql(flags);
  } else if (command == "table") {
    absl::StatusOr<bool> result = PrintTable(flags);
    status = result.status();
    if (result.ok()) agree = *result;
  } else {
    std::cerr << kUsage;
    return 2;
  }
  if (!status.ok()) {
    std::cerr << "dpq-peers: " << status.message() << "\n";
    return 2;
  }
  if (!agree) {
    std::cerr << "dpq-peers: dpq and DuckDB counted different pairs\n";
    return 1;
  }
  return 0;
}
