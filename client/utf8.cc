#include "client/utf8.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/util/text_check.h"

namespace dpq::client {

absl::Status CheckUtf8Value(absl::string_view what, absl::string_view value) {
  const std::optional<size_t> bad = core::util::FindInvalidUtf8(value);
  if (!bad.has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("%s is not valid UTF-8: byte %d is 0x%02x.", what,
                      *bad + 1, static_cast<unsigned char>(value[*bad])));
}

absl::Status CheckUtf8File(absl::string_view flag, absl::string_view path,
                           absl::string_view text) {
  const std::optional<size_t> bad = core::util::FindInvalidUtf8(text);
  if (!bad.has_value()) return absl::OkStatus();
  const core::util::TextPosition at = core::util::PositionOf(text, *bad);
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s:%d:%d: not valid UTF-8 (byte 0x%02x); %s files must be UTF-8 text.",
      path, at.line, at.character, static_cast<unsigned char>(text[*bad]),
      flag));
}

}  // namespace dpq::client
