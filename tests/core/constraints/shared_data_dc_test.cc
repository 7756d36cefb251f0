// Loads every DC file shipped in ../shared/data against its CSV's header
// (label shared-data). Only the header line is read (not the CSV reader):
// string columns by default, numeric types where a DC orders values.
#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/shared_data.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::constraints {
namespace {

using table::ColumnType;
using table::Schema;
using ::testing::SizeIs;

const std::string kDataDir = ::dpq::testing::SharedDataDir();

// Every test reads ../shared/data: it fails at once, saying so, when the
// folder is missing.
class SharedDataDcTest : public ::dpq::testing::SharedDataSuite {};

// A schema from the first line of `csv` (relative to the data directory).
absl::StatusOr<Schema> HeaderSchema(
    const std::string& csv,
    const absl::flat_hash_map<std::string, ColumnType>& numeric) {
  std::ifstream in(kDataDir + "/" + csv);
  std::string header;
  if (!std::getline(in, header)) {
    return absl::NotFoundError("Cannot read the header of " + csv);
  }
  absl::string_view line = header;
  absl::ConsumePrefix(&line, "\xEF\xBB\xBF");
  absl::ConsumeSuffix(&line, "\r");
  std::vector<table::ColumnSpec> columns;
  for (absl::string_view name : absl::StrSplit(line, ',')) {
    table::ColumnSpec spec{std::string(name), ColumnType::kString};
    auto it = numeric.find(spec.name);
    if (it != numeric.end()) spec.type = it->second;
    columns.push_back(spec);
  }
  return Schema::Create(columns);
}

struct DcFile {
  std::string dc_file;
  std::string csv;
  absl::flat_hash_map<std::string, ColumnType> numeric;
  size_t expected_dcs;
  size_t expected_fds;
};

std::vector<DcFile> AllDcFiles() {
  const absl::flat_hash_map<std::string, ColumnType> tax_numeric = {
      {"salary", ColumnType::kInt64}, {"rate", ColumnType::kDouble}};
  return {
      {"hospital/constraints.dc", "hospital/dirty.csv", {}, 15, 15},
      {"hospital/constraints-paper.dc", "hospital/dirty.csv", {}, 7, 7},
      // The last flights DC equates two different columns: not an FD.
      {"flights/constraints.dc", "flights/dirty.csv", {}, 6, 5},
      {"tax/constraints.dc", "tax/dirty-10k.csv", tax_numeric, 8, 8},
      // The first tax-paper DC has no !=; the last two order salary/rate.
      {"tax/constraints-paper.dc", "tax/dirty-10k.csv", tax_numeric, 9, 6},
      // Adult: two FDs (EduNum <-> Education) and the Gain/Loss DC.
      {"adult/constraints.dc",
       "adult/adult.csv",
       {{"Gain", ColumnType::kInt64}, {"Loss", ColumnType::kInt64}},
       3,
       2},
  };
}

TEST_F(SharedDataDcTest, EveryDcFileLoads) {
  for (const DcFile& file : AllDcFiles()) {
    SCOPED_TRACE(file.dc_file);
    ASSERT_OK_AND_ASSIGN(Schema schema, HeaderSchema(file.csv, file.numeric));
    ASSERT_OK_AND_ASSIGN(
        std::vector<DenialConstraint> dcs,
        ReadDenialConstraintsFile(kDataDir + "/" + file.dc_file, schema));
    EXPECT_THAT(dcs, SizeIs(file.expected_dcs));
    size_t fds = 0;
    for (size_t i = 0; i < dcs.size(); ++i) {
      EXPECT_EQ(dcs[i].line, static_cast<int>(i) + 1);
      fds += dcs[i].IsFunctionalDependency() ? 1 : 0;
      // Rendering and re-parsing gives the same DC.
      ASSERT_OK_AND_ASSIGN(
          std::vector<DenialConstraint> again,
          ParseDenialConstraintLine(dcs[i].ToString(schema), schema));
      ASSERT_THAT(again, SizeIs(1));
      EXPECT_EQ(again[0].ToString(schema), dcs[i].ToString(schema));
    }
    EXPECT_EQ(fds, file.expected_fds);
  }
}

TEST_F(SharedDataDcTest, TaxPaperInequalityDcIsNormalised) {
  ASSERT_OK_AND_ASSIGN(
      Schema schema,
      HeaderSchema("tax/dirty-10k.csv", {{"salary", ColumnType::kInt64},
                                         {"rate", ColumnType::kDouble}}));
  ASSERT_OK_AND_ASSIGN(std::vector<DenialConstraint> dcs,
                       ReadDenialConstraintsFile(
                           kDataDir + "/tax/constraints-paper.dc", schema));
  ASSERT_THAT(dcs, SizeIs(9));
  EXPECT_EQ(dcs[7].ToString(schema),
            "not(t1.state=t2.state&t1.salary>t2.salary&t1.rate<t2.rate)");
}

TEST_F(SharedDataDcTest, AdultInequalityNeedsNumericColumns) {
  // With Gain/Loss as strings, `<` is lexicographic but still allowed.
  ASSERT_OK_AND_ASSIGN(Schema schema, HeaderSchema("adult/adult.csv", {}));
  EXPECT_THAT(
      ReadDenialConstraintsFile(kDataDir + "/adult/constraints.dc", schema),
      ::dpq::testing::IsOkAndHolds(SizeIs(3)));
}

}  // namespace
}  // namespace dpq::core::constraints
