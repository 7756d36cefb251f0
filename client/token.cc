#include "client/token.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace dpq::client {
namespace {

// What kind of byte `c` is, for a message that must not show it.
const char* KindOf(unsigned char c) {
  if (c == ' ') return "a space";
  if (c >= 0x80) return "a non-ASCII byte";
  return "a control character";
}

}  // namespace

absl::StatusOr<std::string> CleanToken(absl::string_view raw,
                                       absl::string_view source) {
  if (!absl::ConsumeSuffix(&raw, "\r\n")) absl::ConsumeSuffix(&raw, "\n");
  if (raw.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(source, " holds no token."));
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c < 0x21 || c > 0x7E) {
      return absl::InvalidArgumentError(absl::StrCat(
          source, ": the token's character ", i + 1, " is ", KindOf(c),
          "; a token is printable ASCII without spaces (one trailing "
          "newline is dropped)."));
    }
  }
  return std::string(raw);
}

}  // namespace dpq::client
