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
#include "core/table/huge_pages.h"

namespace dpq::core::table::internal {

class ChunkInterner {
 public:
  ChunkInterner() : slots_(kInitialSlots, Prefault::kYes) {}
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
    return Finish(s, k);
  }
  // The same key, for `s` inside a buffer that ends at `limit`. With 16
  // readable bytes from s.data(), the words are loaded whole and masked:
  // copying fewer bytes into a zeroed key and loading it back stalls on
  // store forwarding, which cost more than the hashing.
  static Key KeyOf(absl::string_view s, const char* limit) {
    if (limit - s.data() < 16) return KeyOf(s);
    Key k{};
    std::memcpy(k.w, s.data(), 16);
    const size_t n = s.size();
    k.w[0] &= n >= 8 ? ~uint64_t{0} : LowBytes(n);
    k.w[1] &= n >= 16 ? ~uint64_t{0} : (n <= 8 ? 0 : LowBytes(n - 8));
    return Finish(s, k);
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

  // Makes room for `n` distinct strings, so that the table need not grow
  // while they are interned (the reader estimates n from earlier chunks).
  void Reserve(size_t n);

  // Drops the lookup table once the chunk is interned: strings() stays.
  void FinishInterning() { slots_ = ZeroedArray<Slot>(); }

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

  // The low n < 8 bytes of a little-endian word.
  static uint64_t LowBytes(size_t n) { return (uint64_t{1} << (8 * n)) - 1; }

  // k with its hash, from its words and the bytes of s after them.
  static Key Finish(absl::string_view s, Key k) {
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

  static uint64_t Mix(uint64_t h) {
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
  }

  // Rehashes into `num_slots` (a power of two) slots.
  void Rehash(size_t num_slots) {
    ZeroedArray<Slot> old(num_slots, Prefault::kYes);
    std::swap(old, slots_);
    const size_t mask = slots_.size() - 1;
    for (size_t k = 0; k < old.size(); ++k) {
      const Slot& slot = old[k];
      if (slot.id_plus_one == 0) continue;
      size_t i = slot.hash & mask;
      while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  uint32_t Insert(Slot* slot, const Key& key, absl::string_view s);
  // A stable copy of `s` in the arena.
  absl::string_view Copy(absl::string_view s);

  ZeroedArray<Slot> slots_;  // all zero bytes: an empty slot
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
    if (slot.hash == key.hash && slot.size == s.size() && slot.w0 == key.w[0] &&
        slot.w1 == key.w[1] &&
        (s.size() <= 16 ||
         std::memcmp(strings_[slot.id_plus_one - 1].data() + 16, s.data() + 16,
                     s.size() - 16) == 0)) {
      return slot.id_plus_one - 1;
    }
  }
}

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CHUNK_INTERNER_H_
