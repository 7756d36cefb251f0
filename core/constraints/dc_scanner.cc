#include "core/constraints/dc_scanner.h"

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace dpq::core::constraints::internal {

size_t CharPosition(absl::string_view line, size_t offset) {
  size_t position = 1;
  for (size_t i = 0; i < offset && i < line.size(); ++i) {
    // UTF-8 continuation bytes are 10xxxxxx; every other byte starts a
    // character.
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++position;
  }
  return position;
}

std::string Where(absl::string_view line, size_t offset) {
  return absl::StrCat(" at position ", CharPosition(line, offset), " in \"",
                      absl::StripTrailingAsciiWhitespace(line), "\"");
}

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void DcScanner::SkipSpaces() {
  while (offset_ < line_.size() &&
         absl::ascii_isspace(static_cast<unsigned char>(line_[offset_]))) {
    ++offset_;
  }
}

bool DcScanner::AtEnd() {
  SkipSpaces();
  return offset_ >= line_.size() || line_[offset_] == '#';
}

char DcScanner::Peek(size_t ahead) const {
  return offset_ + ahead < line_.size() ? line_[offset_ + ahead] : '\0';
}

bool DcScanner::Consume(absl::string_view text) {
  if (!absl::StartsWith(line_.substr(offset_), text)) return false;
  offset_ += text.size();
  return true;
}

bool DcScanner::ConsumeWord(absl::string_view word) {
  if (!absl::StartsWithIgnoreCase(line_.substr(offset_), word)) return false;
  if (IsNameChar(Peek(word.size()))) return false;
  offset_ += word.size();
  return true;
}

absl::string_view DcScanner::ReadName() {
  const size_t start = offset_;
  while (offset_ < line_.size() && IsNameChar(line_[offset_])) ++offset_;
  return line_.substr(start, offset_ - start);
}

absl::StatusOr<std::string> DcScanner::ReadQuoted() {
  const size_t start = offset_;
  const char quote = line_[offset_++];
  std::string text;
  while (offset_ < line_.size()) {
    char c = line_[offset_++];
    if (c == quote) return text;
    if (c == '\\' && (Peek() == quote || Peek() == '\\')) c = line_[offset_++];
    text.push_back(c);
  }
  return SyntaxError(
      start, absl::StrCat("unterminated ",
                          quote == '`' ? "column name" : "string constant",
                          " (no closing ", std::string(1, quote), ")"));
}

absl::Status DcScanner::SyntaxError(size_t offset,
                                    absl::string_view what) const {
  return absl::InvalidArgumentError(absl::StrCat(
      "syntax error at position ", CharPosition(line_, offset), ": ", what,
      " in \"", absl::StripTrailingAsciiWhitespace(line_), "\""));
}

}  // namespace dpq::core::constraints::internal
