#include "core/util/prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "core/util/parallel_for.h"

namespace dpq::core::util {
namespace {

// Bytes per piece: small enough to balance threads, large enough that a
// piece's system call is cheap beside its faults.
constexpr size_t kPieceBytes = size_t{4} << 20;

}  // namespace

void PrefaultForWriting(char* data, size_t size, int num_threads) {
  if (data == nullptr || size == 0) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const size_t pieces = (size + kPieceBytes - 1) / kPieceBytes;
  ParallelFor(pieces, num_threads, [&](size_t i, int) {
    // Whole pages (madvise takes page-aligned ranges); a partial page at
    // either end is faulted in by its first write.
    const uintptr_t from = (begin + i * kPieceBytes + page - 1) & ~(page - 1);
    const uintptr_t to =
        (begin + std::min(size, (i + 1) * kPieceBytes)) & ~(page - 1);
    if (from < to) {
      ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
    }
  });
}

}  // namespace dpq::core::util
