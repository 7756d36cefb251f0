// A minimal parallel loop over std::thread, shared by the CSV reader and the
// conflict-graph builder (docs/performance.md, "Loading and blocking").
#ifndef DPQ_CORE_UTIL_PARALLEL_FOR_H_
#define DPQ_CORE_UTIL_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace dpq::core::util {

// Calls f(item, worker) for item in [0, num_items) on min(num_threads,
// num_items) workers (the calling thread is worker 0) that take items in
// increasing order from a shared counter, so uneven items balance out.
// worker < max(1, num_threads). Runs inline when num_threads <= 1.
template <typename F>
void ParallelFor(size_t num_items, int num_threads, F&& f) {
  const size_t workers = std::min<size_t>(
      num_items, static_cast<size_t>(std::max(1, num_threads)));
  if (workers <= 1) {
    for (size_t i = 0; i < num_items; ++i) f(i, 0);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&](int worker) {
    for (;;) {
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= num_items) return;
      f(i, worker);
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) {
    threads.emplace_back(work, static_cast<int>(w));
  }
  work(0);
  for (std::thread& t : threads) t.join();
}

// 0 -> the hardware's thread count (at least 1); otherwise `requested`.
inline int ResolveThreads(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_PARALLEL_FOR_H_
