// Faulting in a large buffer's pages before it is written (docs/
// performance.md, "Conflict detection against DuckDB"): the kernel zeroes
// each fresh page at its first touch, one 4 KiB fault at a time, and for a
// buffer of tens of MB that is most of the cost of filling it. Taken ahead
// on several threads, those faults leave the copy that fills the buffer
// fast (server-path imports: server/registry/synced_file.cc).
#ifndef DPQ_CORE_UTIL_PREFAULT_H_
#define DPQ_CORE_UTIL_PREFAULT_H_

#include <cstddef>

namespace dpq::core::util {

// Faults in the whole pages of [data, data + size) for writing, split in
// pieces over `num_threads` threads; their content does not change (pages
// already there stay as they are, new ones are zero). For memory the
// caller owns, e.g. a string's reserved capacity. Only a hint: on a kernel
// (or headers) without MADV_POPULATE_WRITE (before 5.14) it does nothing,
// and pages are faulted in when written, as without it.
void PrefaultForWriting(char* data, size_t size, int num_threads);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_PREFAULT_H_
