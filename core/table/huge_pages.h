// Large buffers that the parallel CSV reader fills or probes at random
// (docs/performance.md, "Loading and blocking"). Their pages are first
// touched on the loading threads, 4 KiB at a time by default: a page fault
// each, and with a table of tens of MB probed at random, a TLB miss on
// almost every probe. Transparent huge pages cut both by 512x; on machines
// where they are enabled only on request ("madvise"), these ask for them.
// Internal to core/table.
#ifndef DPQ_CORE_TABLE_HUGE_PAGES_H_
#define DPQ_CORE_TABLE_HUGE_PAGES_H_

#include <cstddef>
#include <type_traits>
#include <utility>

namespace dpq::core::table::internal {

// `bytes` of zeroed memory (nullptr for 0), and its release. Aborts when
// memory runs out, as the process does on a failed allocation elsewhere.
// With `prefault`, large allocations are faulted in writable at once (for
// tables read before they are written, see huge_pages.cc); without, pages
// are faulted in by whichever thread writes them first.
void* AllocateZeroed(size_t bytes, bool prefault);
void FreeZeroed(void* data, size_t bytes);

// Whether a ZeroedArray is faulted in when allocated (AllocateZeroed).
enum class Prefault { kNo, kYes };

// A zeroed array of trivial T that is never copied: large ones are mapped
// fresh from the kernel (zeroed pages, no memset) and asked for huge pages.
template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  ZeroedArray() = default;
  ZeroedArray(size_t size, Prefault prefault)
      : data_(static_cast<T*>(
            AllocateZeroed(size * sizeof(T), prefault == Prefault::kYes))),
        size_(size) {}
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ~ZeroedArray() { FreeZeroed(data_, size_ * sizeof(T)); }

  size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_HUGE_PAGES_H_
