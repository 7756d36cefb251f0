#include "core/util/json_writer.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dpq::core::util {

std::string JsonQuote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
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
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
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
