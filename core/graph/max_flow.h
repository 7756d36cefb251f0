// Maximum s-t flow by Dinic's algorithm, the one flow solver of dpq: the
// flow Lipschitz extensions of I_MI and I_P (core/private/flow_extensions.h)
// and R2T's truncated count (bench/r2t) run on it.
//
// Why Dinic: the networks are bipartite double covers of conflict graphs
// (with twin classes contracted, so the middle arcs are |A| * |B| wide),
// short and layered, where Dinic needs few phases, and
// capacities only grow between the evaluations of a sweep (a larger degree
// bound theta), so the flow of one evaluation is a feasible start for the
// next (IncreaseCapacity, then MaxFlow again).
#ifndef DPQ_CORE_GRAPH_MAX_FLOW_H_
#define DPQ_CORE_GRAPH_MAX_FLOW_H_

#include <cstdint>
#include <vector>

#include "core/util/stop.h"

namespace dpq::core::graph {

// Capacity is int64_t (exact) or double (residuals at or below 1e-9 count
// as zero, for R2T's non-integer thresholds).
// Memory per arc: 16 bytes from AddArc to Finalize (given back after a
// large network), then two residual arcs of 8 + sizeof(Capacity) bytes and
// a 4-byte position: 52 bytes at Finalize's peak for int64_t.
template <typename Capacity>
class MaxFlow {
 public:
  explicit MaxFlow(uint32_t num_nodes = 0) { Reset(num_nodes); }

  // Forgets every arc and the flow; keeps the allocated memory, so one
  // solver can serve many small networks.
  void Reset(uint32_t num_nodes);

  // Adds the arc from -> to (nodes < num_nodes) with `capacity` >= 0 and
  // returns its id (ids count up from 0). Only before Finalize().
  uint32_t AddArc(uint32_t from, uint32_t to, Capacity capacity);

  // Builds the residual network. Call once, after the last AddArc.
  void Finalize();

  // Adds `delta` >= 0 to the capacity of arc `id`, keeping the flow found
  // so far (still feasible: capacities only grew).
  void IncreaseCapacity(uint32_t id, Capacity delta);

  // Augments the current flow to a maximum s-t flow and returns its value
  // (the total pushed since Finalize()). O(V^2 E) in general, O(E sqrt(V))
  // on unit networks; each call after IncreaseCapacity does only the
  // augmentation that is still missing. `stop` is polled before every
  // phase (one BFS and one blocking flow): once it says so, Run returns the
  // flow found so far, which is then not maximum (the caller checks `stop`
  // again and discards it).
  Capacity Run(uint32_t s, uint32_t t, const util::StopFn& stop = {});

  // Flow currently on arc `id`.
  Capacity Flow(uint32_t id) const;

 private:
  bool BuildLevels(uint32_t s, uint32_t t);
  Capacity BlockingFlow(uint32_t s, uint32_t t);
  bool Positive(Capacity c) const;

  struct Pending {
    uint32_t from, to;
    Capacity capacity;
  };

  uint32_t num_nodes_ = 0;
  std::vector<Pending> pending_;
  std::vector<uint32_t> first_;     // CSR offsets, num_nodes + 1
  std::vector<uint32_t> to_;        // per residual arc
  std::vector<Capacity> cap_;       // residual capacity per residual arc
  std::vector<uint32_t> rev_;       // the paired residual arc
  std::vector<uint32_t> position_;  // arc id -> its forward residual arc
  std::vector<int32_t> level_;
  std::vector<uint32_t> current_;
  std::vector<uint32_t> path_;
  Capacity flow_{};
};

extern template class MaxFlow<int64_t>;
extern template class MaxFlow<double>;

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_MAX_FLOW_H_
