// Dictionary encoding of one column within one chunk of a CSV file: each
// distinct string gets a provisional id in first-seen order (later merged
// into the table's sorted dictionary, string_interner.h MergeInterners).
// Internal to core/table.
//
// Each distinct string is copied once into the interner's arena, so the
// text may be dropped from memory as soon as the chunk is parsed (the
// reader lets the kernel drop a mapped file's pages chunk by chunk).
//
// A purpose-built open-addressing table: every slot keeps the hash, the
// length and the first 16 bytes of its string, so a lookup of a string of
// up to 16 bytes - most CSV cells - compares two words and never reads the
// earlier occurrence in the text, which is wherever in a large file it
// was first seen (a cache miss per cell with a table of views).
#ifndef DPQ_CORE_TABLE_CHUNK_INTERNER_H_
#define DPQ_CORE_TABLE_CHUNK_INTERNER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"

namespace dpq::core::table::internal {

class ChunkInterner {
 public:
  ChunkInterner() { slots_.resize(kInitialSlots); }
  ChunkInterner(const ChunkInterner&) = delete;
  ChunkInterner& operator=(const ChunkInterner&) = delete;

  // A string's hash and first 16 bytes (zero padded), computed once.
  struct Key {
    uint64_t hash;
    uint64_t w[2];
  };
  static Key KeyOf(absl::string_view s) {
    Key k{0, {0, 0}};
    std::memcpy(k.w, s.data(), s.size() < 16 ? s.size() : 16);
    uint64_t h = k.w[0] * 0x9e3779b97f4a7c15ULL ^
                 k.w[1] * 0xc2b2ae3d27d4eb4fULL ^ s.size();
    for (size_t i = 16; i < s.size(); i += 8) {
      uint64_t more = 0;
      std::memcpy(&more, s.data() + i, s.size() - i < 8 ? s.size() - i : 8);
      h = (h ^ more) * 0x9e3779b97f4a7c15ULL;
    }
    k.hash = Mix(h);
    return k;
  }

  // Asks for the cache line `key` probes first: the reader computes the
  // keys of a whole record, prefetches, then interns, so that the cache
  // misses of its columns overlap instead of following each other.
  void Prefetch(const Key& key) const {
    __builtin_prefetch(&slots_[key.hash & (slots_.size() - 1)]);
  }

  // The provisional id of `s` (whose key is `key`).
  uint32_t Intern(absl::string_view s, const Key& key);
  uint32_t Intern(absl::string_view s) { return Intern(s, KeyOf(s)); }

  // The distinct strings by provisional id.
  const std::vector<absl::string_view>& strings() const { return strings_; }

 private:
  static constexpr size_t kInitialSlots = 64;

  struct Slot {
    uint64_t hash = 0;
    uint64_t w0 = 0;
    uint64_t w1 = 0;
    uint32_t size = 0;
    uint32_t id_plus_one = 0;  // 0: empty
  };

  static uint64_t Mix(uint64_t h) {
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
  }

  void Grow() {
    std::vector<Slot> old(2 * slots_.size());
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.id_plus_one == 0) continue;
      size_t i = slot.hash & mask;
      while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  uint32_t Insert(Slot* slot, const Key& key, absl::string_view s);
  // A stable copy of `s` in the arena.
  absl::string_view Copy(absl::string_view s);

  std::vector<Slot> slots_;
  std::vector<absl::string_view> strings_;
  // Blocks of copied strings; a block is never reallocated.
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
};

inline uint32_t ChunkInterner::Intern(absl::string_view s, const Key& key) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = key.hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.id_plus_one == 0) return Insert(&slot, key, s);
    if (slot.hash == key.hash && slot.size == s.size() &&
        slot.w0 == key.w[0] && slot.w1 == key.w[1] &&
        (s.size() <= 16 ||
         std::memcmp(strings_[slot.id_plus_one - 1].data() + 16,
                     s.data() + 16, s.size() - 16) == 0)) {
      return slot.id_plus_one - 1;
    }
  }
}

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CHUNK_INTERNER_H_
