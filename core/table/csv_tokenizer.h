// Splits RFC 4180 CSV text into records of fields, without copying.
// Internal to core/table (see csv_reader.h for the accepted format).
#ifndef DPQ_CORE_TABLE_CSV_TOKENIZER_H_
#define DPQ_CORE_TABLE_CSV_TOKENIZER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::table::internal {

struct CsvField {
  // The field's bytes: for a quoted field, those between the quotes, with
  // any doubled quotes still doubled (see Unescape).
  absl::string_view raw;
  // Physical 1-based line on which the field starts.
  size_t line = 0;
  // True if `raw` contains doubled quotes, i.e. differs from the cell value.
  bool has_escaped_quotes = false;

  bool is_null() const { return raw.empty(); }
};

// The cell value of a field: `raw` with doubled quotes undoubled. `scratch`
// holds the result when that differs from `raw`.
absl::string_view Unescape(const CsvField& field, std::string* scratch);

// The text of a field for error messages, shortened to a readable length.
std::string FieldForMessage(const CsvField& field);

// Reads records one at a time. Line numbers are physical and 1-based, so a
// quoted field with embedded newlines makes a record span several lines.
class CsvTokenizer {
 public:
  // `text` must outlive the tokenizer and the fields it returns.
  CsvTokenizer(absl::string_view text, size_t max_field_bytes)
      : text_(text), max_field_bytes_(max_field_bytes) {}

  // Names used in error messages ("column 2 (\"zip\")") once the header is
  // known; must outlive the tokenizer.
  void set_column_names(const std::vector<std::string>* names) {
    names_ = names;
  }

  // Reads the next record into `fields` (cleared first). Returns false at the
  // end of the input; kInvalidArgument on malformed quoting, a bare CR or an
  // over-long field, naming line and column.
  absl::StatusOr<bool> NextRecord(std::vector<CsvField>* fields);

  // The line on which the last record read starts.
  size_t record_line() const { return record_line_; }

  // Where the next record starts: byte offset and physical line.
  size_t position() const { return pos_; }
  size_t line() const { return line_; }

  // "column 2" or, once names are known, "column 2 (\"zip\")"; 0-based index.
  std::string ColumnLabel(size_t index) const;

 private:
  absl::Status ReadField(size_t index, CsvField* field);
  absl::Status ReadQuoted(size_t index, CsvField* field);
  absl::Status ReadUnquoted(size_t index, CsvField* field);
  // Consumes the separator after a field; sets *end_of_record.
  absl::Status ReadSeparator(size_t index, bool* end_of_record);
  absl::Status Error(size_t line, size_t index, absl::string_view what) const;

  absl::string_view text_;
  size_t max_field_bytes_;
  const std::vector<std::string>* names_ = nullptr;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t record_line_ = 0;
};

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CSV_TOKENIZER_H_
