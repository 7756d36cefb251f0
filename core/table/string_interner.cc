#include "core/table/string_interner.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/table.h"
#include "core/util/parallel_for.h"

namespace dpq::core::table::internal {

uint32_t StringInterner::InternView(absl::string_view s) {
  const auto [it, inserted] =
      ids_.try_emplace(s, static_cast<uint32_t>(strings_.size()));
  if (inserted) strings_.push_back(s);
  return it->second;
}

uint32_t StringInterner::InternCopy(absl::string_view s) {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  return InternView(copies_.emplace_back(s));
}

StringInterner::Result StringInterner::Finish() && {
  // Sorting (view, id) pairs rather than ids keeps the compared views in
  // the array being sorted instead of behind an indirection.
  std::vector<std::pair<absl::string_view, uint32_t>> order;
  order.reserve(strings_.size());
  for (uint32_t id = 0; id < strings_.size(); ++id) {
    order.emplace_back(strings_[id], id);
  }
  std::sort(order.begin(), order.end());
  Result result;
  result.remap.resize(order.size());
  std::vector<std::string> sorted;
  sorted.reserve(order.size());
  for (uint32_t rank = 0; rank < order.size(); ++rank) {
    result.remap[order[rank].second] = rank;
    sorted.emplace_back(order[rank].first);
  }
  result.dictionary =
      std::make_shared<const StringDictionary>(std::move(sorted));
  return result;
}

namespace {

// A string to sort, with its first 8 bytes as a big-endian integer (zero
// padded) so that most comparisons need no memcmp, and where it came from.
struct SortEntry {
  uint64_t prefix;
  const char* data;
  uint32_t size;
  uint32_t slot;  // offset of its interner in the flat remap, plus its id
};

uint64_t PrefixOf(absl::string_view s) {
  unsigned char bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::memcpy(bytes, s.data(), std::min<size_t>(8, s.size()));
  uint64_t prefix = 0;
  for (unsigned char b : bytes) prefix = prefix << 8 | b;
  return prefix;
}

bool Less(const SortEntry& x, const SortEntry& y) {
  if (x.prefix != y.prefix) return x.prefix < y.prefix;
  return absl::string_view(x.data, x.size) < absl::string_view(y.data, y.size);
}

bool Same(const SortEntry& x, const SortEntry& y) {
  return x.prefix == y.prefix &&
         absl::string_view(x.data, x.size) == absl::string_view(y.data, y.size);
}

// Sorts `entries`: parts sorted in parallel, then merged pairwise.
void ParallelSort(std::vector<SortEntry>* entries, int num_threads) {
  const size_t n = entries->size();
  const size_t parts =
      n < (size_t{1} << 14) ? 1 : static_cast<size_t>(std::max(1, num_threads));
  std::vector<size_t> bounds(parts + 1);
  for (size_t p = 0; p <= parts; ++p) bounds[p] = n * p / parts;
  util::ParallelFor(parts, num_threads, [&](size_t p, int) {
    std::sort(entries->begin() + bounds[p], entries->begin() + bounds[p + 1],
              Less);
  });
  for (size_t width = 1; width < parts; width *= 2) {
    const size_t merges = (parts + 2 * width - 1) / (2 * width);
    util::ParallelFor(merges, num_threads, [&](size_t m, int) {
      const size_t lo = 2 * width * m;
      const size_t mid = std::min(parts, lo + width);
      const size_t hi = std::min(parts, lo + 2 * width);
      if (mid == hi) return;
      std::inplace_merge(entries->begin() + bounds[lo],
                         entries->begin() + bounds[mid],
                         entries->begin() + bounds[hi], Less);
    });
  }
}

}  // namespace

MergedDictionary MergeInterners(
    const std::vector<const std::vector<absl::string_view>*>& interners,
    int num_threads) {
  std::vector<size_t> base(interners.size() + 1, 0);
  for (size_t i = 0; i < interners.size(); ++i) {
    base[i + 1] = base[i] + interners[i]->size();
  }
  std::vector<SortEntry> entries(base.back());
  util::ParallelFor(interners.size(), num_threads, [&](size_t i, int) {
    const std::vector<absl::string_view>& strings = *interners[i];
    for (size_t id = 0; id < strings.size(); ++id) {
      entries[base[i] + id] = SortEntry{
          PrefixOf(strings[id]), strings[id].data(),
          static_cast<uint32_t>(strings[id].size()),
          static_cast<uint32_t>(base[i] + id)};
    }
  });
  ParallelSort(&entries, num_threads);
  std::vector<uint32_t> flat(entries.size());
  std::vector<std::string> sorted;
  uint32_t rank = 0;
  for (size_t k = 0; k < entries.size(); ++k) {
    if (k == 0 || !Same(entries[k - 1], entries[k])) {
      sorted.emplace_back(entries[k].data, entries[k].size);
      rank = static_cast<uint32_t>(sorted.size() - 1);
    }
    flat[entries[k].slot] = rank;
  }
  MergedDictionary result;
  result.dictionary =
      std::make_shared<const StringDictionary>(std::move(sorted));
  result.remaps.resize(interners.size());
  for (size_t i = 0; i < interners.size(); ++i) {
    result.remaps[i].assign(flat.begin() + base[i], flat.begin() + base[i + 1]);
  }
  return result;
}

void RemapStringIds(const std::vector<uint32_t>& remap,
                    const std::vector<uint8_t>& nulls,
                    std::vector<uint32_t>* ids) {
  for (size_t row = 0; row < ids->size(); ++row) {
    (*ids)[row] = nulls[row] ? 0 : remap[(*ids)[row]];
  }
}

}  // namespace dpq::core::table::internal
