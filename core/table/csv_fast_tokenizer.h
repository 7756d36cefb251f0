// The CSV tokenizer of the parallel reader's fast path: the format of
// csv_tokenizer.h, without positions or messages. Whatever CsvTokenizer
// rejects, this rejects too (the reader then reads the text again with
// CsvTokenizer for the error message). Internal to core/table.
#ifndef DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_
#define DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
      : p_(text.data()),
        end_(text.data() + text.size()),
        block_(end_),
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

  // The stop bytes of an unquoted field (',', '"', '\n', '\r') among the
  // 64 bytes at `p`, as bits.
  static uint64_t StopMask(const char* p) {
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    uint64_t mask = 0;
    for (int i = 0; i < 4; ++i) {
      const __m128i v =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      const __m128i stops = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, quote)),
          _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
      mask |=
          static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(stops)))
          << (16 * i);
    }
    return mask;
#else
    uint64_t mask = 0;
    for (int i = 0; i < 64; ++i) {
      if (p[i] == ',' || EndsUnquoted(p[i])) mask |= uint64_t{1} << i;
    }
    return mask;
#endif
  }

  // The first stop byte at or after p_ (end_ if none). The stop bits of
  // 64 bytes are found at once and kept: most fields are a few bytes, and
  // taking them from a mask costs no mispredicted branch per byte.
  const char* NextStop() {
    const char* from = p_;
    for (;;) {
      if (block_ == end_ || from < block_ || from - block_ >= 64) {
        if (end_ - from < 64) {
          while (from < end_ && *from != ',' && !EndsUnquoted(*from)) ++from;
          return from;
        }
        block_ = from;
        stops_ = StopMask(from);
      }
      const uint64_t rest = stops_ & (~uint64_t{0} << (from - block_));
      if (rest != 0) return block_ + __builtin_ctzll(rest);
      from = block_ + 64;
    }
  }

  bool ReadUnquoted(FastField* field) {
    const char* start = p_;
    p_ = NextStop();
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
      const void* q =
          scan < end_ ? std::memchr(scan, '"', end_ - scan) : nullptr;
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
  // 64 bytes of the text whose stop bytes are the bits of stops_ (none
  // yet: end_).
  const char* block_;
  uint64_t stops_ = 0;
  size_t max_field_bytes_;
};

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CSV_FAST_TOKENIZER_H_
