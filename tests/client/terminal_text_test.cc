#include "client/terminal_text.h"

#include <string>

#include "gtest/gtest.h"

namespace dpq::client {
namespace {

TEST(TerminalSafeTest, KeepsPrintableTextAndUtf8) {
  EXPECT_EQ(TerminalSafe(""), "");
  EXPECT_EQ(TerminalSafe("t1.A\xe2\x89\xa0t2.A \xc2\xb1 Z\xc3\xbcrich"),
            "t1.A\xe2\x89\xa0t2.A \xc2\xb1 Z\xc3\xbcrich");
  EXPECT_EQ(TerminalSafe("C:\\data"), "C:\\data");
}

TEST(TerminalSafeTest, EscapesC0ControlsEscAndDel) {
  EXPECT_EQ(TerminalSafe("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(TerminalSafe("row\nfake row\r\tx"), "row\\nfake row\\r\\tx");
  EXPECT_EQ(TerminalSafe(std::string("\0\x07\x7f", 3)), "\\x00\\x07\\x7f");
}

TEST(TerminalSafeTest, EscapesC1ControlsAsCodePoints) {
  // U+009B is CSI on terminals that honour 8-bit controls.
  EXPECT_EQ(TerminalSafe("a\xc2\x9b"
                         "2Jb\xc2\x85"),
            "a\\u009b2Jb\\u0085");
  // U+00A0 (no-break space) is printable: kept.
  EXPECT_EQ(TerminalSafe("\xc2\xa0"), "\xc2\xa0");
}

TEST(TerminalSafeTest, EscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(TerminalSafe("\xff\xfe,2"), "\\xff\\xfe,2");
  EXPECT_EQ(TerminalSafe("\xe2\x89"), "\\xe2\\x89");  // truncated
  EXPECT_EQ(TerminalSafe("\x9b"
                         "2J"),
            "\\x9b2J");  // raw 8-bit CSI
}

TEST(TerminalSafeTest, IsIdempotent) {
  const std::string once = TerminalSafe("a\x1b\n\xff\xc2\x9b\xc3\xa9");
  EXPECT_EQ(TerminalSafe(once), once);
}

}  // namespace
}  // namespace dpq::client
