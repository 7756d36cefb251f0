#include "core/util/prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "core/util/parallel_for.h"

namespace dpq::core::util {
namespace {

// Bytes per piece (a multiple of the page size): small enough to balance
// threads, large enough that a piece's system call is cheap beside its
// faults.
constexpr size_t kPieceBytes = size_t{4} << 20;

}  // namespace

void PrefaultForWriting(char* data, size_t size, int num_threads) {
#if defined(MADV_POPULATE_WRITE)
  if (data == nullptr || size == 0) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  // Whole pages (madvise takes page-aligned ranges): the pieces split
  // [first, last) at page boundaries, and a partial page at either end is
  // faulted in by its first write.
  const uintptr_t first =
      (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
  const uintptr_t last =
      (reinterpret_cast<uintptr_t>(data) + size) & ~(page - 1);
  if (first >= last) return;
  const size_t pieces = (last - first + kPieceBytes - 1) / kPieceBytes;
  ParallelFor(pieces, num_threads, [&](size_t i, int) {
    const uintptr_t from = first + i * kPieceBytes;
    const uintptr_t to = std::min<uintptr_t>(last, from + kPieceBytes);
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
  });
#else
  // Headers older than Linux 5.14: the writes fault the pages in.
  (void)data;
  (void)size;
  (void)num_threads;
#endif
}

}  // namespace dpq::core::util
