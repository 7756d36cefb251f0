// The CSV tokenizer of the parallel reader's fast path: the format of
// csv_tokenizer.h, without positions or messages. Whatever CsvTokenizer
// rejects, this rejects too (the reader then reads the text again with
// CsvTokenizer for the error message). Internal to core/table.
#ifndef DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_
#define DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/strings/string_view.h"

namespace dpq::core::table::internal {

struct FastField {
  // As CsvField::raw: the bytes between the quotes of a quoted field, with
  // doubled quotes still doubled.
  absl::string_view raw;
  bool has_escaped_quotes = false;
};

class FastCsvTokenizer {
 public:
  enum class Result { kRecord, kEnd, kMalformed };

  // `text` must outlive the tokenizer and the fields it returns.
  FastCsvTokenizer(absl::string_view text, size_t max_field_bytes)
      : p_(text.data()), end_(text.data() + text.size()),
        max_field_bytes_(max_field_bytes) {}

  // Reads the next record into fields[0, num_fields). kMalformed if it is
  // malformed or has another number of fields.
  Result Next(size_t num_fields, FastField* fields) {
    if (p_ >= end_) return Result::kEnd;
    for (size_t index = 0;; ++index) {
      if (index == num_fields) return Result::kMalformed;
      FastField& field = fields[index];
      const bool quoted = p_ < end_ && *p_ == '"';
      if (!(quoted ? ReadQuoted(&field) : ReadUnquoted(&field))) {
        return Result::kMalformed;
      }
      if (field.raw.size() > max_field_bytes_) return Result::kMalformed;
      // The separator.
      if (p_ == end_) return Finish(index, num_fields);
      const char c = *p_;
      if (c == ',') {
        ++p_;
        continue;
      }
      if (c == '\n') {
        ++p_;
        return Finish(index, num_fields);
      }
      if (c == '\r' && p_ + 1 < end_ && p_[1] == '\n') {
        p_ += 2;
        return Finish(index, num_fields);
      }
      return Result::kMalformed;
    }
  }

 private:
  static Result Finish(size_t index, size_t num_fields) {
    return index + 1 == num_fields ? Result::kRecord : Result::kMalformed;
  }

  static bool EndsUnquoted(char c) {
    // One comparison for the common case: every special byte is below '-'.
    return static_cast<unsigned char>(c) <= '"' &&
           (c == '"' || c == '\n' || c == '\r');
  }

  // Nonzero iff a byte of `word` equals the byte spread over `spread`;
  // its lowest set bit marks the first such byte (higher ones may be
  // false).
  static uint64_t MatchBytes(uint64_t word, uint64_t spread) {
    constexpr uint64_t kOnes = 0x0101010101010101ULL;
    constexpr uint64_t kHighs = 0x8080808080808080ULL;
    const uint64_t x = word ^ spread;
    return (x - kOnes) & ~x & kHighs;
  }

  bool ReadUnquoted(FastField* field) {
    constexpr uint64_t kOnes = 0x0101010101010101ULL;
    const char* start = p_;
    // Eight bytes at a time while eight remain: the first separator,
    // quote or line end is the lowest match of the four.
    while (end_ - p_ >= 8) {
      uint64_t word;
      std::memcpy(&word, p_, 8);
      const uint64_t match = MatchBytes(word, kOnes * ',') |
                             MatchBytes(word, kOnes * '\n') |
                             MatchBytes(word, kOnes * '\r') |
                             MatchBytes(word, kOnes * '"');
      if (match != 0) {
        p_ += __builtin_ctzll(match) / 8;
        return EndUnquoted(start, field);
      }
      p_ += 8;
    }
    while (p_ < end_ && *p_ != ',' && !EndsUnquoted(*p_)) ++p_;
    return EndUnquoted(start, field);
  }

  bool EndUnquoted(const char* start, FastField* field) {
    if (p_ < end_ && *p_ == '"') return false;
    field->raw = absl::string_view(start, static_cast<size_t>(p_ - start));
    field->has_escaped_quotes = false;
    return true;
  }

  bool ReadQuoted(FastField* field) {
    const char* start = p_ + 1;
    const char* scan = start;
    field->has_escaped_quotes = false;
    while (true) {
      const void* q = scan < end_ ? std::memchr(scan, '"', end_ - scan)
                                  : nullptr;
      if (q == nullptr) return false;
      const char* quote = static_cast<const char*>(q);
      if (quote + 1 < end_ && quote[1] == '"') {
        field->has_escaped_quotes = true;
        scan = quote + 2;
        continue;
      }
      field->raw = absl::string_view(start, static_cast<size_t>(quote - start));
      p_ = quote + 1;
      return true;
    }
  }

  const char* p_;
  const char* end_;
  size_t max_field_bytes_;
};

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_
