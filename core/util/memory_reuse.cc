#include "core/util/memory_reuse.h"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dpq::core::util {

void KeepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_MAX, 0);
  // The top of the heap goes back to the system only beyond 1 GiB free, so
  // that one phase's freed buffers are still there for the next.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

void ReturnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace dpq::core::util
