// The parallel CSV path against the sequential reader: the same table for
// valid text whatever the chunking and thread count, the same error for
// malformed text.
#include "core/table/csv_parallel_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/table/csv_chunks.h"
#include "core/table/csv_reader.h"
#include "core/table/table.h"
#include "gtest/gtest.h"

namespace dpq::core::table {
namespace {

using internal::ReadCsvWithChunks;

// Everything observable about a table, cell by cell (ids included: they
// must follow the same sorted dictionary).
std::string Dump(const Table& t) {
  std::string out;
  for (const ColumnSpec& spec : t.schema().columns()) {
    absl::StrAppend(&out, spec.name, ":", ColumnTypeName(spec.type), ";");
  }
  absl::StrAppend(&out, "\n", t.num_rows(), " rows, dict ",
                  t.dictionary().size(), "\n");
  for (size_t r = 0; r < t.num_rows(); ++r) {
    for (size_t c = 0; c < t.num_columns(); ++c) {
      const Column& col = t.column(c);
      if (col.is_null(r)) {
        out += "<null>|";
        continue;
      }
      absl::StrAppend(&out, t.CellText(c, r));
      if (col.type == ColumnType::kString) {
        absl::StrAppend(&out, "#", col.string_ids[r]);
      }
      out += "|";
    }
    out += "\n";
  }
  return out;
}

std::string Describe(const absl::StatusOr<Table>& t) {
  return t.ok() ? Dump(*t) : t.status().ToString();
}

// Reads `text` sequentially and with tiny chunks on 1-3 threads.
void ExpectSameAsSequential(const std::string& text, CsvOptions options) {
  options.num_threads = 1;
  const std::string expected = Describe(ReadCsvWithChunks(text, options, 0));
  for (int threads : {1, 2, 3}) {
    for (size_t min_chunk :
         {size_t{1}, size_t{7}, size_t{64}, size_t{1} << 20}) {
      options.num_threads = threads;
      EXPECT_EQ(Describe(ReadCsvWithChunks(text, options, min_chunk)), expected)
          << "threads " << threads << ", chunks of " << min_chunk
          << " bytes, text:\n"
          << text;
    }
  }
}

// A random cell: numbers, NaN, empty, quoted with commas, quotes, LF, CRLF,
// and words long enough to span the tokenizer's 64-byte blocks.
std::string RandomCell(std::mt19937_64& rng, bool numeric_only) {
  const int kind = static_cast<int>(rng() % (numeric_only ? 4 : 13));
  switch (kind) {
    case 0:
      return absl::StrCat(static_cast<int64_t>(rng() % 200) - 100);
    case 1:
      return absl::StrCat(static_cast<double>(rng() % 1000) / 8.0);
    case 2:
      return "NaN";
    case 3:
      return "";
    case 4:
      return "\"\"";
    case 5:
      return absl::StrCat("\"a,", rng() % 5, "\"");
    case 6:
      return absl::StrCat("\"say \"\"", rng() % 3, "\"\"\"");
    case 7:
      return absl::StrCat("\"two\nlines", rng() % 3, "\"");
    case 8:
      return "\"cr\r\nlf\"";
    case 9:
      return absl::StrCat("w", rng() % 7);
    case 11:
      return std::string(1 + rng() % 150, static_cast<char>('k' + rng() % 3));
    case 12:
      return absl::StrCat("\"", std::string(rng() % 100, ','), "\"");
    default:
      return "01907";
  }
}

std::string RandomCsv(std::mt19937_64& rng, size_t rows, bool crlf,
                      bool final_newline) {
  std::string text = "n,x,s,t\n";
  if (crlf) text = "n,x,s,t\r\n";
  for (size_t r = 0; r < rows; ++r) {
    absl::StrAppend(&text, RandomCell(rng, true), ",", RandomCell(rng, true),
                    ",", RandomCell(rng, false), ",", RandomCell(rng, false));
    if (r + 1 < rows || final_newline) text += crlf ? "\r\n" : "\n";
  }
  return text;
}

TEST(CsvParallelReaderTest, RandomValidTextsReadAsSequentially) {
  std::mt19937_64 rng(18);  // fixed seed: deterministic
  for (int trial = 0; trial < 60; ++trial) {
    const std::string text =
        RandomCsv(rng, 1 + rng() % 40, trial % 3 == 0, trial % 2 == 0);
    ExpectSameAsSequential(text, CsvOptions());
    // And valid text never falls back to the sequential reader.
    internal::ParallelCsvInput input;
    input.text = text;
    input.data_begin = text.find('\n') + 1;
    input.data_line = 2;
    input.names = {"n", "x", "s", "t"};
    input.plans.assign(4, internal::ColumnPlan());
    input.min_chunk_bytes = 1;
    CsvOptions two_threads;
    two_threads.num_threads = 2;
    EXPECT_TRUE(internal::ReadCsvParallel(input, two_threads).has_value());
    CsvOptions declared;
    declared.schema = *ParseSchemaOverrides("n: double\nx: double\n");
    declared.untyped = UntypedColumns::kString;
    ExpectSameAsSequential(text, declared);
    CsvOptions nulls;
    nulls.null_values = {"w3", "NaN"};
    ExpectSameAsSequential(text, nulls);
  }
}

TEST(CsvParallelReaderTest, MalformedTextsGiveTheSequentialErrors) {
  const std::vector<std::string> texts = {
      "a,b\n1,2\n3\n4,5\n",            // too few fields
      "a,b\n1,2\n3,4,5\n",             // too many
      "a,b\n1,\"x\n2,3\n4,5\n",        // unterminated quote
      "a,b\n1,x\"y\n2,3\n",            // quote inside an unquoted field
      "a,b\n1,\"x\"y\n2,3\n",          // text after a closing quote
      "a,b\n1,2\r3,4\n",               // bare CR
      "a,b\n1,2\n\"x\"\"\n\"\n3,4\n",  // quotes that do not balance
      "a,b\n1,2\n\"q\nq\",\"r\"\"\n5,6\n7,8\n",
      "a,b\n1,2\n3,4\n5,6\n7,8,9\n",  // error in the last chunk
      "a,b\n1,2\n3,\"4\n",            // unterminated at the end
  };
  for (const std::string& text : texts) {
    ExpectSameAsSequential(text, CsvOptions());
  }
  CsvOptions typed;
  typed.schema = *ParseSchemaOverrides("a: int64\nb: double\n");
  ExpectSameAsSequential("a,b\n1,2\n3,4\nx,5\n6,7\n", typed);
  ExpectSameAsSequential("a,b\n1,2\n3,\"4\"\"\"\n", typed);
  CsvOptions few_rows;
  few_rows.max_rows = 3;
  ExpectSameAsSequential("a,b\n1,2\n3,4\n5,6\n7,8\n", few_rows);
  ExpectSameAsSequential("a,b\n1,2\n3,4\n5,6\n", few_rows);
  CsvOptions short_fields;
  short_fields.max_field_bytes = 3;
  ExpectSameAsSequential("a,b\n1,2\n3,4444\n5,6\n", short_fields);
}

TEST(CsvParallelReaderTest, LargeFileReadsInChunksAsSequentially) {
  // About 3 MB: several chunks of the default 1 MiB, pages dropped as the
  // chunks are parsed.
  std::mt19937_64 rng(7);
  const std::string text = RandomCsv(rng, 120000, false, true);
  const std::string path = ::testing::TempDir() + "/dpq_parallel_large.csv";
  std::ofstream(path, std::ios::binary) << text;
  CsvOptions options;
  options.num_threads = 2;
  absl::StatusOr<Table> from_file = ReadCsvFile(path, options);
  std::remove(path.c_str());
  options.num_threads = 1;
  EXPECT_EQ(Describe(from_file), Describe(ReadCsvWithChunks(text, options, 0)));
}

TEST(CsvParallelReaderTest, ChunksEndAfterLineFeedsOutsideQuotes) {
  const std::string text = "h\n\"a\nb\"\nc\n\"d\"\"\ne\"\nf";
  const size_t data_begin = 2;
  auto chunks = internal::SplitCsvChunks(text, data_begin, 2, 100, 2);
  ASSERT_TRUE(chunks.has_value());
  size_t rows = 0;
  size_t expect_begin = data_begin;
  for (const internal::CsvChunk& chunk : *chunks) {
    EXPECT_EQ(chunk.begin, expect_begin);
    EXPECT_EQ(chunk.first_row, rows);
    EXPECT_EQ(text[chunk.end - 1] == '\n', chunk.end != text.size());
    rows += chunk.num_records;
    expect_begin = chunk.end;
  }
  EXPECT_EQ(rows, 4u);
  EXPECT_EQ(expect_begin, text.size());
  // The record "d""\ne" starts on line 5.
  for (const internal::CsvChunk& chunk : *chunks) {
    if (text.substr(chunk.begin, 2) == "\"d") {
      EXPECT_EQ(chunk.first_line, 5u);
    }
  }
  EXPECT_FALSE(internal::SplitCsvChunks("h\n\"a\n", 2, 2, 4, 1).has_value());
}

}  // namespace
}  // namespace dpq::core::table
