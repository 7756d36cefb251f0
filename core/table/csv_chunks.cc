#include "core/table/csv_chunks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/util/parallel_for.h"

namespace dpq::core::table::internal {
namespace {

// What one range of bytes holds, for either parity of quotes at its start
// (index 0: the range starts outside quotes).
struct RangeScan {
  bool odd_quotes = false;     // an odd number of quotes in the range
  size_t line_feeds = 0;       // all of them
  size_t outside[2] = {0, 0};  // line feeds outside quotes
  // The first line feed outside quotes (npos if none) and how many line
  // feeds precede it in the range.
  size_t first[2] = {absl::string_view::npos, absl::string_view::npos};
  size_t feeds_before_first[2] = {0, 0};
};

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighs = 0x8080808080808080ULL;

// Nonzero iff some byte of `word` equals the byte `c` spread by kOnes.
inline uint64_t HasByte(uint64_t word, uint64_t spread) {
  const uint64_t x = word ^ spread;
  return (x - kOnes) & ~x & kHighs;
}

void ScanByte(char c, size_t pos, int* parity, RangeScan* s) {
  if (c == '"') {
    *parity ^= 1;
  } else if (c == '\n') {
    // `parity` counts the range's own quotes: the feed is outside quotes
    // exactly for the start parity equal to it.
    const int start = *parity;
    if (s->first[start] == absl::string_view::npos) {
      s->first[start] = pos;
      s->feeds_before_first[start] = s->line_feeds;
    }
    ++s->outside[start];
    ++s->line_feeds;
  }
}

RangeScan ScanRange(absl::string_view text, size_t begin, size_t end) {
  RangeScan s;
  int parity = 0;
  const uint64_t quotes = kOnes * static_cast<uint8_t>('"');
  const uint64_t feeds = kOnes * static_cast<uint8_t>('\n');
  size_t pos = begin;
  // Eight bytes at a time: most words hold neither a quote nor a line feed.
  for (; pos + 8 <= end; pos += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + pos, 8);
    if ((HasByte(word, quotes) | HasByte(word, feeds)) == 0) continue;
    for (size_t k = 0; k < 8; ++k)
      ScanByte(text[pos + k], pos + k, &parity, &s);
  }
  for (; pos < end; ++pos) ScanByte(text[pos], pos, &parity, &s);
  s.odd_quotes = parity != 0;
  return s;
}

}  // namespace

std::optional<std::vector<CsvChunk>> SplitCsvChunks(
    absl::string_view text, size_t data_begin, size_t data_line,
    size_t max_chunks, int num_threads,
    const std::function<void(absl::string_view)>& release) {
  std::vector<CsvChunk> chunks;
  if (data_begin >= text.size()) return chunks;
  const size_t size = text.size() - data_begin;
  const size_t num_ranges = std::max<size_t>(1, std::min(max_chunks, size));
  const size_t range_bytes = (size + num_ranges - 1) / num_ranges;
  std::vector<RangeScan> scans(num_ranges);
  util::ParallelFor(num_ranges, num_threads, [&](size_t r, int) {
    const size_t begin = data_begin + r * range_bytes;
    const size_t end = std::min(text.size(), begin + range_bytes);
    if (begin >= end) return;
    scans[r] = ScanRange(text, begin, end);
    if (release) release(text.substr(begin, end - begin));
  });

  // A prefix over the ranges: the real parity at each start picks the scan.
  CsvChunk current;
  current.begin = data_begin;
  current.first_line = data_line;
  size_t records = 0;        // line feeds outside quotes before the range
  size_t lines = data_line;  // physical line at the start of the range
  int parity = 0;
  for (size_t r = 0; r < num_ranges; ++r) {
    const RangeScan& s = scans[r];
    const size_t first = s.first[parity];
    if (r > 0 && first != absl::string_view::npos && first + 1 < text.size()) {
      // A new chunk starts after the range's first line feed outside quotes.
      const size_t boundary_records = records + 1;
      current.end = first + 1;
      current.num_records = boundary_records - current.first_row;
      chunks.push_back(current);
      current = CsvChunk();
      current.begin = first + 1;
      current.first_row = boundary_records;
      current.first_line = lines + s.feeds_before_first[parity] + 1;
    }
    records += s.outside[parity];
    lines += s.line_feeds;
    if (s.odd_quotes) parity ^= 1;
  }
  if (parity != 0) return std::nullopt;
  // The last record needs no final line feed.
  if (text.back() != '\n') ++records;
  current.end = text.size();
  current.num_records = records - current.first_row;
  chunks.push_back(current);
  return chunks;
}

}  // namespace dpq::core::table::internal
