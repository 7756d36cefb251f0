// dpq's encoding contract for CSV files (docs/security.md, "Text"): every
// file a dataset is registered from is UTF-8 text. Cells become cube labels,
// tree conditions and node labels that travel in protobuf `string` fields,
// which must hold UTF-8; a file in another encoding is refused when the
// owner registers it, naming where, instead of breaking responses later.
#ifndef DPQ_CORE_TABLE_CSV_ENCODING_H_
#define DPQ_CORE_TABLE_CSV_ENCODING_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::core::table {

// OK if `text` is valid UTF-8; else kInvalidArgument naming the physical
// line, the CSV column and the character in the line of the first
// ill-formed byte (never the bytes themselves: a server-side import must
// not echo a file), with how to convert the file.
absl::Status CheckCsvIsUtf8(absl::string_view text);

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_CSV_ENCODING_H_
