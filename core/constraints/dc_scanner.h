// A character cursor over one denial-constraint line, shared by the three
// hand-written recursive-descent parsers in dc_parser.cc. Implementation
// detail of the parser: not part of the constraints API.
#ifndef DPQ_CORE_CONSTRAINTS_DC_SCANNER_H_
#define DPQ_CORE_CONSTRAINTS_DC_SCANNER_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::constraints::internal {

// 1-based character position of byte `offset` in `line`. Counts UTF-8 code
// points, so that a `∧` (three bytes) moves later positions by one.
size_t CharPosition(absl::string_view line, size_t offset);

// " at position P in \"line\"": locates a semantic error for the user.
std::string Where(absl::string_view line, size_t offset);

// True for [A-Za-z0-9_], the characters of plain column names and keywords.
bool IsNameChar(char c);

// Offsets are byte offsets into the line; errors convert them with
// CharPosition. The line is not owned and must outlive the scanner.
class DcScanner {
 public:
  explicit DcScanner(absl::string_view line) : line_(line) {}

  absl::string_view line() const { return line_; }
  size_t offset() const { return offset_; }
  void set_offset(size_t offset) { offset_ = offset; }

  // Skips ASCII whitespace (a trailing '\r' of a CRLF file included).
  void SkipSpaces();
  // Skips whitespace; true at the end of the line or at a `#` comment.
  bool AtEnd();
  // The byte `ahead` bytes after the cursor, '\0' past the end.
  char Peek(size_t ahead = 0) const;
  // Consumes `text` if the line continues with exactly these bytes.
  bool Consume(absl::string_view text);
  // Consumes the ASCII word `word` (case-insensitive) unless it is only the
  // start of a longer name: "and" matches in "a and b", not in "andy".
  bool ConsumeWord(absl::string_view word);
  // Consumes and returns a maximal run of name characters (may be empty).
  absl::string_view ReadName();
  // At an opening quote (' " or `): consumes through the closing quote and
  // returns the text between them, with `\<quote>` and `\\` unescaped (other
  // backslashes are kept as they are). A syntax error if unterminated.
  absl::StatusOr<std::string> ReadQuoted();

  // kInvalidArgument
  // "syntax error at position P: <what> in \"line\"".
  absl::Status SyntaxError(size_t offset, absl::string_view what) const;

 private:
  absl::string_view line_;
  size_t offset_ = 0;
};

}  // namespace dpq::core::constraints::internal

#endif  // DPQ_CORE_CONSTRAINTS_DC_SCANNER_H_
