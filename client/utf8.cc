#include "client/utf8.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dpq::client {
namespace {

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

size_t Utf8SequenceLength(absl::string_view text, size_t pos) {
  const auto byte = [&text](size_t i) {
    return static_cast<unsigned char>(text[i]);
  };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) return 1;
  size_t length;
  // The smallest code point of each length (anything below is overlong).
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
    return 0;  // a continuation byte, C0/C1 (overlong) or F5-FF
  }
  if (pos + length > text.size()) return 0;
  for (size_t i = 1; i < length; ++i) {
    if (!IsContinuation(byte(pos + i))) return 0;
  }
  const char32_t cp = DecodeUtf8(text, pos, length);
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

char32_t DecodeUtf8(absl::string_view text, size_t pos, size_t length) {
  const auto byte = [&text](size_t i) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[i]));
  };
  if (length == 1) return byte(pos);
  // The lead byte keeps 7 - length payload bits; each continuation 6.
  char32_t cp = byte(pos) & (0x7Fu >> length);
  for (size_t i = 1; i < length; ++i) cp = (cp << 6) | (byte(pos + i) & 0x3F);
  return cp;
}

std::optional<size_t> FirstInvalidUtf8(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t length = Utf8SequenceLength(text, pos);
    if (length == 0) return pos;
    pos += length;
  }
  return std::nullopt;
}

absl::Status CheckUtf8Value(absl::string_view what, absl::string_view value) {
  const std::optional<size_t> bad = FirstInvalidUtf8(value);
  if (!bad.has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s is not valid UTF-8: byte %d is 0x%02x.", what, *bad + 1,
      static_cast<unsigned char>(value[*bad])));
}

absl::Status CheckUtf8File(absl::string_view flag, absl::string_view path,
                           absl::string_view text) {
  const std::optional<size_t> bad = FirstInvalidUtf8(text);
  if (!bad.has_value()) return absl::OkStatus();
  size_t line = 1;
  size_t column = 1;
  // Everything before `bad` is valid UTF-8: count code points.
  for (size_t pos = 0; pos < *bad; pos += Utf8SequenceLength(text, pos)) {
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s:%d:%d: not valid UTF-8 (byte 0x%02x); %s files must be UTF-8 text.",
      path, line, column, static_cast<unsigned char>(text[*bad]), flag));
}

}  // namespace dpq::client
