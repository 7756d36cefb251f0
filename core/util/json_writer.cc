#include "core/util/json_writer.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/util/text_check.h"

namespace dpq::core::util {

std::string JsonQuote(absl::string_view s) {
  std::string out = "\"";
  size_t pos = 0;
  while (pos < s.size()) {
    const char c = s[pos];
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const size_t length = Utf8SequenceLength(s, pos);
      const char32_t cp = length == 0 ? 0 : DecodeUtf8(s, pos, length);
      if (length == 0) {
        // Not UTF-8: JSON text must be Unicode, so the byte becomes U+FFFD.
        out += "\\ufffd";
        ++pos;
      } else if (cp <= 0x9F) {
        // C1 controls (e.g. U+009B, a terminal's CSI) are escaped like C0.
        absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned>(cp));
        pos += length;
      } else {
        out.append(s.data() + pos, length);
        pos += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7F) {
          absl::StrAppendFormat(&out, "\\u%04x", u);
        } else {
          out += c;
        }
    }
    ++pos;
  }
  out += '"';
  return out;
}

void JsonObjectWriter::Key(absl::string_view key) {
  if (body_.size() > 1) body_ += ',';
  absl::StrAppend(&body_, JsonQuote(key), ":");
}

JsonObjectWriter& JsonObjectWriter::Add(absl::string_view key,
                                        absl::string_view value) {
  Key(key);
  body_ += JsonQuote(value);
  return *this;
}

JsonObjectWriter& JsonObjectWriter::Add(absl::string_view key, int64_t value) {
  Key(key);
  absl::StrAppend(&body_, value);
  return *this;
}

JsonObjectWriter& JsonObjectWriter::Add(absl::string_view key, uint64_t value) {
  Key(key);
  absl::StrAppend(&body_, value);
  return *this;
}

JsonObjectWriter& JsonObjectWriter::Add(absl::string_view key, double value) {
  if (!std::isfinite(value)) return AddNull(key);
  Key(key);
  // 15 significant digits: every decimal of up to 15 digits survives the
  // trip through a double, so 0.4 - 0.1 prints as 0.3, not as
  // 0.30000000000000004.
  absl::StrAppendFormat(&body_, "%.15g", value);
  return *this;
}

JsonObjectWriter& JsonObjectWriter::Add(absl::string_view key, bool value) {
  Key(key);
  body_ += value ? "true" : "false";
  return *this;
}

JsonObjectWriter& JsonObjectWriter::AddNull(absl::string_view key) {
  Key(key);
  body_ += "null";
  return *this;
}

JsonObjectWriter& JsonObjectWriter::AddRaw(absl::string_view key,
                                           absl::string_view json) {
  Key(key);
  absl::StrAppend(&body_, json);
  return *this;
}

}  // namespace dpq::core::util
