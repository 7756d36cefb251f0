// Limits and knobs of the dataset registry (DatasetRegistry::Options).
#ifndef DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_
#define DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/time/time.h"
#include "core/graph/conflict_graph_builder.h"

namespace dpq::server::registry {

struct RegistryOptions {
  std::string data_dir;  // datasets live in data_dir/datasets/
  // Uploads by server_path read only regular files inside this directory
  // (and outside data_dir); "" turns them off (server_import.h).
  std::string import_dir;
  uint64_t max_csv_bytes = uint64_t{1} << 30;
  size_t max_rows = 10'000'000;
  int graph_threads = 0;  // 0 = all cores
  uint64_t max_edges = core::graph::kDefaultMaxConflictGraphEdges;
  // Graph datasets: most nodes and most edges of an edge list.
  uint64_t max_graph_nodes = 1'000'000;
  uint64_t max_graph_edges = 10'000'000;
  // How many conflict graphs may be rebuilt at once in the background
  // after a server start.
  int graph_build_workers = 1;
  // Longest a registration with exact_repair may spend proving the exact
  // minimum cover; past it the registration fails (the owner's error).
  absl::Duration exact_repair_time_limit = absl::Seconds(60);
  // Tests only: runs on the worker before each background conflict-graph
  // build (to hold a build back and observe requests waiting for it).
  std::function<void(const std::string& dataset_id)> before_graph_build;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_
