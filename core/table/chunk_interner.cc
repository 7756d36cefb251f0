#include "core/table/chunk_interner.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/strings/string_view.h"

namespace dpq::core::table::internal {
namespace {

// Arena blocks: small first (most columns of a chunk have few distinct
// strings), doubling up to a cap.
constexpr size_t kFirstBlock = 1024;
constexpr size_t kMaxBlock = size_t{1} << 20;

}  // namespace

uint32_t ChunkInterner::Insert(Slot* slot, const Key& key,
                               absl::string_view s) {
  const uint32_t id = static_cast<uint32_t>(strings_.size());
  s = Copy(s);
  strings_.push_back(s);
  *slot = Slot{key.hash, key.w[0], key.w[1], static_cast<uint32_t>(s.size()),
               id + 1};
  // At most half full: short probe sequences.
  if (2 * strings_.size() > slots_.size()) Rehash(2 * slots_.size());
  return id;
}

void ChunkInterner::Reserve(size_t n) {
  size_t num_slots = slots_.size();
  while (num_slots < 2 * n) num_slots *= 2;
  if (num_slots > slots_.size()) Rehash(num_slots);
  strings_.reserve(n);
}

absl::string_view ChunkInterner::Copy(absl::string_view s) {
  if (s.empty()) return absl::string_view();
  if (block_used_ + s.size() > block_size_) {
    block_size_ = std::max(
        s.size(), std::min(kMaxBlock, std::max(kFirstBlock, 2 * block_size_)));
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* out = blocks_.back().get() + block_used_;
  std::memcpy(out, s.data(), s.size());
  block_used_ += s.size();
  return absl::string_view(out, s.size());
}

}  // namespace dpq::core::table::internal
