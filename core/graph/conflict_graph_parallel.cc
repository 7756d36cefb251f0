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

}  // namespace dpq::core::graph::internal
