#include "core/private/flow_extensions.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/graph/max_flow.h"
#include "core/graph/twin_classes.h"
#include "core/measures/graph_components.h"
#include "core/private/theta_candidates.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using graph::Graph;
using graph::NodeId;
using measures::Measure;
using measures::internal::Components;

// Graphs with more edges than this spread their components over two
// threads (below it, starting threads costs more than it saves).
constexpr uint64_t kParallelEdges = 200'000;

// Evaluates one component's flows over the theta sweep; reuses its solver
// and index buffer across the components it is given.
class ComponentSweep {
 public:
  ComponentSweep(const Graph& g, Measure measure,
                 absl::Span<const uint32_t> thetas, const util::StopFn& stop)
      : g_(g),
        measure_(measure),
        thetas_(thetas),
        stop_(stop),
        local_(g.num_nodes(), 0),
        totals_(thetas.size(), 0) {}

  void Add(absl::Span<const NodeId> nodes) {
    uint32_t max_degree = 0;
    uint64_t doubled_edges = 0;
    for (NodeId v : nodes) {
      max_degree = std::max(max_degree, g_.degree(v));
      doubled_edges += g_.degree(v);
    }
    if (max_degree == 0) return;  // an isolated node counts for nothing
    // Property (b): exact at and above the largest degree.
    const int64_t exact = measure_ == Measure::kMinimalInconsistency
                              ? static_cast<int64_t>(doubled_edges)
                              : static_cast<int64_t>(nodes.size());
    size_t first_exact = 0;
    while (first_exact < thetas_.size() && thetas_[first_exact] < max_degree) {
      ++first_exact;
    }
    for (size_t i = first_exact; i < thetas_.size(); ++i) totals_[i] += exact;
    if (first_exact > 0) Sweep(nodes, first_exact);
  }

  const std::vector<int64_t>& totals() const { return totals_; }

 private:
  // Flows for thetas_[0 .. count-1] on one component, on its network with
  // twin classes contracted (false twins, and true twins: a clique whose
  // members have equal closed neighbourhoods). Exact: members of one class
  // have equal degrees, so equal capacities, and every member of class A
  // is adjacent to every member of another class B once one is
  // (graph/twin_classes.h). The contracted network has a node per class
  // with the sum of its members' capacities, an arc |A| * |B| wide from
  // left A to right B when they are adjacent, and for a clique class an
  // arc |A| (|A| - 1) wide from left A to right A (its members' arcs to
  // each other). A flow of the full network summed per class is a flow of
  // the contracted one; a contracted flow F spread evenly (F(A,B) / (|A|
  // |B|) on each unit arc between A and B, F(A,A) / (|A| (|A| - 1)) on each
  // of the clique's, F(s,A) / |A| into each member) is a fractional flow of
  // the full network of the same value: a member of A sends F(A,B) / |A|
  // to B and F(A,A) / |A| inside its class, in all its share F(s,A) / |A|.
  // Integral capacities give the full network an integral maximum equal to
  // its fractional one, so both maxima are equal
  // (FlowExtensionTest.TwinContractionKeepsTheFlow compares them). The
  // clique of a constant key over a unique column (n rows, n (n - 1) / 2
  // edges) contracts to one class and three arcs.
  void Sweep(absl::Span<const NodeId> nodes, size_t count) {
    const uint32_t k = static_cast<uint32_t>(nodes.size());
    for (uint32_t i = 0; i < k; ++i) local_[nodes[i]] = i;
    const graph::TwinClasses classes =
        graph::TwinClasses::Find(g_, nodes, graph::Twins::kFalseAndTrue);
    const uint32_t c = classes.size();
    const uint32_t s = 2 * c, t = 2 * c + 1;
    flow_.Reset(2 * c + 2);
    // Arc ids: source arcs are 0..c-1, sink arcs c..2c-1.
    const bool mi = measure_ == Measure::kMinimalInconsistency;
    auto source_cap = [&](uint32_t a, uint32_t theta) {
      return int64_t{classes.members(a)} *
             Cap(classes.representative(a), theta);
    };
    for (uint32_t a = 0; a < c; ++a) {
      flow_.AddArc(s, a, source_cap(a, thetas_[0]));
    }
    for (uint32_t a = 0; a < c; ++a) {
      flow_.AddArc(
          c + a, t,
          mi ? source_cap(a, thetas_[0]) : int64_t{classes.members(a)});
    }
    // The representative's neighbours, counted per class: |B| of class B,
    // and |A| - 1 of its own class A when A is a clique.
    neighbors_in_.assign(c, 0);
    for (uint32_t a = 0; a < c; ++a) {
      touched_.clear();
      for (NodeId w : g_.neighbors(classes.representative(a))) {
        const uint32_t b = classes.class_of(local_[w]);
        if (neighbors_in_[b]++ == 0) touched_.push_back(b);
      }
      for (uint32_t b : touched_) {
        flow_.AddArc(a, c + b, int64_t{classes.members(a)} * neighbors_in_[b]);
        neighbors_in_[b] = 0;
      }
    }
    flow_.Finalize();
    for (size_t j = 0; j < count; ++j) {
      if (j > 0) {
        for (uint32_t a = 0; a < c; ++a) {
          const int64_t grow =
              source_cap(a, thetas_[j]) - source_cap(a, thetas_[j - 1]);
          if (grow == 0) continue;
          flow_.IncreaseCapacity(a, grow);
          if (mi) flow_.IncreaseCapacity(c + a, grow);
        }
      }
      totals_[j] += flow_.Run(s, t, stop_);
      // A stopped flow is not maximum: the caller discards every total.
      if (util::StopRequested(stop_)) return;
    }
  }

  // min(theta, degree): the same flows as capacity theta (a left copy
  // cannot send, nor a right copy receive, more than its degree), with
  // smaller numbers.
  int64_t Cap(NodeId v, uint32_t theta) const {
    return std::min<int64_t>(theta, g_.degree(v));
  }

  const Graph& g_;
  const Measure measure_;
  const absl::Span<const uint32_t> thetas_;
  const util::StopFn& stop_;
  std::vector<uint32_t> local_;
  std::vector<int64_t> totals_;
  std::vector<uint32_t> neighbors_in_;  // per class, scratch of Sweep
  std::vector<uint32_t> touched_;
  graph::MaxFlow<int64_t> flow_;
};

// Sum of maxflow over all components, per theta; util::StoppedError() once
// `stop` says so (polled per component and per Dinic phase).
absl::StatusOr<std::vector<int64_t>> TotalFlows(
    const Graph& g, Measure measure, absl::Span<const uint32_t> thetas,
    const util::StopFn& stop) {
  const Components components = Components::Find(g);
  // Largest components first, so two workers finish close together.
  std::vector<uint32_t> order(components.size());
  for (uint32_t c = 0; c < components.size(); ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return components.nodes(a).size() > components.nodes(b).size();
  });
  const unsigned workers = g.num_edges() > kParallelEdges ? 2 : 1;
  std::atomic<size_t> next{0};
  std::vector<std::vector<int64_t>> partial(workers);
  auto work = [&](unsigned w) {
    ComponentSweep sweep(g, measure, thetas, stop);
    for (size_t i = next++; i < order.size(); i = next++) {
      if (util::StopRequested(stop)) break;
      sweep.Add(components.nodes(order[i]));
    }
    partial[w] = sweep.totals();
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (std::thread& th : threads) th.join();
  if (util::StopRequested(stop)) return util::StoppedError();
  std::vector<int64_t> totals(thetas.size(), 0);
  for (const std::vector<int64_t>& p : partial) {
    for (size_t i = 0; i < totals.size(); ++i) totals[i] += p[i];
  }
  return totals;
}

int MeasureTag(Measure measure) { return static_cast<int>(measure); }

// f_theta from a total maximum flow: floor(flow / 2) for I_MI (flows are
// >= 0), the flow for I_P.
int64_t FlowValue(Measure measure, int64_t flow) {
  return measure == Measure::kMinimalInconsistency ? flow / 2 : flow;
}

// How long a caller waiting for another's sweep sleeps between polls of
// its own `stop`.
constexpr absl::Duration kInFlightPoll = absl::Milliseconds(50);

// The values of `thetas` on a graph with a memo, each computed once however
// many callers ask at once (single flight per graph, measure and theta):
// under the memo's lock, a theta is memoized (taken), running in another
// caller's sweep (waited for), or missing (marked in flight and swept by
// this caller). A sweep that stops or fails unmarks its thetas without
// memoizing them, and a waiter then sweeps them itself. Values the memo had
// no room for are kept here, so a full memo costs time, never a result.
absl::StatusOr<std::vector<int64_t>> SingleFlightValues(
    const Graph& g, graph::internal::GraphMemo& memo, Measure measure,
    absl::Span<const uint32_t> thetas, const util::StopFn& stop) {
  const int tag = MeasureTag(measure);
  std::vector<std::optional<int64_t>> known(thetas.size());
  while (true) {
    std::vector<uint32_t> mine;
    std::vector<size_t> mine_at;
    bool waiting = false;
    {
      absl::MutexLock lock(&memo.mu);
      for (size_t i = 0; i < thetas.size(); ++i) {
        if (known[i].has_value()) continue;
        const std::pair<int, uint32_t> key{tag, thetas[i]};
        if (auto it = memo.flow_extension.find(key);
            it != memo.flow_extension.end()) {
          known[i] = it->second;
        } else if (memo.flow_in_flight.contains(key)) {
          waiting = true;
        } else {
          memo.flow_in_flight.insert(key);
          mine.push_back(thetas[i]);
          mine_at.push_back(i);
        }
      }
      if (mine.empty() && waiting) {
        memo.flow_done.WaitWithTimeout(&memo.mu, kInFlightPoll);
      }
      if (!mine.empty()) ++memo.flow_sweeps;
    }
    if (mine.empty()) {
      if (!waiting) break;
      if (util::StopRequested(stop)) return util::StoppedError();
      continue;
    }
    absl::StatusOr<std::vector<int64_t>> computed =
        TotalFlows(g, measure, mine, stop);
    {
      absl::MutexLock lock(&memo.mu);
      for (size_t k = 0; k < mine.size(); ++k) {
        const std::pair<int, uint32_t> key{tag, mine[k]};
        memo.flow_in_flight.erase(key);
        if (!computed.ok()) continue;
        const int64_t value = FlowValue(measure, (*computed)[k]);
        known[mine_at[k]] = value;
        if (memo.flow_extension.size() <
            graph::internal::GraphMemo::kMaxEntries) {
          memo.flow_extension.try_emplace(key, value);
        }
      }
      memo.flow_done.SignalAll();
    }
    // A stopped sweep returns here: no partial flow was memoized.
    if (!computed.ok()) return computed.status();
  }
  std::vector<int64_t> values;
  values.reserve(thetas.size());
  for (const std::optional<int64_t>& v : known) values.push_back(*v);
  return values;
}

absl::Status CheckFlowMeasure(Measure measure) {
  if (measure == Measure::kMinimalInconsistency ||
      measure == Measure::kProblematic) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("The flow extensions release I_MI and I_P only, not ",
                   measures::MeasureName(measure), "."));
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> FlowExtensionValues(
    const Graph& g, Measure measure, absl::Span<const uint32_t> thetas,
    const util::StopFn& stop) {
  RETURN_IF_ERROR(CheckFlowMeasure(measure));
  RETURN_IF_ERROR(CheckSortedCandidates(thetas));
  // Only the thetas not memoized are computed (one sweep over them): a
  // release whose candidates end with a fresh noisy degree bound pays for
  // that one value, not for the whole grid again.
  if (graph::internal::GraphMemo* memo = g.memo(); memo != nullptr) {
    return SingleFlightValues(g, *memo, measure, thetas, stop);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> values,
                   TotalFlows(g, measure, thetas, stop));
  for (int64_t& v : values) v = FlowValue(measure, v);
  return values;
}

absl::StatusOr<int64_t> FlowExtensionSensitivity(Measure measure,
                                                 uint32_t theta) {
  RETURN_IF_ERROR(CheckFlowMeasure(measure));
  if (theta == 0) {
    return absl::InvalidArgumentError("Theta must be at least 1.");
  }
  return measure == Measure::kMinimalInconsistency
             ? static_cast<int64_t>(theta)
             : static_cast<int64_t>(theta) + 1;
}

}  // namespace dpq::core::private_measures
