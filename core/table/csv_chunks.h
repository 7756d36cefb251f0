// Splitting CSV text into chunks of whole records that can be parsed in
// parallel (docs/performance.md, "Loading and blocking"). Internal to
// core/table.
#ifndef DPQ_CORE_TABLE_CSV_CHUNKS_H_
#define DPQ_CORE_TABLE_CSV_CHUNKS_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace dpq::core::table::internal {

// Records [first_row, first_row + num_records) of the data, held by the
// bytes [begin, end) of the text; the first starts on physical line
// `first_line`.
struct CsvChunk {
  size_t begin = 0;
  size_t end = 0;
  size_t first_row = 0;
  size_t num_records = 0;
  size_t first_line = 0;
};

// Cuts text[data_begin, text.size()) - the records after the header, the
// first on line `data_line` - into at most about `max_chunks` chunks of
// similar size, each ending just after a line feed outside quotes (or at
// the end of the text). Scans the bytes once on `num_threads` threads.
//
// Whether a line feed is inside a quoted field follows from the parity of
// the quotes before it: in valid RFC 4180 text a quoted field, doubled
// quotes included, holds an even number of quotes, and a quote outside a
// quoted field is an error. Each range of bytes is scanned for both
// possible parities at its start, and a prefix over the ranges picks the
// right one (the idea of the two-state speculation of parallel CSV
// parsers). For text that is not valid the chunks may be wrong: the
// caller's per-chunk parsing then fails and it falls back to reading the
// text sequentially. nullopt if the quotes do not balance at the end.
// `release` (if set) is called with each range once it is scanned.
std::optional<std::vector<CsvChunk>> SplitCsvChunks(
    absl::string_view text, size_t data_begin, size_t data_line,
    size_t max_chunks, int num_threads,
    const std::function<void(absl::string_view)>& release = {});

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CSV_CHUNKS_H_
