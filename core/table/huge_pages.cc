#include "core/table/huge_pages.h"

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace dpq::core::table::internal {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{1} << 21;
// Below this, an allocation comes from malloc: a fresh mapping per small
// table costs more than it saves.
constexpr size_t kMinMappedBytes = size_t{1} << 20;

// Asks the kernel to back the whole 2 MiB pages inside [data, data + bytes)
// with huge pages: only a hint, best given before the range is touched.
void AdviseHugePages(const void* data, size_t bytes) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  if (data == nullptr || last <= first) return;
  ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace

void* AllocateZeroed(size_t bytes, bool prefault) {
  if (bytes == 0) return nullptr;
  if (bytes < kMinMappedBytes) {
    void* data = std::calloc(1, bytes);
    if (data == nullptr) std::abort();
    return data;
  }
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) std::abort();
  AdviseHugePages(data, bytes);
  // Faulted in writable now, on the allocating thread. Otherwise a lookup
  // that reads a slot first maps the shared zero page there, and the
  // first write then replaces it, which flushes the TLBs of every CPU
  // running the process - most of the cost of a fresh table.
  if (prefault && ::madvise(data, bytes, MADV_POPULATE_WRITE) != 0) {
    std::memset(data, 0, bytes);  // kernels before 5.14
  }
  return data;
}

void FreeZeroed(void* data, size_t bytes) {
  if (data == nullptr) return;
  if (bytes < kMinMappedBytes) {
    std::free(data);
  } else {
    ::munmap(data, bytes);
  }
}

}  // namespace dpq::core::table::internal
