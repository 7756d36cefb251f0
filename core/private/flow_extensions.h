// The flow Lipschitz extensions of I_MI and I_P (node-DP), the statistics
// behind the `gem` method (docs/core.md "I_MI and I_P: gem";
// Kasiviswanathan, Nissim, Raskhodnikova, Smith, TCC 2013).
//
// For a degree bound theta >= 1 and the bipartite double cover of G (a left
// copy v_L and a right copy v_R of every node, arcs u_L -> v_R and
// v_L -> u_R of capacity 1 for every edge {u, v}):
//
//  I_MI: network s -> v_L (capacity theta), v_R -> t (capacity theta);
//        f_theta(G) = floor(maxflow / 2).
//  I_P:  network s -> v_L (capacity theta), v_R -> t (capacity 1);
//        f_theta(G) = maxflow.
//
// Properties (each proved here, each checked by brute force in
// flow_extensions_test.cc on every graph up to 7 nodes):
//  (a) f_theta(G) <= f(G): the middle arcs carry at most 2|E| units (I_MI),
//      and only the |V>0| right copies with an edge reach t (I_P).
//  (b) f_theta(G) = f(G) when every degree is <= theta: one unit on both
//      arcs of every edge (I_MI) is feasible since a node of degree d sends
//      and receives d <= theta; for I_P, route one unit into each
//      non-isolated v_R from any neighbour u_L, which then sends at most
//      deg(u) <= theta.
//  (c) f_theta(G) >= f(pi_theta(G)) for the paper's edge-addition projection
//      (any subgraph of max degree theta): by (b) on the subgraph, whose
//      network is a sub-network of G's (flows are monotone in the arcs).
//  (d) Node sensitivity: adding or removing one node with its edges changes
//      maxflow by at most theta + theta (I_MI: every unit through the node
//      passes s -> v_L or v_R -> t; conversely an old cut plus those two
//      arcs cuts the new network) and by at most theta + 1 (I_P). So
//      |f_theta(G) - f_theta(G')| <= theta for I_MI (floor(x / 2) of a
//      2 theta-Lipschitz integer x moves by at most theta, theta being an
//      integer) and <= theta + 1 for I_P. Both are monotone in the graph
//      (adding a node keeps every old flow feasible).
//  (e) f_theta is non-decreasing in theta (capacities only grow).
#ifndef DPQ_CORE_PRIVATE_FLOW_EXTENSIONS_H_
#define DPQ_CORE_PRIVATE_FLOW_EXTENSIONS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/util/stop.h"

namespace dpq::core::private_measures {

// f_theta(G) for every theta of `thetas` (each >= 1, strictly ascending),
// for I_MI or I_P. kInvalidArgument otherwise. Deterministic (a function of
// G and theta only), memoized on the graph, and computed once however many
// callers ask at once: a caller needing a theta that another's sweep is
// computing waits for that sweep (polling its own `stop`) instead of
// running it again, so eight identical releases cost one sweep.
// Method: per connected component, thetas at or above the component's
// largest degree are exact by (b) and free; the others share one Dinic
// network whose capacities grow with theta (each flow is the next one's
// start). That network has the component's twins (false twins: nodes with
// equal neighbour lists; true twins: equal closed neighbourhoods,
// graph/twin_classes.h) contracted to one weighted node per class, which
// keeps its maximum flow (proof at ComponentSweep::Sweep) and shrinks FD
// conflict graphs many times over: rows of one FD block with equal
// right-hand sides are false twins, rows of a block whose right-hand sides
// all differ are true twins. O(m + n log n) to find the classes
// plus Dinic's O(m' sqrt(n')) per flow on the contracted network.
// `stop` is polled per component and per Dinic phase: once it says so the
// result is util::StoppedError() and nothing is memoized.
absl::StatusOr<std::vector<int64_t>> FlowExtensionValues(
    const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> thetas, const util::StopFn& stop = {});

// The Lipschitz constant of (d): theta for I_MI, theta + 1 for I_P.
// kInvalidArgument for other measures or theta == 0.
absl::StatusOr<int64_t> FlowExtensionSensitivity(measures::Measure measure,
                                                 uint32_t theta);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_FLOW_EXTENSIONS_H_
