// Loads the benchmark datasets in ../shared/data next to the repository
// (label shared-data) and checks their shapes and inferred types.
#include "tests/testing/shared_data.h"

#include <cstddef>
#include <string>

#include "core/table/csv_reader.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::table {
namespace {

using ::testing::Optional;

struct DatasetCase {
  const char* file;
  size_t rows;
  size_t columns;
};

// Every test reads ../shared/data: it fails at once, saying so, when the
// file is missing.
class SharedDataTest : public ::testing::TestWithParam<DatasetCase> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(::dpq::testing::HasSharedData(GetParam().file));
  }
};
class SharedDataTypesTest : public ::dpq::testing::SharedDataSuite {};

std::string DataPath(const std::string& file) {
  return ::dpq::testing::SharedDataPath(file);
}

ColumnType TypeOf(const Table& table, const char* name) {
  const std::optional<size_t> index = table.schema().FindColumn(name);
  EXPECT_TRUE(index.has_value()) << name;
  return index.has_value() ? table.schema().column(*index).type
                           : ColumnType::kString;
}

TEST_P(SharedDataTest, LoadsWithTheExpectedShape) {
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsvFile(DataPath(GetParam().file)));
  EXPECT_EQ(table.num_rows(), GetParam().rows);
  EXPECT_EQ(table.num_columns(), GetParam().columns);
  for (size_t c = 0; c < table.num_columns(); ++c) {
    EXPECT_EQ(table.column(c).nulls.size(), table.num_rows());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Benchmarks, SharedDataTest,
    ::testing::Values(DatasetCase{"hospital/clean.csv", 1000, 19},
                      DatasetCase{"hospital/dirty.csv", 1000, 19},
                      DatasetCase{"flights/clean.csv", 2376, 6},
                      DatasetCase{"flights/dirty.csv", 2376, 6},
                      DatasetCase{"tax/clean-10k.csv", 10000, 15},
                      DatasetCase{"tax/dirty-10k.csv", 10000, 15},
                      DatasetCase{"tax/clean-50k.csv", 50000, 15},
                      DatasetCase{"tax/dirty-50k.csv", 50000, 15},
                      DatasetCase{"adult/adult.csv", 32561, 15}));

TEST_F(SharedDataTypesTest, AdultHasIntegerAgeAndStringWorkClass) {
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsvFile(DataPath("adult/adult.csv")));
  EXPECT_EQ(TypeOf(table, "Age"), ColumnType::kInt64);
  EXPECT_EQ(TypeOf(table, "Gain"), ColumnType::kInt64);
  EXPECT_EQ(TypeOf(table, "WorkClass"), ColumnType::kString);
  EXPECT_EQ(table.CellText(0, 0), "39");  // first data row, as in the file
}

TEST_F(SharedDataTypesTest, TaxZipIsStringBecauseOfLeadingZeros) {
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsvFile(DataPath("tax/dirty-50k.csv")));
  EXPECT_EQ(TypeOf(table, "zip"), ColumnType::kString);
  EXPECT_TRUE(table.dictionary().Find("01907").has_value());
  EXPECT_EQ(TypeOf(table, "salary"), ColumnType::kInt64);
  // `rate` has 50 cells spelled "NaN": the column is still double and those
  // cells are NULL (NaN compares false with everything, like NULL).
  EXPECT_EQ(TypeOf(table, "rate"), ColumnType::kDouble);
  const Column& rate = table.column(*table.schema().FindColumn("rate"));
  size_t nulls = 0;
  for (size_t row = 0; row < table.num_rows(); ++row) nulls += rate.nulls[row];
  EXPECT_EQ(nulls, 50u);
  EXPECT_EQ(rate.doubles[0], 5.3);  // "Pengyuan,Zendler,...,5.3,..."
}

TEST_F(SharedDataTypesTest, TaxZipCanBeDeclaredInt64) {
  CsvOptions options;
  options.schema = *ParseSchemaOverrides("zip: int64");
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsvFile(DataPath("tax/dirty-10k.csv"), options));
  const size_t zip = *table.schema().FindColumn("zip");
  EXPECT_EQ(table.column(zip).type, ColumnType::kInt64);
  EXPECT_EQ(table.CellText(zip, 0), "1907");  // "01907" in the file
}

TEST_F(SharedDataTypesTest, HospitalZipIsIntegerOnlyInTheCleanFile) {
  ASSERT_OK_AND_ASSIGN(const Table clean,
                       ReadCsvFile(DataPath("hospital/clean.csv")));
  ASSERT_OK_AND_ASSIGN(const Table dirty,
                       ReadCsvFile(DataPath("hospital/dirty.csv")));
  EXPECT_EQ(TypeOf(clean, "ZipCode"), ColumnType::kInt64);
  // The dirty file has typos such as "x5957".
  EXPECT_EQ(TypeOf(dirty, "ZipCode"), ColumnType::kString);
  EXPECT_EQ(TypeOf(dirty, "City"), ColumnType::kString);
}

TEST_F(SharedDataTypesTest, FlightTimesAreStrings) {
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsvFile(DataPath("flights/dirty.csv")));
  EXPECT_EQ(TypeOf(table, "sched_dep_time"), ColumnType::kString);
  EXPECT_THAT(table.dictionary().Find("7:10 a.m."), Optional(::testing::_));
  // CRLF row ends are not part of the last column's values.
  EXPECT_EQ(table.CellText(5, 0), "9:32 a.m.");
}

}  // namespace
}  // namespace dpq::core::table
