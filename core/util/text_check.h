// Checks for text that is sent to people: valid UTF-8, and no control
// characters that a terminal would act on. dpq's encoding contract
// (docs/security.md): every CSV and every published string is UTF-8; a
// string a buyer can read (description, column names, cube labels, node
// labels, constraint lines) has no control characters. Both are checked
// when the owner registers, where the error can name line and column.
#ifndef DPQ_CORE_UTIL_TEXT_CHECK_H_
#define DPQ_CORE_UTIL_TEXT_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace dpq::core::util {

// The length (1-4) of the well-formed UTF-8 sequence that starts at
// text[pos], or 0 if none does (a stray continuation byte, a truncated or
// overlong sequence, a surrogate, or a code point above U+10FFFF).
// Precondition: pos < text.size().
size_t Utf8SequenceLength(absl::string_view text, size_t pos);

// The code point of the well-formed sequence of `length` bytes at text[pos]
// (as returned by Utf8SequenceLength).
char32_t DecodeUtf8(absl::string_view text, size_t pos, size_t length);

// Byte offset of the first byte of `text` that does not start a well-formed
// UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF; what protobuf requires of `string` fields), or nullopt.
std::optional<size_t> FindInvalidUtf8(absl::string_view text);

// `text` with every byte of an ill-formed sequence replaced by U+FFFD.
std::string ReplaceInvalidUtf8(absl::string_view text);

// A control character in valid UTF-8 text: where it is and which.
struct ControlCharacter {
  size_t offset = 0;        // byte offset of its first byte
  uint32_t code_point = 0;  // C0 (U+0000-U+001F), DEL, or C1 (U+0080-U+009F)
};

// The first C0 control, DEL or C1 control in `text` (which must be valid
// UTF-8) other than the ASCII characters in `allowed` (e.g. "\t\r\n" for
// multi-line text), or nullopt. C1 controls matter because terminals read
// U+009B as CSI, like ESC [.
std::optional<ControlCharacter> FindControlCharacter(
    absl::string_view text, absl::string_view allowed = "");

// 1-based line and character (code point) of byte `offset` in `text`;
// lines end at '\n'. For error messages.
struct TextPosition {
  size_t line = 1;
  size_t character = 1;
};
TextPosition PositionOf(absl::string_view text, size_t offset);

// "U+001B" for a code point.
std::string CodePointName(uint32_t code_point);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_TEXT_CHECK_H_
