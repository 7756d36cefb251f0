// One component of R2T's truncation LP solved exactly as a maximum flow on
// the bipartite double cover (truncated_count.h explains why the optimum is
// half the flow), with core's Dinic solver (core/graph/max_flow.h).
#include <cstdint>

#include "bench/r2t/truncated_count.h"
#include "core/graph/max_flow.h"

namespace dpq::bench::r2t::internal {

double SolveWithMaxFlow(const ComponentLp& lp) {
  const uint32_t n = lp.num_nodes;
  const uint32_t s = 2 * n, t = 2 * n + 1;
  core::graph::MaxFlow<double> dinic(2 * n + 2);
  for (uint32_t v = 0; v < n; ++v) {
    dinic.AddArc(s, v, lp.capacity[v]);      // v_L
    dinic.AddArc(n + v, t, lp.capacity[v]);  // v_R
  }
  for (const auto& [u, v] : lp.edges) {
    dinic.AddArc(u, n + v, 1.0);
    dinic.AddArc(v, n + u, 1.0);
  }
  dinic.Finalize();
  return dinic.Run(s, t) / 2;
}

}  // namespace dpq::bench::r2t::internal
