// Small graphs for the core/private tests: the paper's examples and
// families of random graphs with fixed seeds (stars, sparse, dense,
// clique unions like FD conflict graphs).
#ifndef DPQ_TESTS_CORE_PRIVATE_TEST_GRAPHS_H_
#define DPQ_TESTS_CORE_PRIVATE_TEST_GRAPHS_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace dpq::core::private_measures::testing {

// Paper Figure 1 / Example 1: tuple 4 (id 3) conflicts with tuples 1-3.
inline graph::Graph Figure1Graph() {
  return *graph::Graph::FromEdges(4, {{0, 3}, {1, 3}, {2, 3}});
}

// Paper Figure 2 / Example 5-6, nodes A..G = 0..6, edges e1..e7 = AB, AC,
// BC, CD, DE, EF, FG. The paper's G is this graph without E (id 4).
inline graph::Graph Figure2Graph() {
  return *graph::Graph::FromEdges(
      7, {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}});
}

// A star: centre `centre` joined to every other of the n nodes.
inline graph::Graph StarGraph(uint32_t n, uint32_t centre) {
  std::vector<graph::Edge> edges;
  for (uint32_t v = 0; v < n; ++v) {
    if (v != centre) edges.emplace_back(centre, v);
  }
  return *graph::Graph::FromEdges(n, std::move(edges));
}

struct NamedGraph {
  std::string name;
  graph::Graph graph;
};

// About 250 graphs with up to 25 nodes: Erdos-Renyi at densities from
// 0.05 to 1, stars with random centres, unions of random cliques (the
// conflict graphs of FDs), and stars glued to random graphs. Deterministic.
inline std::vector<NamedGraph> RandomTestGraphs() {
  std::vector<NamedGraph> out;
  std::mt19937_64 rng(20250101);
  const double densities[] = {0.05, 0.15, 0.3, 0.5, 0.8, 1.0};
  for (int rep = 0; rep < 6; ++rep) {
    for (double p : densities) {
      const uint32_t n = 2 + static_cast<uint32_t>(rng() % 24);
      std::bernoulli_distribution coin(p);
      std::vector<graph::Edge> edges;
      for (uint32_t u = 0; u < n; ++u) {
        for (uint32_t v = u + 1; v < n; ++v) {
          if (coin(rng)) edges.emplace_back(u, v);
        }
      }
      out.push_back(
          {"gnp(n=" + std::to_string(n) + ",p=" + std::to_string(p) + ")",
           *graph::Graph::FromEdges(n, std::move(edges))});
    }
  }
  for (uint32_t n = 2; n <= 25; n += 3) {
    const uint32_t centre = static_cast<uint32_t>(rng() % n);
    out.push_back({"star(n=" + std::to_string(n) + ")", StarGraph(n, centre)});
  }
  for (int rep = 0; rep < 30; ++rep) {
    // Clique union: rows grouped by a random key; conflicts within a group
    // with probability q (an FD X -> Y with several Y values per group).
    const uint32_t n = 3 + static_cast<uint32_t>(rng() % 23);
    const uint32_t groups = 1 + static_cast<uint32_t>(rng() % 5);
    const double q = 0.3 + 0.7 * static_cast<double>(rng() % 100) / 100.0;
    std::bernoulli_distribution coin(q);
    std::vector<uint32_t> group(n);
    for (uint32_t& g : group) g = static_cast<uint32_t>(rng() % groups);
    std::vector<graph::Edge> edges;
    for (uint32_t u = 0; u < n; ++u) {
      for (uint32_t v = u + 1; v < n; ++v) {
        if (group[u] == group[v] && coin(rng)) edges.emplace_back(u, v);
      }
    }
    out.push_back({"cliques(n=" + std::to_string(n) + ")",
                   *graph::Graph::FromEdges(n, std::move(edges))});
  }
  for (int rep = 0; rep < 20; ++rep) {
    // A hub joined to most nodes plus sparse random edges: hubs are where
    // edge addition truncates and displaced edges come back.
    const uint32_t n = 5 + static_cast<uint32_t>(rng() % 21);
    const uint32_t hubs = 1 + static_cast<uint32_t>(rng() % 3);
    std::bernoulli_distribution hub_coin(0.8), coin(0.15);
    std::vector<graph::Edge> edges;
    for (uint32_t u = 0; u < n; ++u) {
      for (uint32_t v = u + 1; v < n; ++v) {
        const bool hub = (u % (n / hubs + 1)) == 0;
        if (hub ? hub_coin(rng) : coin(rng)) edges.emplace_back(u, v);
      }
    }
    out.push_back({"hubs(n=" + std::to_string(n) + ")",
                   *graph::Graph::FromEdges(n, std::move(edges))});
  }
  for (uint32_t n : {1u, 2u}) {
    out.push_back({"empty(n=" + std::to_string(n) + ")",
                   *graph::Graph::FromEdges(n, {})});
  }
  return out;
}

// A graph blown up from `base` classes of 1-6 nodes each (shuffled): two
// nodes are adjacent iff joined[a][b] for their classes a, b (a class
// joined to itself is a clique), plus 1 to `max_extra` random edges on odd
// `rep`s (twins split apart). `name` gets n and the extra edges appended.
inline NamedGraph BlownUpGraph(std::mt19937_64& rng,
                               const std::vector<std::vector<bool>>& joined,
                               int rep, int max_extra,
                               const std::string& name) {
  const uint32_t base = static_cast<uint32_t>(joined.size());
  std::vector<uint32_t> class_of;
  for (uint32_t b = 0; b < base; ++b) {
    const uint32_t size = 1 + static_cast<uint32_t>(rng() % 6);
    for (uint32_t i = 0; i < size; ++i) class_of.push_back(b);
  }
  std::shuffle(class_of.begin(), class_of.end(), rng);
  const uint32_t n = static_cast<uint32_t>(class_of.size());
  std::vector<graph::Edge> edges;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) {
      if (joined[class_of[u]][class_of[v]]) edges.emplace_back(u, v);
    }
  }
  const int extra = rep % 2 == 0 ? 0 : 1 + static_cast<int>(rng() % max_extra);
  for (int e = 0; e < extra; ++e) {
    const uint32_t u = static_cast<uint32_t>(rng() % n);
    const uint32_t v = static_cast<uint32_t>(rng() % n);
    if (u != v) edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  return {name + "(n=" + std::to_string(n) + ",extra=" + std::to_string(extra) +
              ")",
          *graph::Graph::FromEdges(n, std::move(edges))};
}

// The conflict graph of the FD key -> value on rows (key, value): rows
// with equal keys and different values conflict.
inline NamedGraph FdConflictGraph(
    const std::vector<std::pair<uint32_t, uint32_t>>& row,
    const std::string& name) {
  const uint32_t n = static_cast<uint32_t>(row.size());
  std::vector<graph::Edge> edges;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) {
      if (row[u].first == row[v].first && row[u].second != row[v].second) {
        edges.emplace_back(u, v);
      }
    }
  }
  return {name + "(n=" + std::to_string(n) + ")",
          *graph::Graph::FromEdges(n, std::move(edges))};
}

// Joins between `base` classes: one `coin` per pair, and a class joined to
// itself iff clique[a].
inline std::vector<std::vector<bool>> RandomJoins(
    std::mt19937_64& rng, std::bernoulli_distribution& coin,
    const std::vector<bool>& clique) {
  const uint32_t base = static_cast<uint32_t>(clique.size());
  std::vector<std::vector<bool>> joined(base, std::vector<bool>(base));
  for (uint32_t a = 0; a < base; ++a) {
    joined[a][a] = clique[a];
    for (uint32_t b = a + 1; b < base; ++b) {
      joined[a][b] = joined[b][a] = coin(rng);
    }
  }
  return joined;
}

// About 60 graphs full of false twins (nodes with equal neighbour lists),
// up to 60 nodes: a random base graph with each node blown up into an
// independent class of 1-6 nodes, joined completely to the classes of its
// base neighbours, with node ids shuffled; in half of them a few random
// extra edges split some classes. Also FD conflict graphs (rows with a
// random key and value; rows with equal keys and different values
// conflict), where rows with equal key and value are twins. Deterministic.
inline std::vector<NamedGraph> TwinRichTestGraphs() {
  std::vector<NamedGraph> out;
  std::mt19937_64 rng(20261128);
  for (int rep = 0; rep < 40; ++rep) {
    const uint32_t base = 2 + static_cast<uint32_t>(rng() % 9);
    std::bernoulli_distribution base_coin(0.2 + 0.1 * (rep % 7));
    out.push_back(BlownUpGraph(
        rng, RandomJoins(rng, base_coin, std::vector<bool>(base, false)), rep,
        4, "blown_up"));
  }
  for (int rep = 0; rep < 20; ++rep) {
    const uint32_t n = 10 + static_cast<uint32_t>(rng() % 51);
    const uint32_t keys = 1 + static_cast<uint32_t>(rng() % 4);
    const uint32_t values = 2 + static_cast<uint32_t>(rng() % 4);
    std::vector<std::pair<uint32_t, uint32_t>> row(n);
    for (auto& [key, value] : row) {
      key = static_cast<uint32_t>(rng() % keys);
      value = static_cast<uint32_t>(rng() % values);
    }
    out.push_back(FdConflictGraph(row, "fd_blocks"));
  }
  // True twins: blown-up graphs whose classes are cliques or independent
  // sets (a coin per class), and FD blocks whose right-hand sides mostly
  // differ (a constant key over a nearly unique column is one clique).
  for (int rep = 0; rep < 30; ++rep) {
    const uint32_t base = 1 + static_cast<uint32_t>(rng() % 7);
    std::bernoulli_distribution joined_coin(0.4), clique_coin(0.7);
    std::vector<bool> clique(base);
    for (uint32_t b = 0; b < base; ++b) clique[b] = clique_coin(rng);
    out.push_back(BlownUpGraph(rng, RandomJoins(rng, joined_coin, clique), rep,
                               3, "cliques_blown_up"));
  }
  for (int rep = 0; rep < 10; ++rep) {
    const uint32_t n = 5 + static_cast<uint32_t>(rng() % 40);
    const uint32_t keys = 1 + static_cast<uint32_t>(rng() % 2);
    std::vector<std::pair<uint32_t, uint32_t>> row(n);
    for (uint32_t i = 0; i < n; ++i) {
      row[i] = {static_cast<uint32_t>(rng() % keys),
                rng() % 5 == 0 ? 0u : i + 1};  // unique but a few zeros
    }
    out.push_back(FdConflictGraph(row, "fd_unique_blocks"));
  }
  return out;
}

}  // namespace dpq::core::private_measures::testing

#endif  // DPQ_TESTS_CORE_PRIVATE_TEST_GRAPHS_H_
