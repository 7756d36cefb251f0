#include "core/graph/max_flow.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace dpq::core::graph {
namespace {

// Residual capacities of double networks at or below this are empty: the
// capacities there are sums of few terms >= 1 (R2T's tau and unit arcs).
constexpr double kDoubleEpsilon = 1e-9;

// Pending arcs whose memory Finalize keeps for the next network.
constexpr size_t kKeptPendingArcs = 1 << 20;

}  // namespace

template <typename Capacity>
void MaxFlow<Capacity>::Reset(uint32_t num_nodes) {
  num_nodes_ = num_nodes;
  pending_.clear();
  first_.assign(num_nodes + 1, 0);
  to_.clear();
  cap_.clear();
  rev_.clear();
  position_.clear();
  flow_ = Capacity{};
}

template <typename Capacity>
uint32_t MaxFlow<Capacity>::AddArc(uint32_t from, uint32_t to,
                                   Capacity capacity) {
  pending_.push_back({from, to, capacity});
  return static_cast<uint32_t>(pending_.size() - 1);
}

template <typename Capacity>
void MaxFlow<Capacity>::Finalize() {
  for (const Pending& p : pending_) {
    ++first_[p.from + 1];
    ++first_[p.to + 1];
  }
  for (uint32_t v = 0; v < num_nodes_; ++v) first_[v + 1] += first_[v];
  const size_t residual_arcs = 2 * pending_.size();
  to_.resize(residual_arcs);
  cap_.resize(residual_arcs);
  rev_.resize(residual_arcs);
  position_.resize(pending_.size());
  current_.assign(first_.begin(), first_.end() - 1);  // fill cursor
  for (size_t id = 0; id < pending_.size(); ++id) {
    const Pending& p = pending_[id];
    const uint32_t a = current_[p.from]++;
    const uint32_t b = current_[p.to]++;
    to_[a] = p.to;
    cap_[a] = p.capacity;
    rev_[a] = b;
    to_[b] = p.from;
    cap_[b] = Capacity{};
    rev_[b] = a;
    position_[id] = a;
  }
  pending_.clear();
  // A large network's arc list is returned (a solver reused for small
  // networks keeps its memory).
  if (pending_.capacity() > kKeptPendingArcs) pending_.shrink_to_fit();
  level_.resize(num_nodes_);
}

template <typename Capacity>
void MaxFlow<Capacity>::IncreaseCapacity(uint32_t id, Capacity delta) {
  cap_[position_[id]] += delta;
}

template <typename Capacity>
Capacity MaxFlow<Capacity>::Flow(uint32_t id) const {
  // The paired arc starts empty and gains exactly what the arc carries.
  return cap_[rev_[position_[id]]];
}

template <typename Capacity>
bool MaxFlow<Capacity>::Positive(Capacity c) const {
  if constexpr (std::is_floating_point_v<Capacity>) {
    return c > kDoubleEpsilon;
  } else {
    return c > 0;
  }
}

template <typename Capacity>
Capacity MaxFlow<Capacity>::Run(uint32_t s, uint32_t t,
                                const util::StopFn& stop) {
  while (!util::StopRequested(stop) && BuildLevels(s, t)) {
    current_.assign(first_.begin(), first_.end() - 1);
    flow_ += BlockingFlow(s, t);
  }
  return flow_;
}

// Breadth-first levels from s over arcs with residual capacity; true iff t
// is reachable. path_ doubles as the queue. Stops at t's level: a node at
// that level or beyond is on no shortest path to t, so leaving it
// unlevelled changes no blocking flow (and saves most of a BFS over a
// large network once t is near).
template <typename Capacity>
bool MaxFlow<Capacity>::BuildLevels(uint32_t s, uint32_t t) {
  std::fill(level_.begin(), level_.end(), -1);
  path_.clear();
  level_[s] = 0;
  path_.push_back(s);
  for (size_t head = 0; head < path_.size(); ++head) {
    const uint32_t u = path_[head];
    if (level_[t] >= 0 && level_[u] >= level_[t]) break;
    for (uint32_t a = first_[u]; a < first_[u + 1]; ++a) {
      if (Positive(cap_[a]) && level_[to_[a]] < 0) {
        level_[to_[a]] = level_[u] + 1;
        path_.push_back(to_[a]);
      }
    }
  }
  return level_[t] >= 0;
}

// Augments along shortest paths of the level graph until none is left.
// Iterative (deep residual paths never recurse): path_ holds the arcs from
// s to the current node.
template <typename Capacity>
Capacity MaxFlow<Capacity>::BlockingFlow(uint32_t s, uint32_t t) {
  Capacity total{};
  path_.clear();
  uint32_t u = s;
  while (true) {
    if (u == t) {
      Capacity push = cap_[path_[0]];
      for (uint32_t a : path_) push = std::min(push, cap_[a]);
      for (uint32_t a : path_) {
        cap_[a] -= push;
        cap_[rev_[a]] += push;
      }
      total += push;
      // Restart from the tail of the first saturated arc.
      size_t keep = 0;
      while (keep < path_.size() && Positive(cap_[path_[keep]])) ++keep;
      path_.resize(keep);
      u = path_.empty() ? s : to_[path_.back()];
      continue;
    }
    uint32_t& a = current_[u];
    while (a < first_[u + 1] &&
           (!Positive(cap_[a]) || level_[to_[a]] != level_[u] + 1)) {
      ++a;
    }
    if (a < first_[u + 1]) {
      path_.push_back(a);
      u = to_[a];
      continue;
    }
    // Dead end: retreat and skip the arc that led here.
    if (u == s) return total;
    level_[u] = -1;
    path_.pop_back();
    u = path_.empty() ? s : to_[path_.back()];
    ++current_[u];
  }
}

template class MaxFlow<int64_t>;
template class MaxFlow<double>;

}  // namespace dpq::core::graph
