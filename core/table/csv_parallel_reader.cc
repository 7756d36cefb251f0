#include "core/table/csv_parallel_reader.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "core/table/cell_parser.h"
#include "core/table/chunk_interner.h"
#include "core/table/csv_chunks.h"
#include "core/table/csv_fast_tokenizer.h"
#include "core/table/schema.h"
#include "core/table/string_interner.h"
#include "core/table/table.h"
#include "core/util/parallel_for.h"

namespace dpq::core::table::internal {
namespace {

using Result = FastCsvTokenizer::Result;

// Chunks per thread: enough to even out chunks of uneven cost and a busy
// machine, few enough that the chunks' dictionaries repeat few strings.
constexpr size_t kChunksPerThread = 4;

absl::string_view tokenizer_text(const ParallelCsvInput& input,
                                 const CsvChunk& chunk) {
  return input.text.substr(chunk.begin, chunk.end - chunk.begin);
}

int Rank(ColumnType type) {
  switch (type) {
    case ColumnType::kInt64:
      return 0;
    case ColumnType::kDouble:
      return 1;
    case ColumnType::kString:
      return 2;
  }
  return 2;
}

// Infers the types of the undeclared columns over one chunk. False if the
// chunk is malformed or does not hold the records the split counted.
bool InferChunk(const ParallelCsvInput& input, const CsvOptions& options,
                const CsvChunk& chunk, std::vector<ColumnPlan>* plans) {
  const size_t num_columns = plans->size();
  std::vector<size_t> inferred;
  for (size_t c = 0; c < num_columns; ++c) {
    if (!(*plans)[c].declared) inferred.push_back(c);
  }
  std::vector<FastField> fields(num_columns);
  FastCsvTokenizer tokenizer(
      input.text.substr(chunk.begin, chunk.end - chunk.begin),
      options.max_field_bytes);
  size_t records = 0;
  for (;;) {
    const Result r = tokenizer.Next(num_columns, fields.data());
    if (r == Result::kEnd) break;
    if (r == Result::kMalformed) return false;
    ++records;
    for (size_t c : inferred) {
      ColumnPlan& plan = (*plans)[c];
      const FastField& f = fields[c];
      if (plan.type == ColumnType::kString && plan.seen_value) continue;
      if (IsNullText(f.raw, f.has_escaped_quotes, options.null_values)) {
        continue;
      }
      // A cell with quotes in its value is never a number.
      const absl::string_view value =
          f.has_escaped_quotes ? absl::string_view("\"") : f.raw;
      if (IsNanSpelling(value)) continue;
      plan.seen_value = true;
      InferType(value, &plan);
    }
  }
  if (input.release) input.release(tokenizer_text(input, chunk));
  return records == chunk.num_records;
}

// The column types over all chunks; nullopt if a chunk is malformed.
std::optional<std::vector<ColumnPlan>> InferTypes(
    const ParallelCsvInput& input, const CsvOptions& options,
    const std::vector<CsvChunk>& chunks, int num_threads) {
  std::vector<std::vector<ColumnPlan>> per_chunk(chunks.size(), input.plans);
  std::atomic<bool> ok{true};
  util::ParallelFor(chunks.size(), num_threads, [&](size_t k, int) {
    if (!ok.load(std::memory_order_relaxed)) return;
    if (!InferChunk(input, options, chunks[k], &per_chunk[k])) ok = false;
  });
  if (!ok) return std::nullopt;
  std::vector<ColumnPlan> plans = input.plans;
  for (size_t c = 0; c < plans.size(); ++c) {
    if (plans[c].declared) continue;
    // Inference only ever widens int64 -> double -> string, and every
    // int64 cell is also a double: the widest chunk type fits every cell.
    for (const std::vector<ColumnPlan>& chunk : per_chunk) {
      if (Rank(chunk[c].type) > Rank(plans[c].type))
        plans[c].type = chunk[c].type;
      plans[c].seen_value |= chunk[c].seen_value;
    }
    if (!plans[c].seen_value) plans[c].type = ColumnType::kString;
  }
  return plans;
}

// One chunk's dictionary state: an interner per string column, and the
// copies of its distinct strings (in the interners' arenas).
struct ChunkStrings {
  std::vector<std::unique_ptr<ChunkInterner>> interners;  // by column
};

// The most distinct strings per record any parsed chunk had in each
// column: a chunk sizes its interners from it instead of growing them (a
// rehash of every string each time a table doubles).
class DistinctHints {
 public:
  explicit DistinctHints(size_t num_columns) : ratio_(num_columns) {}

  // The distinct strings expected in `records` records of `column`, with
  // some slack; 0 before any chunk is done.
  size_t Estimate(size_t column, size_t records) const {
    const uint64_t ratio = ratio_[column].load(std::memory_order_relaxed);
    const size_t expected = static_cast<size_t>((ratio * records) >> kShift);
    return expected + expected / 16;
  }

  void Record(size_t column, size_t distinct, size_t records) {
    if (records == 0) return;
    const uint64_t ratio = (uint64_t{distinct} << kShift) / records;
    uint64_t seen = ratio_[column].load(std::memory_order_relaxed);
    while (seen < ratio && !ratio_[column].compare_exchange_weak(
                               seen, ratio, std::memory_order_relaxed)) {
    }
  }

 private:
  static constexpr int kShift = 20;  // fixed point: distinct/record * 2^20
  std::vector<std::atomic<uint64_t>> ratio_;
};

// One tokenized record, with the keys of its string cells.
struct PendingRecord {
  Result result = Result::kEnd;
  std::vector<FastField> fields;
  std::vector<ChunkInterner::Key> keys;
};

// Stores the cells of record `row`; false if one does not fit its column.
bool StoreRecord(const CsvOptions& options, const PendingRecord& record,
                 size_t row, std::vector<Column>* columns,
                 ChunkStrings* strings, std::string* scratch) {
  for (size_t c = 0; c < columns->size(); ++c) {
    const FastField& f = record.fields[c];
    Column& column = (*columns)[c];
    const bool is_null =
        IsNullText(f.raw, f.has_escaped_quotes, options.null_values);
    if (column.type == ColumnType::kString) {
      if (is_null) {
        column.nulls[row] = 1;
      } else if (f.has_escaped_quotes) {
        *scratch = absl::StrReplaceAll(f.raw, {{"\"\"", "\""}});
        column.string_ids[row] = strings->interners[c]->Intern(*scratch);
      } else {
        column.string_ids[row] =
            strings->interners[c]->Intern(f.raw, record.keys[c]);
      }
    } else if (is_null || (!f.has_escaped_quotes && IsNanSpelling(f.raw))) {
      column.nulls[row] = 1;
    } else if (f.has_escaped_quotes || !StoreNumber(f.raw, row, &column)) {
      return false;
    }
  }
  return true;
}

// Stores one chunk's cells into rows [first_row, ...) of `columns`; string
// cells get the chunk's provisional ids. False on a malformed record, a
// cell not of its column's type or a record count other than the split's.
bool FillChunk(const ParallelCsvInput& input, const CsvOptions& options,
               const CsvChunk& chunk, std::vector<Column>* columns,
               ChunkStrings* strings, DistinctHints* hints) {
  const size_t num_columns = columns->size();
  std::vector<size_t> string_columns;
  strings->interners.resize(num_columns);
  for (size_t c = 0; c < num_columns; ++c) {
    if ((*columns)[c].type != ColumnType::kString) continue;
    string_columns.push_back(c);
    strings->interners[c] = std::make_unique<ChunkInterner>();
    strings->interners[c]->Reserve(hints->Estimate(c, chunk.num_records));
  }
  FastCsvTokenizer tokenizer(tokenizer_text(input, chunk),
                             options.max_field_bytes);
  const char* const limit = input.text.data() + input.text.size();
  // Reads the next record and computes its keys, with a prefetch each.
  // The record before it is stored meanwhile, so that the lookups find
  // their slots in cache (a column with many distinct strings has a table
  // far larger than the caches).
  auto read = [&](PendingRecord* record) {
    record->result = tokenizer.Next(num_columns, record->fields.data());
    if (record->result != Result::kRecord) return;
    for (size_t c : string_columns) {
      record->keys[c] = ChunkInterner::KeyOf(record->fields[c].raw, limit);
      strings->interners[c]->Prefetch(record->keys[c]);
    }
  };
  PendingRecord records[2];
  for (PendingRecord& record : records) {
    record.fields.resize(num_columns);
    record.keys.resize(num_columns);
  }
  std::string scratch;
  size_t row = chunk.first_row;
  const size_t end_row = chunk.first_row + chunk.num_records;
  read(&records[0]);
  for (size_t next = 1;; next ^= 1) {
    const PendingRecord& record = records[next ^ 1];
    if (record.result == Result::kEnd) break;
    if (record.result == Result::kMalformed || row == end_row) return false;
    read(&records[next]);
    if (!StoreRecord(options, record, row, columns, strings, &scratch)) {
      return false;
    }
    ++row;
  }
  for (size_t c : string_columns) {
    hints->Record(c, strings->interners[c]->strings().size(),
                  chunk.num_records);
    strings->interners[c]->FinishInterning();
  }
  if (input.release) input.release(tokenizer_text(input, chunk));
  return row == end_row;
}

// Columns of `plans`' types for `num_rows` rows, zeroed on all threads (the
// first touch of the pages is most of the cost).
std::vector<Column> MakeColumns(const std::vector<ColumnPlan>& plans,
                                size_t num_rows, int num_threads) {
  std::vector<Column> columns(plans.size());
  util::ParallelFor(plans.size(), num_threads, [&](size_t c, int) {
    columns[c] = MakeColumn(plans[c].type, num_rows);
  });
  return columns;
}

}  // namespace

void InferType(absl::string_view value, ColumnPlan* plan) {
  if (plan->type == ColumnType::kInt64 && !IsInferableInt64(value)) {
    plan->type = ColumnType::kDouble;
  }
  if (plan->type == ColumnType::kDouble && !IsInferableDouble(value)) {
    plan->type = ColumnType::kString;
  }
}

std::optional<Table> ReadCsvParallel(const ParallelCsvInput& input,
                                     const CsvOptions& options) {
  const int num_threads = util::ResolveThreads(options.num_threads);
  const size_t data_bytes = input.text.size() > input.data_begin
                                ? input.text.size() - input.data_begin
                                : 0;
  const size_t max_chunks = std::max<size_t>(
      1, std::min(kChunksPerThread * static_cast<size_t>(num_threads),
                  data_bytes / std::max<size_t>(1, input.min_chunk_bytes)));
  std::optional<std::vector<CsvChunk>> chunks =
      SplitCsvChunks(input.text, input.data_begin, input.data_line, max_chunks,
                     num_threads, input.release);
  if (!chunks.has_value()) return std::nullopt;
  size_t num_rows = 0;
  for (const CsvChunk& chunk : *chunks) num_rows += chunk.num_records;
  if (num_rows > options.max_rows) return std::nullopt;

  std::vector<ColumnPlan> plans = input.plans;
  if (std::any_of(plans.begin(), plans.end(),
                  [](const ColumnPlan& p) { return !p.declared; })) {
    std::optional<std::vector<ColumnPlan>> inferred =
        InferTypes(input, options, *chunks, num_threads);
    if (!inferred.has_value()) return std::nullopt;
    plans = *std::move(inferred);
  }
  std::vector<ColumnSpec> specs;
  for (size_t c = 0; c < plans.size(); ++c) {
    specs.push_back(ColumnSpec{input.names[c], plans[c].type});
  }
  absl::StatusOr<Schema> schema = Schema::Create(std::move(specs));
  if (!schema.ok()) return std::nullopt;

  std::vector<Column> columns = MakeColumns(plans, num_rows, num_threads);
  std::vector<ChunkStrings> strings(chunks->size());
  DistinctHints hints(columns.size());
  std::atomic<bool> ok{true};
  util::ParallelFor(chunks->size(), num_threads, [&](size_t k, int) {
    if (!ok.load(std::memory_order_relaxed)) return;
    if (!FillChunk(input, options, (*chunks)[k], &columns, &strings[k],
                   &hints)) {
      ok = false;
    }
  });
  if (!ok) return std::nullopt;

  // One sorted dictionary for every chunk and column, then the ids.
  std::vector<const std::vector<absl::string_view>*> interners;
  std::vector<std::pair<size_t, size_t>> owner;  // (chunk, column)
  for (size_t k = 0; k < strings.size(); ++k) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (strings[k].interners[c] == nullptr) continue;
      interners.push_back(&strings[k].interners[c]->strings());
      owner.emplace_back(k, c);
    }
  }
  MergedDictionary merged = MergeInterners(interners, num_threads);
  util::ParallelFor(interners.size(), num_threads, [&](size_t i, int) {
    const auto [k, c] = owner[i];
    const uint32_t* remap = merged.remap(i);
    Column& column = columns[c];
    const size_t begin = (*chunks)[k].first_row;
    const size_t end = begin + (*chunks)[k].num_records;
    for (size_t row = begin; row < end; ++row) {
      column.string_ids[row] =
          column.nulls[row] ? 0 : remap[column.string_ids[row]];
    }
  });
  return Table(*std::move(schema), std::move(columns), num_rows,
               std::move(merged.dictionary));
}

}  // namespace dpq::core::table::internal
