#include "core/util/json_writer.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dpq::core::util {

namespace {

// The length (2-4) of the well-formed UTF-8 sequence of a non-ASCII
// character at s[pos], or 0 if none starts there (stray continuation byte,
// truncated, overlong, surrogate, above U+10FFFF).
size_t Utf8Length(absl::string_view s, size_t pos, char32_t* cp) {
  const auto byte = [&s](size_t i) {
    return static_cast<char32_t>(static_cast<unsigned char>(s[i]));
  };
  const char32_t lead = byte(pos);
  size_t length;
  char32_t min;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (pos + length > s.size()) return 0;
  char32_t value = lead & (0x7Fu >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(pos + i) & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
    return 0;
  }
  *cp = value;
  return length;
}

}  // namespace

std::string JsonQuote(absl::string_view s) {
  std::string out = "\"";
  size_t pos = 0;
  while (pos < s.size()) {
    const char c = s[pos];
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      char32_t cp = 0;
      const size_t length = Utf8Length(s, pos, &cp);
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
