#include "core/table/csv_encoding.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/table/csv_reader.h"
#include "core/table/csv_tokenizer.h"
#include "core/util/text_check.h"

namespace dpq::core::table {
namespace {

// The 1-based CSV column of the field that holds byte `offset`, found by
// the reader's own tokenizer (so quoted commas and line breaks count as it
// counts them); nullopt if the text is malformed before that field.
std::optional<size_t> ColumnAt(absl::string_view text, size_t offset) {
  internal::CsvTokenizer tokenizer(text, CsvOptions().max_field_bytes);
  std::vector<internal::CsvField> fields;
  while (true) {
    absl::StatusOr<bool> more = tokenizer.NextRecord(&fields);
    if (!more.ok() || !*more) return std::nullopt;
    for (size_t i = 0; i < fields.size(); ++i) {
      // Fields come in text order and separators and quotes are ASCII, so
      // the first field that ends after the byte holds it.
      const char* end = fields[i].raw.data() + fields[i].raw.size();
      if (text.data() + offset < end) return i + 1;
    }
  }
}

}  // namespace

absl::Status CheckCsvIsUtf8(absl::string_view text) {
  const std::optional<size_t> bad = util::FindInvalidUtf8(text);
  if (!bad.has_value()) return absl::OkStatus();
  const util::TextPosition pos = util::PositionOf(text, *bad);
  const std::optional<size_t> column = ColumnAt(text, *bad);
  return absl::InvalidArgumentError(absl::StrCat(
      "line ", pos.line,
      column.has_value() ? absl::StrCat(", column ", *column) : std::string(),
      " (character ", pos.character,
      " of the line): the bytes are not valid UTF-8. dpq reads CSV files as "
      "UTF-8 text; convert the file first (for a Latin-1 file: iconv -f "
      "latin1 -t utf-8 FILE > FILE.utf8)."));
}

}  // namespace dpq::core::table
