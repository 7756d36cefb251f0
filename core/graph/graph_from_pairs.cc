// Graph::FromPackedPairs: the CSR of a multiset of packed pairs built by
// bucketing the pairs by their lower end instead of sorting them all
// (docs/performance.md "Loading and blocking"). Each node's bucket is short
// (its degree), so sorting the buckets is linear in practice, and every
// pass is split over the threads.
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/graph/graph.h"
#include "core/util/parallel_for.h"

namespace dpq::core::graph {
namespace {

using util::ParallelFor;

// Below this many pairs one thread is faster than starting more.
constexpr size_t kMinPairsPerThread = size_t{1} << 16;
// Nodes per item of the parallel per-node passes.
constexpr size_t kNodeChunk = size_t{1} << 14;

NodeId Lower(uint64_t pair) { return static_cast<NodeId>(pair >> 32); }
NodeId Upper(uint64_t pair) { return static_cast<NodeId>(pair); }

// The pairs as one sequence over the parts, cut into equal slices.
class PairSlices {
 public:
  PairSlices(const std::vector<std::vector<uint64_t>>& parts, size_t slices)
      : parts_(parts), start_(parts.size() + 1, 0), slices_(slices) {
    for (size_t p = 0; p < parts.size(); ++p) {
      start_[p + 1] = start_[p] + parts[p].size();
    }
  }

  size_t total() const { return start_.back(); }

  // Calls f(pair) for every pair of slice s, in sequence order.
  template <typename F>
  void ForEach(size_t s, F&& f) const {
    const size_t begin = total() * s / slices_;
    const size_t end = total() * (s + 1) / slices_;
    size_t p = std::upper_bound(start_.begin(), start_.end(), begin) -
               start_.begin() - 1;
    for (size_t i = begin; i < end; ++p) {
      const std::vector<uint64_t>& part = parts_[p];
      const size_t from = i - start_[p];
      const size_t to = std::min(part.size(), end - start_[p]);
      for (size_t k = from; k < to; ++k) f(part[k]);
      i = start_[p] + to;
    }
  }

 private:
  const std::vector<std::vector<uint64_t>>& parts_;
  std::vector<size_t> start_;
  size_t slices_;
};

// Node ranges [bounds[t], bounds[t+1]) holding about equal shares of the
// pairs, given each node's first pair position `start` (size n + 1).
std::vector<uint32_t> BalancedNodeRanges(const std::vector<uint32_t>& start,
                                         size_t ranges) {
  const uint32_t n = static_cast<uint32_t>(start.size() - 1);
  std::vector<uint32_t> bounds(ranges + 1, n);
  bounds[0] = 0;
  for (size_t t = 1; t < ranges; ++t) {
    const uint32_t target =
        static_cast<uint32_t>(uint64_t{start.back()} * t / ranges);
    bounds[t] = static_cast<uint32_t>(
        std::lower_bound(start.begin(), start.end(), target) - start.begin());
    bounds[t] = std::clamp(bounds[t], bounds[t - 1], n);
  }
  return bounds;
}

// Turns the threads' counts at index i into each thread's offset among
// them (thread order) and returns their sum.
uint32_t CountsToOffsets(std::vector<std::vector<uint32_t>>& counts, size_t i) {
  uint32_t sum = 0;
  for (std::vector<uint32_t>& c : counts) {
    const uint32_t mine = c[i];
    c[i] = sum;
    sum += mine;
  }
  return sum;
}

}  // namespace

Graph Graph::FromPackedPairs(uint32_t num_nodes,
                             std::vector<std::vector<uint64_t>> parts,
                             int num_threads) {
  size_t total = 0;
  for (const std::vector<uint64_t>& part : parts) total += part.size();
  // Per-node counts are 32-bit: beyond that (tens of GB of pairs) a plain
  // sort is as good as anything.
  if (total > std::numeric_limits<uint32_t>::max()) {
    std::vector<uint64_t> all;
    all.reserve(total);
    for (std::vector<uint64_t>& part : parts) {
      all.insert(all.end(), part.begin(), part.end());
      std::vector<uint64_t>().swap(part);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return FromSortedUniquePacked(num_nodes, all);
  }
  // Per-thread counts over all nodes: a few threads use the memory
  // bandwidth, more would only multiply that memory (and the serial
  // passes over it).
  const size_t threads =
      std::clamp<size_t>(total / kMinPairsPerThread, 1,
                         static_cast<size_t>(std::clamp(num_threads, 1, 8)));
  const size_t n = num_nodes;
  const PairSlices slices(parts, threads);

  // 1. Pairs per lower end, per slice.
  std::vector<std::vector<uint32_t>> count(threads);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    count[t].assign(n, 0);
    slices.ForEach(t, [&](uint64_t pair) {
      assert(Lower(pair) < Upper(pair) && Upper(pair) < num_nodes);
      ++count[t][Lower(pair)];
    });
  });
  // 2. Bucket starts; count[t][u] becomes slice t's offset inside u's
  // bucket, so the buckets fill in sequence order.
  // 32-bit: the pairs number at most 2^32 - 1 here.
  std::vector<uint32_t> bucket(n + 1, 0);
  for (size_t u = 0; u < n; ++u) {
    bucket[u + 1] = bucket[u] + CountsToOffsets(count, u);
  }
  // 3. Scatter the upper ends into the buckets.
  std::vector<NodeId> upper(total);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    slices.ForEach(t, [&](uint64_t pair) {
      const NodeId u = Lower(pair);
      upper[bucket[u] + count[t][u]++] = Upper(pair);
    });
  });
  std::vector<std::vector<uint64_t>>().swap(parts);
  std::vector<std::vector<uint32_t>>().swap(count);

  // 4. Sort and deduplicate every bucket; `kept[u]` is its distinct size.
  std::vector<uint32_t> kept(n, 0);
  ParallelFor((n + kNodeChunk - 1) / kNodeChunk, static_cast<int>(threads),
              [&](size_t chunk, int) {
                const size_t end = std::min(n, (chunk + 1) * kNodeChunk);
                for (size_t u = chunk * kNodeChunk; u < end; ++u) {
                  NodeId* first = upper.data() + bucket[u];
                  NodeId* last = upper.data() + bucket[u + 1];
                  std::sort(first, last);
                  kept[u] =
                      static_cast<uint32_t>(std::unique(first, last) - first);
                }
              });

  // 5. Lower neighbours per node, counted per node range.
  const std::vector<uint32_t> ranges = BalancedNodeRanges(bucket, threads);
  std::vector<std::vector<uint32_t>> lower(threads);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    lower[t].assign(n, 0);
    for (uint32_t u = ranges[t]; u < ranges[t + 1]; ++u) {
      const NodeId* first = upper.data() + bucket[u];
      for (uint32_t k = 0; k < kept[u]; ++k) ++lower[t][first[k]];
    }
  });

  // 6. Offsets; lower[t][v] becomes range t's offset inside v's lower
  // neighbours, so they come out ascending (ranges are ascending in u).
  Graph g;
  g.offsets_.assign(n + 1, 0);
  for (size_t v = 0; v < n; ++v) {
    const uint64_t degree = uint64_t{CountsToOffsets(lower, v)} + kept[v];
    g.offsets_[v + 1] = g.offsets_[v] + degree;
    g.max_degree_ = std::max(g.max_degree_, static_cast<uint32_t>(degree));
    if (degree > 0) ++g.num_non_isolated_;
  }

  // 7. Fill: every node's upper neighbours after its lower ones, and each
  // pair once more as a lower neighbour of its upper end.
  g.adjacency_.resize(g.offsets_[n]);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    for (uint32_t u = ranges[t]; u < ranges[t + 1]; ++u) {
      const NodeId* first = upper.data() + bucket[u];
      NodeId* out = g.adjacency_.data() + g.offsets_[u + 1] - kept[u];
      for (uint32_t k = 0; k < kept[u]; ++k) {
        const NodeId v = first[k];
        out[k] = v;
        g.adjacency_[g.offsets_[v] + lower[t][v]++] = u;
      }
    }
  });
  return g;
}

}  // namespace dpq::core::graph
