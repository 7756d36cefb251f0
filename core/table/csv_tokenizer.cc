#include "core/table/csv_tokenizer.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "core/util/status_macros.h"

namespace dpq::core::table::internal {
namespace {

// Long enough to recognise a value, short enough for a one-line message.
constexpr size_t kMaxShownFieldBytes = 64;

bool EndsUnquotedField(char c) {
  return c == ',' || c == '\n' || c == '\r' || c == '"';
}

}  // namespace

absl::string_view Unescape(const CsvField& field, std::string* scratch) {
  if (!field.has_escaped_quotes) return field.raw;
  *scratch = absl::StrReplaceAll(field.raw, {{"\"\"", "\""}});
  return *scratch;
}

std::string FieldForMessage(const CsvField& field) {
  std::string scratch;
  absl::string_view value = Unescape(field, &scratch);
  const bool shortened = value.size() > kMaxShownFieldBytes;
  if (shortened) value = value.substr(0, kMaxShownFieldBytes);
  return absl::StrCat("\"", absl::Utf8SafeCHexEscape(value), "\"",
                      shortened ? "..." : "");
}

std::string CsvTokenizer::ColumnLabel(size_t index) const {
  if (names_ == nullptr || index >= names_->size()) {
    return absl::StrCat("column ", index + 1);
  }
  return absl::StrCat("column ", index + 1, " (\"",
                      absl::Utf8SafeCHexEscape((*names_)[index]), "\")");
}

absl::Status CsvTokenizer::Error(size_t line, size_t index,
                                 absl::string_view what) const {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ", ", ColumnLabel(index), ": ", what));
}

absl::StatusOr<bool> CsvTokenizer::NextRecord(std::vector<CsvField>* fields) {
  fields->clear();
  // A final line break ends the last record; it does not start a new one.
  if (pos_ >= text_.size()) return false;
  record_line_ = line_;
  for (size_t index = 0;; ++index) {
    CsvField& field = fields->emplace_back();
    RETURN_IF_ERROR(ReadField(index, &field));
    bool end_of_record = false;
    RETURN_IF_ERROR(ReadSeparator(index, &end_of_record));
    if (end_of_record) return true;
  }
}

absl::Status CsvTokenizer::ReadField(size_t index, CsvField* field) {
  field->line = line_;
  const bool quoted = pos_ < text_.size() && text_[pos_] == '"';
  RETURN_IF_ERROR(quoted ? ReadQuoted(index, field)
                         : ReadUnquoted(index, field));
  if (field->raw.size() > max_field_bytes_) {
    return Error(field->line, index,
                 absl::StrCat("the field is longer than max_field_bytes (",
                              max_field_bytes_, " bytes)"));
  }
  return absl::OkStatus();
}

absl::Status CsvTokenizer::ReadUnquoted(size_t index, CsvField* field) {
  const size_t start = pos_;
  while (pos_ < text_.size() && !EndsUnquotedField(text_[pos_])) ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '"') {
    return Error(line_, index,
                 "a quote inside an unquoted field (quote the whole field "
                 "and double the quotes inside it)");
  }
  field->raw = text_.substr(start, pos_ - start);
  return absl::OkStatus();
}

absl::Status CsvTokenizer::ReadQuoted(size_t index, CsvField* field) {
  const size_t open_line = line_;
  const size_t start = pos_ + 1;
  size_t scan = start;
  while (true) {
    const size_t quote = text_.find('"', scan);
    if (quote == absl::string_view::npos) {
      return Error(open_line, index,
                   "unterminated quoted field (the quote opened on this "
                   "line is never closed)");
    }
    line_ += std::count(text_.begin() + scan, text_.begin() + quote, '\n');
    if (quote + 1 < text_.size() && text_[quote + 1] == '"') {
      field->has_escaped_quotes = true;
      scan = quote + 2;
      continue;
    }
    field->raw = text_.substr(start, quote - start);
    pos_ = quote + 1;
    return absl::OkStatus();
  }
}

absl::Status CsvTokenizer::ReadSeparator(size_t index, bool* end_of_record) {
  *end_of_record = true;
  if (pos_ == text_.size()) return absl::OkStatus();
  const char c = text_[pos_];
  if (c == ',') {
    ++pos_;
    *end_of_record = false;
    return absl::OkStatus();
  }
  if (c == '\n' ||
      (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n')) {
    pos_ += c == '\n' ? 1 : 2;
    ++line_;
    return absl::OkStatus();
  }
  if (c == '\r') {
    return Error(line_, index,
                 "a carriage return (CR) without a line feed outside quotes "
                 "(rows must end with LF or CRLF)");
  }
  // ReadUnquoted stops only at the characters handled above, so this is a
  // quoted field followed by something other than a separator.
  return Error(line_, index,
               absl::StrCat("unexpected character '",
                            absl::CHexEscape(absl::string_view(&c, 1)),
                            "' after the closing quote (expected a comma or "
                            "the end of the line)"));
}

}  // namespace dpq::core::table::internal
