// Parallel sort-merge of the per-worker edge buffers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "core/graph/conflict_graph_internal.h"

namespace dpq::core::graph::internal {

std::vector<uint64_t> SortMergeUnique(std::vector<std::vector<uint64_t>> parts,
                                      int num_threads, bool parts_sorted) {
  if (parts.empty()) return {};
  size_t total = 0;
  for (const std::vector<uint64_t>& p : parts) total += p.size();
  // Small inputs: starting threads costs more than it saves.
  if (total < (size_t{1} << 15)) num_threads = 1;
  // Every worker sorts its own buffer: that is the parallel part of the sort.
  if (!parts_sorted) {
    ParallelFor(parts.size(), num_threads, [&](size_t i, int) {
      std::vector<uint64_t>& p = parts[i];
      std::sort(p.begin(), p.end());
      p.erase(std::unique(p.begin(), p.end()), p.end());
    });
  }
  while (parts.size() > 1) {
    std::vector<std::vector<uint64_t>> merged((parts.size() + 1) / 2);
    ParallelFor(merged.size(), num_threads, [&](size_t i, int) {
      if (2 * i + 1 == parts.size()) {
        merged[i] = std::move(parts[2 * i]);
        return;
      }
      std::vector<uint64_t>& x = parts[2 * i];
      std::vector<uint64_t>& y = parts[2 * i + 1];
      std::vector<uint64_t> out;
      out.reserve(x.size() + y.size());
      // A set union of two duplicate-free sorted ranges is duplicate-free.
      std::set_union(x.begin(), x.end(), y.begin(), y.end(),
                     std::back_inserter(out));
      // Release the inputs at once: peak memory stays ~2x one level.
      std::vector<uint64_t>().swap(x);
      std::vector<uint64_t>().swap(y);
      // Overlapping inputs leave slack; a copy is cheaper than keeping it.
      if (out.size() < out.capacity() / 2) out.shrink_to_fit();
      merged[i] = std::move(out);
    });
    parts = std::move(merged);
  }
  return std::move(parts[0]);
}

std::vector<uint64_t> UnionSortedUnique(std::vector<std::vector<uint64_t>> parts,
                                        int num_threads) {
  size_t total = 0;
  size_t largest = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    total += parts[i].size();
    if (parts[i].size() > parts[largest].size()) largest = i;
  }
  if (parts.empty()) return {};
  if (parts.size() == 1) return std::move(parts[0]);
  // Pieces by value: splitters spread over the largest part.
  const size_t pieces =
      total < (size_t{1} << 15) ? 1 : static_cast<size_t>(std::max(1, num_threads)) * 4;
  std::vector<uint64_t> splitters;
  const std::vector<uint64_t>& big = parts[largest];
  for (size_t p = 1; p < pieces; ++p) {
    if (!big.empty()) splitters.push_back(big[big.size() * p / pieces]);
  }
  splitters.erase(std::unique(splitters.begin(), splitters.end()),
                  splitters.end());
  const size_t num_pieces = splitters.size() + 1;
  std::vector<std::vector<uint64_t>> out(num_pieces);
  ParallelFor(num_pieces, num_threads, [&](size_t piece, int) {
    // Values in [lo, hi): from splitter piece-1 up to splitter piece.
    std::vector<std::vector<uint64_t>> mine;
    for (const std::vector<uint64_t>& part : parts) {
      auto begin = piece == 0 ? part.begin()
                              : std::lower_bound(part.begin(), part.end(),
                                                 splitters[piece - 1]);
      auto end = piece + 1 == num_pieces
                     ? part.end()
                     : std::lower_bound(part.begin(), part.end(),
                                        splitters[piece]);
      if (begin != end) mine.emplace_back(begin, end);
    }
    out[piece] = SortMergeUnique(std::move(mine), 1, /*parts_sorted=*/true);
  });
  std::vector<std::vector<uint64_t>>().swap(parts);
  std::vector<size_t> offset(num_pieces + 1, 0);
  for (size_t p = 0; p < num_pieces; ++p) offset[p + 1] = offset[p] + out[p].size();
  std::vector<uint64_t> result(offset[num_pieces]);
  ParallelFor(num_pieces, num_threads, [&](size_t p, int) {
    std::copy(out[p].begin(), out[p].end(), result.begin() + offset[p]);
    std::vector<uint64_t>().swap(out[p]);
  });
  return result;
}

}  // namespace dpq::core::graph::internal
