#include "core/table/csv_encoding.h"

#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::core::table {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(CheckCsvIsUtf8Test, AcceptsUtf8) {
  EXPECT_TRUE(CheckCsvIsUtf8("a,b\nM\xC3\xBCnchen,\xE2\x82\xAC\n").ok());
  EXPECT_TRUE(CheckCsvIsUtf8("").ok());
}

TEST(CheckCsvIsUtf8Test, NamesLineAndColumnOfTheLatin1Cell) {
  // The Latin-1 file of docs/security.md item 1: a Latin-1 cell in the first
  // data row.
  const absl::Status s = CheckCsvIsUtf8("a,b\n\xff\xfe,2\n1,3\n");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("line 2, column 1 (character 1"));
  EXPECT_THAT(s.message(), HasSubstr("iconv -f latin1 -t utf-8"));
  // The bytes themselves are never echoed.
  EXPECT_FALSE(absl::StrContains(s.message(), "\xff"));
  EXPECT_THAT(s.message(), Not(HasSubstr("\\xff")));
}

TEST(CheckCsvIsUtf8Test, CountsColumnsAsTheReaderDoes) {
  // A quoted comma and a quoted line break do not start new columns.
  const absl::Status s =
      CheckCsvIsUtf8("a,b,c\n\"x,y\",\"two\nlines\",caf\xE9\n");
  EXPECT_THAT(s.message(), HasSubstr("line 3, column 3 (character 11"));
  // A bad header name.
  EXPECT_THAT(CheckCsvIsUtf8("id,\xff\n1,2\n").message(),
              HasSubstr("line 1, column 2"));
}

}  // namespace
}  // namespace dpq::core::table
