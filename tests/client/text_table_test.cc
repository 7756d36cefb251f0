#include "client/text_table.h"

#include <string>

#include "gtest/gtest.h"

namespace dpq::client {
namespace {

TEST(TextTableTest, AlignsColumnsWithoutTrailingSpaces) {
  TextTable table({"ID", "VALUE"});
  table.AddRow({"hospital", "1"});
  table.AddRow({"a", "12345"});
  EXPECT_EQ(table.Render(),
            "ID        VALUE\n"
            "hospital  1\n"
            "a         12345\n");
}

TEST(TextTableTest, PadsShortRowsAndCountsUtf8AsOneColumn) {
  TextTable table({"\u00b195%", "X"});
  table.AddRow({"1"});
  table.AddRow({"12345", "y"});
  EXPECT_EQ(table.Render(),
            "\u00b195%   X\n"
            "1\n"
            "12345  y\n");
}

TEST(TextTableTest, EscapesControlsSoACellIsOneLine) {
  TextTable table({"ID", "DESCRIPTION"});
  table.AddRow({"evil", "\x1b[2J\nfake row\tx\xc2\x9b\xff"});
  table.AddRow({"Z\xc3\xbcrich", "ok"});
  EXPECT_EQ(table.Render(),
            "ID      DESCRIPTION\n"
            "evil    \\x1b[2J\\nfake row\\tx\\u009b\\xff\n"
            "Z\xc3\xbcrich  ok\n");
}

}  // namespace
}  // namespace dpq::client
