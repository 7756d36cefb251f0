// One component of R2T's truncation LP solved exactly as a maximum flow on
// the bipartite double cover (truncated_count.h explains why the optimum is
// half the flow). Dinic's algorithm with an iterative blocking-flow search,
// so deep residual paths never recurse.
#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "tests/bench/r2t/truncated_count.h"

namespace dpq::bench::r2t::internal {
namespace {

// Residual capacities below this are treated as zero. Capacities are tau
// (>= 1 in R2T) and 1, so flows are sums of few such terms.
constexpr double kEps = 1e-9;

class Dinic {
 public:
  explicit Dinic(uint32_t num_nodes) : first_(num_nodes + 1, 0) {}

  // Arcs must all be added before Finalize().
  void AddArc(uint32_t from, uint32_t to, double capacity) {
    pending_.push_back({from, to, capacity});
  }

  void Finalize() {
    const size_t n = first_.size() - 1;
    for (const Pending& p : pending_) {
      ++first_[p.from + 1];
      ++first_[p.to + 1];
    }
    for (size_t v = 0; v < n; ++v) first_[v + 1] += first_[v];
    to_.resize(2 * pending_.size());
    cap_.resize(2 * pending_.size());
    rev_.resize(2 * pending_.size());
    std::vector<uint32_t> fill(first_.begin(), first_.end() - 1);
    for (const Pending& p : pending_) {
      const uint32_t a = fill[p.from]++;
      const uint32_t b = fill[p.to]++;
      to_[a] = p.to;
      cap_[a] = p.capacity;
      rev_[a] = b;
      to_[b] = p.from;
      cap_[b] = 0;
      rev_[b] = a;
    }
    pending_.clear();
    pending_.shrink_to_fit();
  }

  double MaxFlow(uint32_t s, uint32_t t) {
    double flow = 0;
    while (BuildLevels(s, t)) {
      current_.assign(first_.begin(), first_.end() - 1);
      flow += BlockingFlow(s, t);
    }
    return flow;
  }

 private:
  struct Pending {
    uint32_t from, to;
    double capacity;
  };

  bool BuildLevels(uint32_t s, uint32_t t) {
    level_.assign(first_.size() - 1, -1);
    std::queue<uint32_t> queue;
    level_[s] = 0;
    queue.push(s);
    while (!queue.empty()) {
      const uint32_t u = queue.front();
      queue.pop();
      for (uint32_t a = first_[u]; a < first_[u + 1]; ++a) {
        if (cap_[a] > kEps && level_[to_[a]] < 0) {
          level_[to_[a]] = level_[u] + 1;
          queue.push(to_[a]);
        }
      }
    }
    return level_[t] >= 0;
  }

  // Augments along shortest paths until none is left in the level graph.
  double BlockingFlow(uint32_t s, uint32_t t) {
    double total = 0;
    std::vector<uint32_t> path;  // arcs from s
    uint32_t u = s;
    while (true) {
      if (u == t) {
        double push = cap_[path[0]];
        for (uint32_t a : path) push = std::min(push, cap_[a]);
        for (uint32_t a : path) {
          cap_[a] -= push;
          cap_[rev_[a]] += push;
        }
        total += push;
        // Restart from the tail of the first saturated arc.
        size_t keep = 0;
        while (keep < path.size() && cap_[path[keep]] > kEps) ++keep;
        path.resize(keep);
        u = path.empty() ? s : to_[path.back()];
        continue;
      }
      uint32_t& a = current_[u];
      while (a < first_[u + 1] &&
             (cap_[a] <= kEps || level_[to_[a]] != level_[u] + 1)) {
        ++a;
      }
      if (a < first_[u + 1]) {
        path.push_back(a);
        u = to_[a];
        continue;
      }
      // Dead end: retreat and skip the arc that led here.
      if (u == s) return total;
      level_[u] = -1;
      path.pop_back();
      u = path.empty() ? s : to_[path.back()];
      ++current_[u];
    }
  }

  std::vector<uint32_t> first_;  // CSR offsets, size n + 1
  std::vector<uint32_t> to_;
  std::vector<double> cap_;
  std::vector<uint32_t> rev_;
  std::vector<int32_t> level_;
  std::vector<uint32_t> current_;
  std::vector<Pending> pending_;
};

}  // namespace

double SolveWithMaxFlow(const ComponentLp& lp) {
  const uint32_t n = lp.num_nodes;
  const uint32_t s = 2 * n, t = 2 * n + 1;
  Dinic dinic(2 * n + 2);
  for (uint32_t v = 0; v < n; ++v) {
    dinic.AddArc(s, v, lp.capacity[v]);      // v_L
    dinic.AddArc(n + v, t, lp.capacity[v]);  // v_R
  }
  for (const auto& [u, v] : lp.edges) {
    dinic.AddArc(u, n + v, 1.0);
    dinic.AddArc(v, n + u, 1.0);
  }
  dinic.Finalize();
  return dinic.MaxFlow(s, t) / 2;
}

}  // namespace dpq::bench::r2t::internal
