// Reusing freed memory across the phases of loading and graph building
// (docs/performance.md "Loading and blocking"). glibc serves every block
// above 32 MiB with its own mmap and unmaps it on free, so each phase's
// fresh buffers of hundreds of MB are faulted in again, 4 KiB at a time
// (at 10M rows about half a million page faults, over 1 s of system time,
// and TLB shootdowns on every unmap). Served from malloc's heaps instead,
// freed blocks are reused by the next phase without faults. Not every
// block can be: one above 64 MiB asked for by a thread other than the main
// one still gets its own mmap (a thread's arena cannot hold it).
#ifndef DPQ_CORE_UTIL_MEMORY_REUSE_H_
#define DPQ_CORE_UTIL_MEMORY_REUSE_H_

namespace dpq::core::util {

// Serves allocations from malloc's heaps where it can and keeps freed
// memory in the process (mallopt M_MMAP_MAX = 0, a trim threshold of
// 1 GiB). Call first thing in main, before threads start. Without glibc a
// no-op; under AddressSanitizer, whose allocator takes mallopt as a no-op,
// nothing changes either.
void KeepFreedMemoryForReuse();

// Returns the free memory kept by KeepFreedMemoryForReuse to the system
// (malloc_trim: it walks each arena under its lock, milliseconds for a
// heap of GBs): a long-running process calls it after a large build.
void ReturnFreedMemory();

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_MEMORY_REUSE_H_
