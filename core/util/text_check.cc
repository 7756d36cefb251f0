#include "core/util/text_check.h"

#include <cstring>

#include "absl/strings/str_format.h"

namespace dpq::core::util {
namespace {

// True if the 8 bytes at p are all ASCII: the fast path for the CSV files,
// which are mostly ASCII.
bool EightAscii(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
  return (word & 0x8080808080808080ULL) == 0;
}

}  // namespace

// Unicode 15, table 3-7: the ranges of the second byte rule out overlong
// forms, surrogates and code points above U+10FFFF.
size_t Utf8SequenceLength(absl::string_view text, size_t i) {
  const auto byte = [&](size_t k) {
    return static_cast<unsigned char>(text[i + k]);
  };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong 3-byte forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong 4-byte forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;  // continuation byte, C0, C1 or F5-FF as a lead byte
  }
  if (i + length > text.size()) return 0;
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  }
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

std::optional<size_t> FindInvalidUtf8(absl::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (i + 8 <= text.size() && EightAscii(text.data() + i)) {
      i += 8;
      continue;
    }
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

std::string ReplaceInvalidUtf8(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) {
      out.append("\xEF\xBF\xBD");  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.data() + i, length);
      i += length;
    }
  }
  return out;
}

std::optional<ControlCharacter> FindControlCharacter(
    absl::string_view text, absl::string_view allowed) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F) {
      if (allowed.find(static_cast<char>(c)) != absl::string_view::npos) {
        continue;
      }
      return ControlCharacter{i, c};
    }
    // C1 controls U+0080-U+009F are encoded C2 80 - C2 9F.
    if (c == 0xC2 && i + 1 < text.size()) {
      const uint32_t cp = DecodeUtf8(text, i, 2);
      if (cp >= 0x80 && cp <= 0x9F) return ControlCharacter{i, cp};
    }
  }
  return std::nullopt;
}

TextPosition PositionOf(absl::string_view text, size_t offset) {
  TextPosition pos;
  if (offset > text.size()) offset = text.size();
  for (size_t i = 0; i < offset; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++pos.line;
      pos.character = 1;
    } else if ((c & 0xC0) != 0x80) {  // not a continuation byte
      ++pos.character;
    }
  }
  return pos;
}

std::string CodePointName(uint32_t code_point) {
  return absl::StrFormat("U+%04X", code_point);
}

}  // namespace dpq::core::util
