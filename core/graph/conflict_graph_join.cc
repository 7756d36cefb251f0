// Enumerating the violating pairs of one planned DC, block by block, on
// several threads (see conflict_graph_builder.h for the methods).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/graph/conflict_graph_internal.h"

namespace dpq::core::graph::internal {
namespace {

// Emitted pairs between two updates of the shared counter: rare enough to
// cost nothing, frequent enough to stop within ~16k pairs per worker.
constexpr uint64_t kFlushEvery = uint64_t{1} << 14;
// Pairs examined (estimated) below which work is not split further.
constexpr double kMinTaskCost = 1 << 15;
// t1 rows between two deadline checks.
constexpr uint64_t kTicksPerDeadlineCheck = 256;

// State shared by the workers of one EnumerateDc call.
struct Shared {
  explicit Shared(const EnumerateLimits& l) : limits(l) {}

  void Stop(EnumerateOutcome why) {
    int expected = static_cast<int>(EnumerateOutcome::kDone);
    outcome.compare_exchange_strong(expected, static_cast<int>(why));
    stop.store(true, std::memory_order_relaxed);
  }

  const EnumerateLimits& limits;
  std::atomic<uint64_t> emitted{0};
  std::atomic<bool> stop{false};
  std::atomic<int> outcome{static_cast<int>(EnumerateOutcome::kDone)};
};

// A worker's output buffer plus its share of the limit bookkeeping.
class Emitter {
 public:
  Emitter(Shared* shared, std::vector<uint64_t>* out)
      : shared_(shared), out_(out) {}
  ~Emitter() { Flush(); }

  bool stopped() const { return shared_->stop.load(std::memory_order_relaxed); }

  void Emit(uint32_t u, uint32_t v) {
    if (u > v) std::swap(u, v);
    out_->push_back(uint64_t{u} << 32 | v);
    if (++pending_ == kFlushEvery) Flush();
  }

  // Once per t1 row.
  void Tick() {
    if (++ticks_ % kTicksPerDeadlineCheck == 0) CheckDeadline();
  }

  void Flush() {
    if (pending_ == 0) return;
    const uint64_t total =
        shared_->emitted.fetch_add(pending_, std::memory_order_relaxed) +
        pending_;
    pending_ = 0;
    if (total > shared_->limits.max_emitted) {
      shared_->Stop(EnumerateOutcome::kTooManyEdges);
    }
    CheckDeadline();
  }

 private:
  void CheckDeadline() {
    if (shared_->limits.deadline != absl::InfiniteFuture() &&
        absl::Now() > shared_->limits.deadline) {
      shared_->Stop(EnumerateOutcome::kDeadlineExceeded);
    }
  }

  Shared* shared_;
  std::vector<uint64_t>* out_;
  uint64_t pending_ = 0;
  uint64_t ticks_ = 0;
};

// A bit array over t2 ranks with one summary bit per 64-bit word, so that
// scanning a sparse prefix skips empty words 64 at a time (the role of the
// IEJoin paper's bitmap index).
class PrefixBitset {
 public:
  void Reset(size_t size) {
    words_.assign((size + 63) / 64, 0);
    summary_.assign((words_.size() + 63) / 64, 0);
  }

  void Set(uint32_t i) {
    words_[i >> 6] |= uint64_t{1} << (i & 63);
    summary_[i >> 12] |= uint64_t{1} << ((i >> 6) & 63);
  }

  // Calls f(i) for every set i < end, ascending.
  template <typename F>
  void ForEachBelow(uint32_t end, F&& f) const {
    if (end == 0) return;
    const size_t last_word = (end - 1) >> 6;
    for (size_t s = 0; s <= (last_word >> 6); ++s) {
      for (uint64_t sm = summary_[s]; sm != 0; sm &= sm - 1) {
        const size_t w = (s << 6) + std::countr_zero(sm);
        if (w > last_word) return;
        uint64_t bits = words_[w];
        if (w == last_word && (end & 63) != 0) {
          bits &= (uint64_t{1} << (end & 63)) - 1;
        }
        for (; bits != 0; bits &= bits - 1) {
          f(static_cast<uint32_t>((w << 6) + std::countr_zero(bits)));
        }
      }
    }
  }

 private:
  std::vector<uint64_t> words_;
  std::vector<uint64_t> summary_;
};

// First position p in [begin, end) of `rows` (sorted by key) with
// key[rows[p]] >= x (strict) or > x (!strict): the qualifying prefix ends
// there for a kLess (strict) or kLessEq key.
size_t PrefixEnd(const uint32_t* rows, size_t begin, size_t end,
                 const int64_t* key, int64_t x, bool strict) {
  if (strict) {
    return std::partition_point(rows + begin, rows + end,
                                [&](uint32_t r) { return key[r] < x; }) -
           rows;
  }
  return std::partition_point(rows + begin, rows + end,
                              [&](uint32_t r) { return key[r] <= x; }) -
         rows;
}

class BlockEnumerator {
 public:
  BlockEnumerator(const DcPlan& plan, Emitter* emitter)
      : plan_(plan),
        em_(*emitter),
        l_rows_(plan.l_rows.data()),
        r_rows_(plan.t2_rows().data()),
        r_off_(plan.t2_offsets()) {}

  // t1 positions [pb, pe) of block b.
  void Run(size_t b, size_t pb, size_t pe) {
    const size_t rb = r_off_[b], re = r_off_[b + 1];
    switch (plan_.method) {
      case Method::kAll:
        if (plan_.symmetric) {
          AllSymmetric(pb, pe, re);
        } else {
          All(pb, pe, rb, re);
        }
        break;
      case Method::kGroup:
        if (plan_.symmetric) {
          GroupSymmetric(pb, pe, re);
        } else {
          Group(pb, pe, rb, re);
        }
        break;
      case Method::kSort:
        Sort(pb, pe, rb, re);
        break;
      case Method::kIeJoin:
        IeJoin(pb, pe, rb, re);
        break;
    }
  }

 private:
  bool Checks(uint32_t l, uint32_t r) const {
    for (const JoinKey& k : plan_.checks) {
      if (!k.Holds(l, r)) return false;
    }
    return true;
  }

  // Emits (l, r) for r in r_rows_[begin, end) where the checks pass.
  void EmitRange(uint32_t l, size_t begin, size_t end) {
    for (size_t j = begin; j < end; ++j) {
      const uint32_t r = r_rows_[j];
      if (r != l && Checks(l, r)) em_.Emit(l, r);
    }
  }

  // Symmetric: the sides coincide; pairs (i, j), i < j, once each.
  void AllSymmetric(size_t pb, size_t pe, size_t be) {
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      for (size_t j = i + 1; j < be; ++j) em_.Emit(l_rows_[i], l_rows_[j]);
    }
  }

  void All(size_t pb, size_t pe, size_t rb, size_t re) {
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      EmitRange(l_rows_[i], rb, re);
    }
  }

  // Block sorted by the `!=` key: a row pairs with every row after its run
  // of equal keys (for an FD: the rows of the block with another value).
  void GroupSymmetric(size_t pb, size_t pe, size_t be) {
    if (!plan_.l_run_starts.empty()) return RunsSymmetric(pb, pe, be);
    const int64_t* key = plan_.driver1.a;
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      const uint32_t l = l_rows_[i];
      const size_t run_end = PrefixEnd(l_rows_, i + 1, be, key, key[l],
                                       /*strict=*/false);
      EmitRange(l, run_end, be);
    }
  }

  // Planned on codes: the runs are given, no key is read. Every pair of
  // rows in different runs violates (the plan has no further checks).
  void RunsSymmetric(size_t pb, size_t pe, size_t be) {
    const std::vector<uint32_t>& starts = plan_.l_run_starts;
    size_t run =
        std::upper_bound(starts.begin(), starts.end(), pb) - starts.begin();
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      if (i == starts[run]) ++run;
      const uint32_t l = l_rows_[i];
      for (size_t j = starts[run]; j < be; ++j) em_.Emit(l, l_rows_[j]);
    }
  }

  void Group(size_t pb, size_t pe, size_t rb, size_t re) {
    const JoinKey& d = plan_.driver1;
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      const uint32_t l = l_rows_[i];
      const size_t lo = PrefixEnd(r_rows_, rb, re, d.b, d.a[l], true);
      const size_t hi = PrefixEnd(r_rows_, lo, re, d.b, d.a[l], false);
      EmitRange(l, rb, lo);
      EmitRange(l, hi, re);
    }
  }

  void Sort(size_t pb, size_t pe, size_t rb, size_t re) {
    const JoinKey& d = plan_.driver1;
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      const uint32_t l = l_rows_[i];
      EmitRange(l, rb, PrefixEnd(r_rows_, rb, re, d.b, d.a[l], d.strict()));
    }
  }

  // t1 rows ascending by driver1's key; sweeping them, the t2 rows that
  // satisfy driver1 grow as a prefix of t2 sorted by driver1 and are marked
  // at their driver2 rank; the marked ranks below the t1 row's driver2
  // bound are exactly the t2 rows satisfying both.
  void IeJoin(size_t pb, size_t pe, size_t rb, size_t re) {
    const JoinKey& d1 = plan_.driver1;
    const JoinKey& d2 = plan_.driver2;
    const uint32_t* by_rank = plan_.r_by_rank2.data() + rb;
    bitset_.Reset(re - rb);
    size_t inserted = rb;
    for (size_t i = pb; i < pe && !em_.stopped(); ++i) {
      em_.Tick();
      const uint32_t l = l_rows_[i];
      const int64_t a1 = d1.a[l];
      for (; inserted < re; ++inserted) {
        const int64_t k = d1.b[r_rows_[inserted]];
        if (d1.strict() ? !(k < a1) : !(k <= a1)) break;
        bitset_.Set(plan_.r_rank2[inserted]);
      }
      const uint32_t bound = static_cast<uint32_t>(
          PrefixEnd(by_rank, 0, re - rb, d2.b, d2.a[l], d2.strict()));
      bitset_.ForEachBelow(bound, [&](uint32_t rank) {
        const uint32_t r = by_rank[rank];
        if (r != l && Checks(l, r)) em_.Emit(l, r);
      });
    }
  }

  const DcPlan& plan_;
  Emitter& em_;
  const uint32_t* l_rows_;
  const uint32_t* r_rows_;
  const std::vector<uint32_t>& r_off_;
  PrefixBitset bitset_;
};

// Cuts the t1 positions into tasks of roughly equal estimated cost (pairs
// examined): large blocks are split, runs of small blocks grouped.
std::vector<std::pair<uint32_t, uint32_t>> MakeTasks(const DcPlan& plan,
                                                     int num_threads) {
  const std::vector<uint32_t>& l_off = plan.l_offsets;
  const std::vector<uint32_t>& r_off = plan.t2_offsets();
  const size_t num_blocks = plan.num_blocks();
  auto row_cost = [&](size_t b) {
    const double r = r_off[b + 1] - r_off[b];
    return (plan.symmetric ? r / 2 : r) + 1;
  };
  double total = 0;
  for (size_t b = 0; b < num_blocks; ++b) {
    total += (l_off[b + 1] - l_off[b]) * row_cost(b);
  }
  // At least kMinTaskCost per task: a tiny DC runs as one task on the
  // calling thread instead of paying for thread start-up.
  const double target =
      std::max(total / (16.0 * std::max(1, num_threads)), kMinTaskCost);
  std::vector<std::pair<uint32_t, uint32_t>> tasks;
  uint32_t begin = 0;
  double acc = 0;
  for (size_t b = 0; b < num_blocks; ++b) {
    const double w = row_cost(b);
    for (uint32_t p = l_off[b]; p < l_off[b + 1];) {
      const double fit = std::max(1.0, std::ceil((target - acc) / w));
      const uint32_t take =
          static_cast<uint32_t>(std::min<double>(l_off[b + 1] - p, fit));
      p += take;
      acc += take * w;
      if (acc >= target) {
        tasks.emplace_back(begin, p);
        begin = p;
        acc = 0;
      }
    }
  }
  if (begin < plan.l_rows.size()) {
    tasks.emplace_back(begin, static_cast<uint32_t>(plan.l_rows.size()));
  }
  return tasks;
}

}  // namespace

EnumerateOutcome EnumerateDc(const DcPlan& plan, int num_threads,
                             const EnumerateLimits& limits,
                             std::vector<std::vector<uint64_t>>* per_worker) {
  const std::vector<std::pair<uint32_t, uint32_t>> tasks =
      MakeTasks(plan, num_threads);
  per_worker->assign(
      std::max<size_t>(
          1, std::min<size_t>(tasks.size(), std::max(1, num_threads))),
      {});
  if (plan.exact_pairs.has_value()) {
    // Room for a fair share and then some (dynamic scheduling evens the
    // workers out only roughly; a worker beyond it grows its buffer): the
    // buffers are filled without copying as they grow.
    const uint64_t all =
        std::min<uint64_t>(*plan.exact_pairs, limits.max_emitted) + 1;
    const uint64_t room = std::min<uint64_t>(
        all, all / per_worker->size() + all / 4 + kFlushEvery);
    for (std::vector<uint64_t>& w : *per_worker) w.reserve(room);
  }
  Shared shared(limits);
  const std::vector<uint32_t>& l_off = plan.l_offsets;
  ParallelFor(tasks.size(), num_threads, [&](size_t t, int worker) {
    if (shared.stop.load(std::memory_order_relaxed)) return;
    Emitter emitter(&shared, &(*per_worker)[worker]);
    BlockEnumerator blocks(plan, &emitter);
    auto [p, end] = tasks[t];
    size_t b =
        std::upper_bound(l_off.begin(), l_off.end(), p) - l_off.begin() - 1;
    while (p < end && !emitter.stopped()) {
      const uint32_t piece_end = std::min(end, l_off[b + 1]);
      blocks.Run(b, p, piece_end);
      p = piece_end;
      ++b;
    }
  });
  return static_cast<EnumerateOutcome>(shared.outcome.load());
}

}  // namespace dpq::core::graph::internal
