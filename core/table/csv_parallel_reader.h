// The CSV reader's parallel path (docs/performance.md, "Loading and
// blocking"): the records after the header are cut into chunks of whole
// records (csv_chunks.h), and each chunk is tokenized, typed and
// dictionary-encoded on its own thread; the chunks' dictionaries are then
// merged into the table's sorted one and the ids remapped, in parallel.
// Internal to core/table; ReadCsv (csv_reader.h) is the interface.
#ifndef DPQ_CORE_TABLE_CSV_PARALLEL_READER_H_
#define DPQ_CORE_TABLE_CSV_PARALLEL_READER_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/csv_reader.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::table::internal {

// How the type of one column is decided. For an inferred column `type` is
// the narrowest type that fits every value seen so far.
struct ColumnPlan {
  ColumnType type = ColumnType::kInt64;
  bool declared = false;
  bool seen_value = false;
};

// Narrows an inferred column's candidate type so that it admits the
// non-NULL, non-NaN `value`.
void InferType(absl::string_view value, ColumnPlan* plan);

struct ParallelCsvInput {
  absl::string_view text;  // the whole text, without byte order mark
  size_t data_begin = 0;   // where the first record after the header starts
  size_t data_line = 1;    // and its physical line
  std::vector<std::string> names;
  std::vector<ColumnPlan> plans;
  // Chunks are at least this long (smaller ones are not worth a thread).
  size_t min_chunk_bytes = size_t{1} << 20;
  // Called with parts of `text` the reader has finished with for now (it
  // may read them again), e.g. to let the kernel drop the pages of a
  // mapped file; the table keeps no view into the text. May be empty.
  std::function<void(absl::string_view)> release;
};

// The table, or nullopt when the text is not valid or the data must be
// refused (malformed record, wrong field count, a cell not of its declared
// type, more than max_rows rows): the caller then reads the text with the
// sequential reader, whose messages name the first offending line exactly.
// The result is the one the sequential reader returns for valid text.
std::optional<Table> ReadCsvParallel(const ParallelCsvInput& input,
                                     const CsvOptions& options);

// ReadCsv with chunks of at least `min_chunk_bytes` (0: the sequential
// reader only, the reference the parallel path is tested against).
absl::StatusOr<Table> ReadCsvWithChunks(
    absl::string_view text, const CsvOptions& options, size_t min_chunk_bytes,
    const std::function<void(absl::string_view)>& release = {});

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CSV_PARALLEL_READER_H_
