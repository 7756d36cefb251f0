// A maximum matching of a graph's bipartite double cover (left and right
// copies of every node, left u joined to right v for each edge uv): twice
// the plain LP relaxation of vertex cover is its size, and Koenig's
// construction on it gives a half-integral optimum (vertex_cover.cc, the
// clique LP's Nemhauser-Trotter reduction). Internal to core/measures.
#ifndef DPQ_CORE_MEASURES_DOUBLE_COVER_MATCHING_H_
#define DPQ_CORE_MEASURES_DOUBLE_COVER_MATCHING_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::measures::internal {

inline constexpr graph::NodeId kNoMate =
    std::numeric_limits<graph::NodeId>::max();

// Maximum matching of the bipartite double cover of the subgraph induced by
// the active nodes (all nodes if `active` is empty). `neighbors(u)` returns
// the neighbours of u as an ascending span. Returns mate[u] = the right
// copy matched to the left copy of u, or kNoMate. With `reached` given,
// (*reached)[u] = 1 iff the left copy of u is reachable from a free left
// copy by an alternating path (Koenig's set Z). `closed`: the active nodes
// are a union of connected components, so every neighbour of an active
// node is active and is not looked up again.
//
// Callers derive only what every maximum matching shares (its size, Z), so
// the matching found is free to depend on the method:
//  1. A greedy matching (each left copy takes its first free right
//     neighbour).
//  2. One augmenting-path search from each left copy still free, by depth
//     first with a look-ahead for a free right neighbour. A search that
//     fails leaves everything it visited dead for good: the copies it
//     reached are closed under alternating steps and hold no free right
//     copy, and a later augmenting path cannot enter them (it would then
//     lead out to a free copy), so their mates never change. So a failed
//     search's copies are never visited again and its root is never tried
//     again (Kuhn's algorithm's invariant), and when every root is done,
//     the matching is maximum and the dead left copies are exactly Z.
//     Failed searches cost O(m) in all; successful ones revisit what they
//     touched, so their total work is capped at a few times m.
//  3. Past that cap (rare), Hopcroft-Karp phases finish from the matching
//     reached: O(m sqrt(n)) in all, and Z from the last phase's search.
// The cap is search_work_per_edge edge steps per active edge end, plus
// 4096; 0 reaches step 3 after the first successful search (tests).
inline constexpr uint64_t kSearchWorkPerEdge = 4;
template <typename NeighborsFn>
std::vector<graph::NodeId> DoubleCoverMatching(
    uint32_t n, const NeighborsFn& neighbors, absl::Span<const uint8_t> active,
    std::vector<uint8_t>* reached = nullptr, bool closed = false,
    uint64_t search_work_per_edge = kSearchWorkPerEdge);

// ---------------------------------------------------------------------------
// Implementation.

template <typename NeighborsFn>
class DoubleCoverMatcher {
 public:
  using NodeId = graph::NodeId;

  DoubleCoverMatcher(uint32_t n, const NeighborsFn& neighbors,
                     absl::Span<const uint8_t> active, bool closed,
                     uint64_t search_work_per_edge)
      : n_(n),
        neighbors_(neighbors),
        active_(active),
        closed_(closed),
        search_work_per_edge_(search_work_per_edge),
        mate_left_(n, kNoMate),
        mate_right_(n, kNoMate),
        look_(n, 0),
        next_edge_(n, 0),
        via_(n, 0) {}

  std::vector<NodeId> Run(std::vector<uint8_t>* reached) {
    Greedy();
    if (!SearchFromEachFreeCopy(reached)) HopcroftKarp(reached);
    return std::move(mate_left_);
  }

 private:
  static constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
  // Added to the cap on successful searches' work, for tiny graphs.
  static constexpr uint64_t kSearchWorkSlack = 4096;

  bool is_active(NodeId v) const { return active_.empty() || active_[v] != 0; }
  // For neighbours of active nodes only.
  bool neighbor_active(NodeId v) const { return closed_ || is_active(v); }

  // Each active left copy takes its first free right neighbour. look_[u]
  // stays at the first neighbour not yet seen matched: a right copy, once
  // matched, stays matched, so no later look-ahead needs to see it again.
  void Greedy() {
    for (NodeId u = 0; u < n_; ++u) {
      if (!is_active(u)) continue;
      if (const NodeId v = FreeNeighbor(u); v != kNoMate) Match(u, v);
    }
  }

  void Match(NodeId u, NodeId v) {
    mate_left_[u] = v;
    mate_right_[v] = u;
  }

  // An active free right neighbour of u, or kNoMate; advances look_[u].
  NodeId FreeNeighbor(NodeId u) {
    const absl::Span<const NodeId> nu = neighbors_(u);
    for (uint32_t& i = look_[u]; i < nu.size(); ++i) {
      const NodeId v = nu[i];
      if (mate_right_[v] == kNoMate && neighbor_active(v)) return v;
    }
    return kNoMate;
  }

  // Step 2 of the header's comment. False if it stopped at the work cap
  // (the matching is then valid but maybe not maximum).
  bool SearchFromEachFreeCopy(std::vector<uint8_t>* reached) {
    uint64_t edges = 0;
    for (NodeId u = 0; u < n_; ++u)
      edges += is_active(u) ? neighbors_(u).size() : 0;
    // Successful searches may revisit copies: past this many edge steps
    // in them, Hopcroft-Karp takes over.
    const uint64_t cap = search_work_per_edge_ == 0
                             ? 0
                             : search_work_per_edge_ * edges + kSearchWorkSlack;
    uint64_t work = 0;
    seen_right_.assign(n_, 0);
    // Koenig's set, only if asked for (the branch and bound's bounds do
    // not).
    std::vector<uint8_t> dead_left(reached != nullptr ? n_ : 0, 0);
    for (NodeId root = 0; root < n_; ++root) {
      if (!is_active(root) || mate_left_[root] != kNoMate) continue;
      touched_right_.clear();
      touched_left_.clear();
      if (Search(root, &work)) {
        // Its copies may serve later searches: unmarked.
        for (NodeId v : touched_right_) seen_right_[v] = 0;
        if (work > cap) return false;
      } else if (reached != nullptr) {
        for (NodeId u : touched_left_) dead_left[u] = 1;
      }
    }
    if (reached != nullptr) *reached = std::move(dead_left);
    return true;
  }

  // Depth-first search for an augmenting path from the free left copy
  // `root`; augments along it if found. Copies visited stay marked in
  // seen_right_ and are listed in touched_right_ and touched_left_. Adds
  // the edge steps of a successful search to *work.
  bool Search(NodeId root, uint64_t* work) {
    uint64_t steps = 0;
    stack_.assign(1, root);
    next_edge_[root] = 0;
    touched_left_.push_back(root);
    while (!stack_.empty()) {
      const NodeId x = stack_.back();
      const uint32_t look_before = look_[x];
      const NodeId free = FreeNeighbor(x);
      steps += look_[x] - look_before;
      if (free != kNoMate) {
        Augment(free);
        *work += steps;
        return true;
      }
      const absl::Span<const NodeId> nx = neighbors_(x);
      NodeId w = kNoMate;
      while (next_edge_[x] < nx.size()) {
        const NodeId v = nx[next_edge_[x]++];
        ++steps;
        if (seen_right_[v] || !neighbor_active(v)) continue;
        seen_right_[v] = 1;
        touched_right_.push_back(v);
        via_[x] = v;
        w = mate_right_[v];  // matched: the look-ahead found none free
        break;
      }
      if (w == kNoMate) {
        stack_.pop_back();
        continue;
      }
      next_edge_[w] = 0;
      touched_left_.push_back(w);
      stack_.push_back(w);
    }
    return false;
  }

  // The top of the stack takes the free right copy `free`; every copy below
  // it takes the right copy it went down through.
  void Augment(NodeId free) {
    Match(stack_.back(), free);
    for (size_t i = stack_.size() - 1; i-- > 0;) {
      Match(stack_[i], via_[stack_[i]]);
    }
  }

  // Step 3: Hopcroft-Karp phases from the current matching.
  void HopcroftKarp(std::vector<uint8_t>* reached) {
    std::vector<uint32_t> dist(n_);
    std::vector<NodeId> queue;
    queue.reserve(n_);
    while (true) {
      // Layer the left copies by BFS from the free ones, stopping below
      // the first layer with a free right copy: the phase augments along
      // shortest paths only, and no deeper node is on one.
      queue.clear();
      for (NodeId u = 0; u < n_; ++u) {
        if (is_active(u) && mate_left_[u] == kNoMate) {
          dist[u] = 0;
          queue.push_back(u);
        } else {
          dist[u] = kUnreached;
        }
      }
      uint32_t free_layer = kUnreached;
      for (size_t head = 0; head < queue.size(); ++head) {
        const NodeId u = queue[head];
        if (dist[u] > free_layer) break;
        for (NodeId v : neighbors_(u)) {
          if (!neighbor_active(v)) continue;
          const NodeId w = mate_right_[v];
          if (w == kNoMate) {
            free_layer = dist[u];
          } else if (dist[w] == kUnreached) {
            dist[w] = dist[u] + 1;
            queue.push_back(w);
          }
        }
      }
      if (free_layer == kUnreached) {
        // No augmenting path: the search ran to the end, over Z.
        if (reached != nullptr) {
          reached->assign(n_, 0);
          for (NodeId u : queue) (*reached)[u] = 1;
        }
        return;
      }
      AugmentAlongLayers(dist);
    }
  }

  // Vertex-disjoint shortest augmenting paths by DFS along the layers.
  // Iterative, since paths can be as long as n.
  void AugmentAlongLayers(std::vector<uint32_t>& dist) {
    std::fill(next_edge_.begin(), next_edge_.end(), 0);
    for (NodeId root = 0; root < n_; ++root) {
      if (!is_active(root) || mate_left_[root] != kNoMate || dist[root] != 0) {
        continue;
      }
      stack_.assign(1, root);
      while (!stack_.empty()) {
        const NodeId u = stack_.back();
        const absl::Span<const NodeId> nu = neighbors_(u);
        if (next_edge_[u] == nu.size()) {
          dist[u] = kUnreached;  // dead end for the rest of this phase
          stack_.pop_back();
          continue;
        }
        const NodeId v = nu[next_edge_[u]++];
        if (!neighbor_active(v)) continue;
        const NodeId w = mate_right_[v];
        if (w == kNoMate) {
          // Every stacked copy went down the edge just before its
          // current next_edge_ position.
          for (NodeId x : stack_) via_[x] = neighbors_(x)[next_edge_[x] - 1];
          Augment(v);
          stack_.clear();
        } else if (dist[w] != kUnreached && dist[w] == dist[u] + 1) {
          stack_.push_back(w);
        }
      }
    }
  }

  const uint32_t n_;
  const NeighborsFn& neighbors_;
  const absl::Span<const uint8_t> active_;
  const bool closed_;
  const uint64_t search_work_per_edge_;
  std::vector<NodeId> mate_left_;
  std::vector<NodeId> mate_right_;
  std::vector<uint32_t> look_;       // look-ahead position per left copy
  std::vector<uint32_t> next_edge_;  // DFS position per left copy
  std::vector<NodeId> via_;          // right copy each stacked copy went to
  std::vector<uint8_t> seen_right_;
  std::vector<NodeId> stack_;
  std::vector<NodeId> touched_right_;
  std::vector<NodeId> touched_left_;
};

template <typename NeighborsFn>
std::vector<graph::NodeId> DoubleCoverMatching(
    uint32_t n, const NeighborsFn& neighbors, absl::Span<const uint8_t> active,
    std::vector<uint8_t>* reached, bool closed, uint64_t search_work_per_edge) {
  return DoubleCoverMatcher<NeighborsFn>(n, neighbors, active, closed,
                                         search_work_per_edge)
      .Run(reached);
}

}  // namespace dpq::core::measures::internal

#endif  // DPQ_CORE_MEASURES_DOUBLE_COVER_MATCHING_H_
