#include "core/table/csv_reader.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::table {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The cells of column `column` as text, with NULL shown as "<null>" so that
// it differs from every real cell.
std::vector<std::string> Texts(const Table& table, size_t column) {
  std::vector<std::string> texts;
  for (size_t row = 0; row < table.num_rows(); ++row) {
    texts.push_back(table.column(column).is_null(row)
                        ? "<null>"
                        : table.CellText(column, row));
  }
  return texts;
}

std::vector<ColumnType> Types(const Table& table) {
  std::vector<ColumnType> types;
  for (const ColumnSpec& spec : table.schema().columns()) {
    types.push_back(spec.type);
  }
  return types;
}

CsvOptions WithSchema(absl::string_view schema_text) {
  CsvOptions options;
  options.schema = *ParseSchemaOverrides(schema_text);
  return options;
}

// --- RFC 4180 ---

TEST(ReadCsvTest, ReadsHeaderAndTypedRows) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("id,score,name\n1,2.5,ann\n2,3,bob\n"));
  ASSERT_EQ(table.num_rows(), 2u);
  ASSERT_EQ(table.num_columns(), 3u);
  EXPECT_EQ(table.schema().column(0).name, "id");
  EXPECT_EQ(table.schema().column(2).name, "name");
  EXPECT_THAT(Types(table), ElementsAre(ColumnType::kInt64, ColumnType::kDouble,
                                        ColumnType::kString));
  EXPECT_THAT(table.column(0).int64s, ElementsAre(1, 2));
  EXPECT_THAT(table.column(1).doubles, ElementsAre(2.5, 3.0));
  EXPECT_THAT(Texts(table, 2), ElementsAre("ann", "bob"));
}

TEST(ReadCsvTest, QuotedFieldsKeepCommasAndUndoubleQuotes) {
  ASSERT_OK_AND_ASSIGN(
      Table table,
      ReadCsv("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n\"\"\"\",plain\n"));
  EXPECT_THAT(Texts(table, 0), ElementsAre("x, y", "\""));
  EXPECT_THAT(Texts(table, 1), ElementsAre("say \"hi\"", "plain"));
}

TEST(ReadCsvTest, QuotedFieldsKeepEmbeddedLfAndCrlf) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("a,b\n\"line1\nline2\",1\n\"x\r\ny\",2\n"));
  EXPECT_THAT(Texts(table, 0), ElementsAre("line1\nline2", "x\r\ny"));
  EXPECT_THAT(table.column(1).int64s, ElementsAre(1, 2));
}

TEST(ReadCsvTest, AcceptsCrlfRowEnds) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("a,b\r\n1,x\r\n2,y\r\n"));
  EXPECT_EQ(table.schema().column(1).name, "b");
  EXPECT_THAT(table.column(0).int64s, ElementsAre(1, 2));
  EXPECT_THAT(Texts(table, 1), ElementsAre("x", "y"));
}

TEST(ReadCsvTest, FinalNewlineIsOptional) {
  ASSERT_OK_AND_ASSIGN(Table with, ReadCsv("a,b\n1,x\n2,y\n"));
  ASSERT_OK_AND_ASSIGN(Table without, ReadCsv("a,b\n1,x\n2,y"));
  ASSERT_OK_AND_ASSIGN(Table quoted_last, ReadCsv("a,b\n1,x\n2,\"y\""));
  for (const Table* table : {&with, &without, &quoted_last}) {
    EXPECT_THAT(table->column(0).int64s, ElementsAre(1, 2));
    EXPECT_THAT(Texts(*table, 1), ElementsAre("x", "y"));
  }
}

TEST(ReadCsvTest, SkipsUtf8ByteOrderMark) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("\xEF\xBB\xBF"
                                            "id,v\n7,a\n"));
  EXPECT_EQ(table.schema().column(0).name, "id");
  EXPECT_TRUE(table.schema().FindColumn("id").has_value());
  EXPECT_THAT(table.column(0).int64s, ElementsAre(7));
}

TEST(ReadCsvTest, QuotedHeaderNamesAreUnquoted) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("\"a,1\",\"b\"\"\"\nx,y\n"));
  EXPECT_EQ(table.schema().column(0).name, "a,1");
  EXPECT_EQ(table.schema().column(1).name, "b\"");
}

TEST(ReadCsvTest, HeaderOnlyInputIsAnEmptyTable) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("a,b\n"));
  EXPECT_EQ(table.num_rows(), 0u);
  EXPECT_EQ(table.num_columns(), 2u);
  EXPECT_THAT(Types(table),
              ElementsAre(ColumnType::kString, ColumnType::kString));
  ASSERT_OK_AND_ASSIGN(Table typed, ReadCsv("a,b", WithSchema("a: int64")));
  EXPECT_THAT(Types(typed),
              ElementsAre(ColumnType::kInt64, ColumnType::kString));
}

TEST(ReadCsvTest, EmptyLineIsARowWithOneNullField) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("a\n1\n\n3\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kInt64);
  EXPECT_THAT(Texts(table, 0), ElementsAre("1", "<null>", "3"));
}

// --- NULLs and whitespace ---

TEST(ReadCsvTest, EmptyAndQuotedEmptyCellsAreNull) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("n,s\n1,x\n,\"\"\n3,\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kInt64);
  EXPECT_THAT(Texts(table, 0), ElementsAre("1", "<null>", "3"));
  EXPECT_THAT(Texts(table, 1), ElementsAre("x", "<null>", "<null>"));
  EXPECT_EQ(table.CellText(1, 1), "");
}

TEST(ReadCsvTest, SpacesAreKeptInStringsAndIgnoredAroundNumbers) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("n,d,s\n 1 , 2.5,  x \n2,3 ,y\n"));
  EXPECT_THAT(Types(table), ElementsAre(ColumnType::kInt64, ColumnType::kDouble,
                                        ColumnType::kString));
  EXPECT_THAT(table.column(0).int64s, ElementsAre(1, 2));
  EXPECT_THAT(table.column(1).doubles, ElementsAre(2.5, 3.0));
  EXPECT_THAT(Texts(table, 2), ElementsAre("  x ", "y"));
}

TEST(ReadCsvTest, CellOfSpacesIsNotNullAndNotANumber) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("n\n1\n  \n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kString);
  EXPECT_THAT(Texts(table, 0), ElementsAre("1", "  "));
}

TEST(ReadCsvTest, NullValuesOptionAddsNullSpellings) {
  CsvOptions options;
  options.null_values = {"-"};
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("rate\n5.3\n-\n1\n", options));
  EXPECT_EQ(table.column(0).type, ColumnType::kDouble);
  EXPECT_THAT(Texts(table, 0), ElementsAre("5.3", "<null>", "1"));
  ASSERT_OK_AND_ASSIGN(Table plain, ReadCsv("rate\n5.3\n-\n1\n"));
  EXPECT_EQ(plain.column(0).type, ColumnType::kString);
}

TEST(ReadCsvTest, NanIsNullInANumericColumn) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("rate\n5.3\nNaN\n1\nnan\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kDouble);
  EXPECT_THAT(Texts(table, 0), ElementsAre("5.3", "<null>", "1", "<null>"));
  ASSERT_OK_AND_ASSIGN(Table declared,
                       ReadCsv("r\n1.5\nNaN\n", WithSchema("r: double")));
  EXPECT_TRUE(declared.column(0).is_null(1));
}

// --- Type inference ---

TEST(ReadCsvTest, InfersInt64) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("v\n-5\n+7\n0\n9223372036854775807\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kInt64);
  EXPECT_THAT(table.column(0).int64s,
              ElementsAre(-5, 7, 0, INT64_C(9223372036854775807)));
}

TEST(ReadCsvTest, MixedIntAndDoubleIsDouble) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("v\n1\n2.5\n-3\n1e2\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kDouble);
  EXPECT_THAT(table.column(0).doubles, ElementsAre(1.0, 2.5, -3.0, 100.0));
}

TEST(ReadCsvTest, IntegerOverflowingInt64IsDouble) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("v\n1\n99999999999999999999\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kDouble);
  EXPECT_EQ(table.column(0).doubles[1], 1e20);
}

TEST(ReadCsvTest, NonNumbersMakeAString) {
  for (const char* csv : {"v\n1\nabc\n", "v\nNaN\nx\n", "v\n1\ninf\n",
                          "v\n1\n1e999\n", "v\n\"1\"\"\"\n2\n"}) {
    ASSERT_OK_AND_ASSIGN(Table table, ReadCsv(csv));
    EXPECT_EQ(table.column(0).type, ColumnType::kString) << csv;
  }
}

TEST(ReadCsvTest, QuotedNumbersAreNumbers) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("v\n\"12\"\n3\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kInt64);
  EXPECT_THAT(table.column(0).int64s, ElementsAre(12, 3));
}

TEST(ReadCsvTest, LeadingZerosMakeAStringColumn) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("zip,code\n01907,0\n1907,10\n"));
  EXPECT_EQ(table.column(0).type, ColumnType::kString);
  EXPECT_THAT(Texts(table, 0), ElementsAre("01907", "1907"));
  // A lone zero is an ordinary integer.
  EXPECT_EQ(table.column(1).type, ColumnType::kInt64);
}

TEST(ReadCsvTest, AllNullColumnIsString) {
  ASSERT_OK_AND_ASSIGN(Table table, ReadCsv("a,b\n1,\n2,\n"));
  EXPECT_EQ(table.column(1).type, ColumnType::kString);
  EXPECT_TRUE(table.column(1).is_null(0));
  EXPECT_TRUE(table.column(1).is_null(1));
}

TEST(ReadCsvTest, DeclaredInt64ParsesLeadingZeros) {
  ASSERT_OK_AND_ASSIGN(
      Table table, ReadCsv("zip\n01907\n1907\n\n", WithSchema("zip: int64")));
  EXPECT_EQ(table.column(0).type, ColumnType::kInt64);
  EXPECT_THAT(Texts(table, 0), ElementsAre("1907", "1907", "<null>"));
}

TEST(ReadCsvTest, DeclaredStringKeepsNumbersAsText) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("n,m\n1, 2\n3,4\n", WithSchema("n: string")));
  EXPECT_EQ(table.column(0).type, ColumnType::kString);
  EXPECT_THAT(Texts(table, 0), ElementsAre("1", "3"));
  EXPECT_EQ(table.column(1).type, ColumnType::kInt64);
}

TEST(ReadCsvTest, DeclaredDoubleWidensIntegers) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("n\n1\n2\n", WithSchema("n: double")));
  EXPECT_EQ(table.column(0).type, ColumnType::kDouble);
  EXPECT_THAT(table.column(0).doubles, ElementsAre(1.0, 2.0));
}

TEST(ReadCsvTest, CellThatDoesNotFitTheDeclaredTypeIsAnError) {
  EXPECT_THAT(ReadCsv("id,age\n1,30\n2,thirty\n", WithSchema("age: int")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 3"), HasSubstr("\"age\""),
                             HasSubstr("\"thirty\""), HasSubstr("int64"))));
  EXPECT_THAT(ReadCsv("r\n1.5\ninf\n", WithSchema("r: double")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 3"), HasSubstr("\"inf\""),
                             HasSubstr("double"))));
  EXPECT_THAT(
      ReadCsv("n\n1.5\n", WithSchema("n: int64")),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 2")));
}

// docs/core.md "Cells, types and NULL", written down once: under a fixed
// type a cell's meaning depends on that cell alone, so adding a row never
// changes another cell's meaning (docs/privacy.md 2.2).
TEST(ReadCsvTest, CellMeaningDependsOnTheCellAlone) {
  const std::string cells = "v\n\nNA\nNaN\nnan\n1.0\n1.00\n 42 \n01907\n";
  CsvOptions as_double = WithSchema("v: double");
  as_double.null_values = {"NA"};
  ASSERT_OK_AND_ASSIGN(Table d, ReadCsv(cells, as_double));
  EXPECT_THAT(Texts(d, 0), ElementsAre("<null>", "<null>", "<null>", "<null>",
                                       "1", "1", "42", "1907"));
  EXPECT_EQ(d.column(0).doubles[4], d.column(0).doubles[5]);  // 1.0 == 1.00
  CsvOptions as_string = WithSchema("v: string");
  as_string.null_values = {"NA"};
  ASSERT_OK_AND_ASSIGN(Table t, ReadCsv(cells, as_string));
  EXPECT_THAT(Texts(t, 0), ElementsAre("<null>", "<null>", "NaN", "nan", "1.0",
                                       "1.00", " 42 ", "01907"));
  // int64 refuses what is not an integer: at registration, never NULL.
  EXPECT_THAT(ReadCsv("v\n1.0\n", WithSchema("v: int64")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("\"1.0\" is not an int64")));
  EXPECT_THAT(ReadCsv("v\nNaN\n", WithSchema("v: int64")),
              ::dpq::testing::IsOk());
  // Adding a row of any content to a declared column re-types nothing.
  ASSERT_OK_AND_ASSIGN(Table more, ReadCsv(cells + "x\n", as_string));
  EXPECT_EQ(more.column(0).type, ColumnType::kString);
  EXPECT_THAT(ReadCsv(cells + "x\n", as_double),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("\"x\" is not a double")));
}

TEST(ReadCsvTest, UntypedColumnsAreTextRefusedOrInferredAsAsked) {
  CsvOptions options;
  options.untyped = UntypedColumns::kString;
  ASSERT_OK_AND_ASSIGN(Table text, ReadCsv("a,b\n1,2\n", options));
  EXPECT_THAT(Types(text),
              ElementsAre(ColumnType::kString, ColumnType::kString));
  options = WithSchema("a: int64");
  options.untyped = UntypedColumns::kRefuse;
  EXPECT_THAT(ReadCsv("a,b\n1,2\n", options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("no type is declared for column \"b\"")));
  // Fallback types (a replaced version's) fill only columns the header has.
  options.fallback_types = *ParseSchemaOverrides("b: double\nc: int64\n");
  ASSERT_OK_AND_ASSIGN(Table fallback, ReadCsv("a,b\n1,2\n", options));
  EXPECT_THAT(Types(fallback),
              ElementsAre(ColumnType::kInt64, ColumnType::kDouble));
}

TEST(ReadCsvTest, SchemaNamingAnUnknownColumnIsAnError) {
  EXPECT_THAT(ReadCsv("a,b\n1,2\n", WithSchema("c: int64")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("\"c\""), HasSubstr("header"))));
}

// --- Dictionary ---

TEST(ReadCsvTest, DictionaryIdsCompareLikeStringsAcrossColumns) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("x,y\npear,apple\nfig,pear\nBanana,\n"));
  const StringDictionary& dictionary = table.dictionary();
  EXPECT_EQ(dictionary.size(), 4u);  // apple, Banana, fig, pear
  std::vector<std::pair<std::string, uint32_t>> cells;
  for (size_t c = 0; c < 2; ++c) {
    for (size_t row = 0; row < table.num_rows(); ++row) {
      if (table.column(c).is_null(row)) continue;
      const uint32_t id = table.column(c).string_ids[row];
      cells.emplace_back(std::string(dictionary.at(id)), id);
    }
  }
  ASSERT_EQ(cells.size(), 5u);
  for (const auto& [text_a, id_a] : cells) {
    for (const auto& [text_b, id_b] : cells) {
      EXPECT_EQ(text_a < text_b, id_a < id_b) << text_a << " " << text_b;
      EXPECT_EQ(text_a == text_b, id_a == id_b) << text_a << " " << text_b;
    }
  }
  // "pear" occurs in both columns with one id.
  EXPECT_EQ(table.column(0).string_ids[0], table.column(1).string_ids[1]);
  EXPECT_EQ(dictionary.at(0), "Banana");  // byte order: 'B' < 'a'
}

TEST(ReadCsvTest, UnescapedStringsAreInternedOnce) {
  ASSERT_OK_AND_ASSIGN(Table table,
                       ReadCsv("x,y\n\"a\"\"b\",a\n\"a\"\"b\",\"a\"\n"));
  EXPECT_EQ(table.dictionary().size(), 2u);  // a"b and a
  EXPECT_EQ(table.column(0).string_ids[0], table.column(0).string_ids[1]);
  EXPECT_EQ(table.column(1).string_ids[0], table.column(1).string_ids[1]);
  EXPECT_EQ(table.CellText(0, 1), "a\"b");
}

// --- Errors ---

TEST(ReadCsvErrorTest, EmptyInput) {
  for (absl::string_view csv :
       {absl::string_view(""), absl::string_view("\xEF\xBB\xBF")}) {
    EXPECT_THAT(ReadCsv(csv),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "CSV input is empty: a header row is required"));
  }
}

TEST(ReadCsvErrorTest, WrongFieldCount) {
  EXPECT_THAT(
      ReadCsv("a,b\n1,2\n1,2,3\n"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "line 3: expected 2 fields (as in the header), found 3"));
  EXPECT_THAT(
      ReadCsv("a,b\n1\n"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "line 2: expected 2 fields (as in the header), found 1"));
  // A trailing blank line is a record with one field.
  EXPECT_THAT(ReadCsv("a,b\n1,2\n\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 3: expected 2 fields")));
}

TEST(ReadCsvErrorTest, LinesCountPhysicalLinesInsideQuotes) {
  // The record "x\ny",1 spans lines 2-3, so the bad record starts on line 4.
  EXPECT_THAT(ReadCsv("a,b\n\"x\ny\",1\n1,2,3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 4: expected 2 fields")));
  // A wrong count is reported where its record starts, even if it spans
  // more lines.
  EXPECT_THAT(ReadCsv("a,b\n1,2\n\"p\r\nq\"\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 3: expected 2 fields")));
  // A field error names the line of the field, not of its record.
  EXPECT_THAT(ReadCsv("a,b\n\"x\ny\",z\"\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 3, column 2")));
}

TEST(ReadCsvErrorTest, UnterminatedQuoteNamesTheLineItOpens) {
  EXPECT_THAT(ReadCsv("a,b\n1,2\n3,\"open\nmore\nlines\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 3, column 2 (\"b\")"),
                             HasSubstr("unterminated"))));
}

TEST(ReadCsvErrorTest, QuoteInsideUnquotedField) {
  EXPECT_THAT(ReadCsv("a,b\n1,2\n3,ab\"c\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 3, column 2 (\"b\")"),
                             HasSubstr("quote inside an unquoted field"))));
  // Leading spaces make a field unquoted.
  EXPECT_THAT(ReadCsv("a\n \"x\"\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 2, column 1")));
}

TEST(ReadCsvErrorTest, TextAfterClosingQuote) {
  EXPECT_THAT(ReadCsv("a,b,c\n1,\"x\"y,3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 2, column 2 (\"b\")"),
                             HasSubstr("'y' after the closing quote"))));
  EXPECT_THAT(ReadCsv("a\n\"x\" \n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 2, column 1")));
}

TEST(ReadCsvErrorTest, BareCarriageReturnOutsideQuotes) {
  EXPECT_THAT(ReadCsv("a,b\r1,2\r"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 1, column 2"),
                             HasSubstr("carriage return"))));
}

TEST(ReadCsvErrorTest, HeaderNamesMustBeNonEmptyAndUnique) {
  EXPECT_THAT(ReadCsv("a,b,a\n1,2,3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 1"), HasSubstr("\"a\""),
                             HasSubstr("columns 1 and 3"))));
  EXPECT_THAT(ReadCsv("a,,c\n1,2,3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 1"), HasSubstr("column 2"),
                             HasSubstr("empty name"))));
  EXPECT_THAT(ReadCsv("\n1\n"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("empty name")));
}

TEST(ReadCsvErrorTest, TooManyRows) {
  CsvOptions options;
  options.max_rows = 2;
  EXPECT_OK(ReadCsv("a\n1\n2\n", options));
  EXPECT_THAT(ReadCsv("a\n1\n2\n3\n", options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("max_rows = 2")));
}

TEST(ReadCsvErrorTest, FieldTooLong) {
  CsvOptions options;
  options.max_field_bytes = 3;
  EXPECT_OK(ReadCsv("a,b\nxyz,\"abc\"\n", options));
  EXPECT_THAT(ReadCsv("a,b\nxyz,1\n1,\"abcd\"\n", options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("line 3, column 2"),
                             HasSubstr("max_field_bytes (3 bytes)"))));
}

TEST(ReadCsvFileTest, MissingFileIsNotFound) {
  EXPECT_THAT(ReadCsvFile("/nonexistent/dpq/no-such.csv"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("/nonexistent/dpq/no-such.csv")));
}

TEST(ReadCsvFileTest, ParseErrorsNameTheFile) {
  const std::string path = ::testing::TempDir() + "/dpq_table_test_bad.csv";
  {
    FILE* file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fputs("a,b\n1,2\n3\n", file);
    std::fclose(file);
  }
  EXPECT_THAT(ReadCsvFile(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr(path), HasSubstr("line 3"))));
  std::remove(path.c_str());
}

// A cell spelled NaN is text in a string column and NULL in a numeric one.
TEST(ReadCsvTest, NanInAStringColumnStaysText) {
  ASSERT_OK_AND_ASSIGN(const Table table,
                       ReadCsv("name,n\nNaN,NaN\nbob,1.5\n"));
  EXPECT_THAT(Types(table),
              ElementsAre(ColumnType::kString, ColumnType::kDouble));
  EXPECT_EQ(table.CellText(0, 0), "NaN");
  EXPECT_TRUE(table.column(1).is_null(0));
}

TEST(ReadCsvTest, ExtraNullSpellingsAreHonoured) {
  CsvOptions options;
  options.null_values = {"?"};
  ASSERT_OK_AND_ASSIGN(const Table table, ReadCsv("a\n?\n3\n", options));
  EXPECT_THAT(Types(table), ElementsAre(ColumnType::kInt64));
  EXPECT_TRUE(table.column(0).is_null(0));
}

}  // namespace
}  // namespace dpq::core::table
