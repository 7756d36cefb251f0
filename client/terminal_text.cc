#include "client/terminal_text.h"

#include "absl/strings/str_format.h"
#include "core/util/text_check.h"

namespace dpq::client {

std::string TerminalSafe(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    const size_t length = core::util::Utf8SequenceLength(text, pos);
    if (length == 0) {
      absl::StrAppendFormat(&out, "\\x%02x", c);
      ++pos;
      continue;
    }
    const char32_t cp = core::util::DecodeUtf8(text, pos, length);
    if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7F) {
      absl::StrAppendFormat(&out, "\\x%02x", static_cast<unsigned>(cp));
    } else if (cp >= 0x80 && cp <= 0x9F) {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned>(cp));
    } else {
      out.append(text.data() + pos, length);
    }
    pos += length;
  }
  return out;
}

}  // namespace dpq::client
