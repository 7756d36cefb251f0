#include "core/table/string_interner.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

int CompareSizes(uint32_t x, uint32_t y) {
  return x == y ? 0 : (x < y ? -1 : 1);
}

// Byte-wise order. Equal prefixes mean equal first min(8, size) bytes and
// zero padding beyond, so if either string has at most 8 bytes the shorter
// one comes first; longer strings compare only their bytes after the
// prefix.
int Compare(const SortEntry& x, const SortEntry& y) {
  if (x.prefix != y.prefix) return x.prefix < y.prefix ? -1 : 1;
  if (x.size <= 8 || y.size <= 8) return CompareSizes(x.size, y.size);
  const int c =
      std::memcmp(x.data + 8, y.data + 8, std::min(x.size, y.size) - 8);
  return c != 0 ? c : CompareSizes(x.size, y.size);
}

// Entries are distributed by the top kBucketBits of their prefix (the
// first pass of an MSD radix sort): each bucket then sorts and
// de-duplicates on its own, since equal strings share a bucket, and no
// merge of sorted parts is needed.
constexpr int kBucketBits = 16;
constexpr size_t kNumBuckets = size_t{1} << kBucketBits;

size_t BucketOf(uint64_t prefix) { return prefix >> (64 - kBucketBits); }

// A run of consecutive buckets handled by one task, and the dictionary ids
// of its distinct strings.
struct Task {
  size_t first_bucket = 0;
  size_t end_bucket = 0;
  uint32_t distinct = 0;
  uint32_t first_rank = 0;
};

std::vector<size_t> Bases(
    const std::vector<const std::vector<absl::string_view>*>& interners) {
  std::vector<size_t> base(interners.size() + 1, 0);
  for (size_t i = 0; i < interners.size(); ++i) {
    base[i + 1] = base[i] + interners[i]->size();
  }
  return base;
}

// Calls f(flat index, string) for the flat indexes [begin, end).
template <typename F>
void ForStrings(
    const std::vector<const std::vector<absl::string_view>*>& interners,
    const std::vector<size_t>& base, size_t begin, size_t end, F&& f) {
  size_t i = static_cast<size_t>(
      std::upper_bound(base.begin(), base.end(), begin) - base.begin() - 1);
  for (size_t k = begin; k < end; ++i) {
    const std::vector<absl::string_view>& strings = *interners[i];
    for (; k < end && k < base[i + 1]; ++k) f(k, strings[k - base[i]]);
  }
}

// Fills `entries` grouped by bucket: each thread counts, then places, a
// contiguous part of the strings. Returns where each bucket starts (and
// the end).
std::vector<size_t> Distribute(
    const std::vector<const std::vector<absl::string_view>*>& interners,
    const std::vector<size_t>& base, int num_threads,
    ZeroedArray<SortEntry>* entries) {
  const size_t n = base.back();
  const size_t parts = static_cast<size_t>(std::max(1, num_threads));
  std::vector<std::vector<size_t>> next(parts,
                                        std::vector<size_t>(kNumBuckets));
  util::ParallelFor(parts, num_threads, [&](size_t p, int) {
    std::vector<size_t>& count = next[p];
    ForStrings(
        interners, base, n * p / parts, n * (p + 1) / parts,
        [&](size_t, absl::string_view s) { ++count[BucketOf(PrefixOf(s))]; });
  });
  std::vector<size_t> starts(kNumBuckets + 1);
  size_t offset = 0;
  for (size_t b = 0; b < kNumBuckets; ++b) {
    starts[b] = offset;
    for (size_t p = 0; p < parts; ++p) {
      const size_t count = next[p][b];
      next[p][b] = offset;
      offset += count;
    }
  }
  starts[kNumBuckets] = offset;
  util::ParallelFor(parts, num_threads, [&](size_t p, int) {
    std::vector<size_t>& place = next[p];
    ForStrings(interners, base, n * p / parts, n * (p + 1) / parts,
               [&](size_t k, absl::string_view s) {
                 const uint64_t prefix = PrefixOf(s);
                 (*entries)[place[BucketOf(prefix)]++] = SortEntry{
                     prefix, s.data(), static_cast<uint32_t>(s.size()),
                     static_cast<uint32_t>(k)};
               });
  });
  return starts;
}

// Runs of whole buckets of about equal size, many per thread so that they
// balance across threads.
std::vector<Task> MakeTasks(const std::vector<size_t>& starts,
                            int num_threads) {
  const size_t target = std::max<size_t>(
      1024,
      starts.back() / (64 * static_cast<size_t>(std::max(1, num_threads))));
  std::vector<Task> tasks;
  size_t first = 0;
  for (size_t b = 0; b < kNumBuckets; ++b) {
    if (starts[b + 1] - starts[first] >= target || b + 1 == kNumBuckets) {
      tasks.push_back(Task{first, b + 1, 0, 0});
      first = b + 1;
    }
  }
  return tasks;
}

// Whether entries[k] is the first of its string in bucket [begin, ...).
bool StartsString(const ZeroedArray<SortEntry>& entries, size_t begin,
                  size_t k) {
  return k == begin || Compare(entries[k - 1], entries[k]) != 0;
}

}  // namespace

MergedDictionary MergeInterners(
    const std::vector<const std::vector<absl::string_view>*>& interners,
    int num_threads) {
  MergedDictionary result;
  result.base = Bases(interners);
  // Written once each before they are read: no need to zero or prefault.
  ZeroedArray<SortEntry> entries(result.base.back(), Prefault::kNo);
  const std::vector<size_t> starts =
      Distribute(interners, result.base, num_threads, &entries);
  std::vector<Task> tasks = MakeTasks(starts, num_threads);
  util::ParallelFor(tasks.size(), num_threads, [&](size_t t, int) {
    Task& task = tasks[t];
    for (size_t b = task.first_bucket; b < task.end_bucket; ++b) {
      // A lambda, not a function pointer: std::sort then inlines it.
      std::sort(entries.data() + starts[b], entries.data() + starts[b + 1],
                [](const SortEntry& x, const SortEntry& y) {
                  return Compare(x, y) < 0;
                });
      for (size_t k = starts[b]; k < starts[b + 1]; ++k) {
        task.distinct += StartsString(entries, starts[b], k) ? 1 : 0;
      }
    }
  });
  uint32_t num_distinct = 0;
  for (Task& task : tasks) {
    task.first_rank = num_distinct;
    num_distinct += task.distinct;
  }
  result.flat = ZeroedArray<uint32_t>(entries.size(), Prefault::kNo);
  std::vector<std::string> sorted(num_distinct);
  util::ParallelFor(tasks.size(), num_threads, [&](size_t t, int) {
    uint32_t rank = tasks[t].first_rank - 1;  // wraps, then the first string
    for (size_t b = tasks[t].first_bucket; b < tasks[t].end_bucket; ++b) {
      for (size_t k = starts[b]; k < starts[b + 1]; ++k) {
        const SortEntry& e = entries[k];
        if (StartsString(entries, starts[b], k)) {
          sorted[++rank].assign(e.data, e.size);
        }
        result.flat[e.slot] = rank;
      }
    }
  });
  result.dictionary =
      std::make_shared<const StringDictionary>(std::move(sorted));
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
