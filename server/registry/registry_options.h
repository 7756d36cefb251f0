// Limits and knobs of the dataset registry (DatasetRegistry::Options).
#ifndef DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_
#define DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "core/graph/conflict_graph_builder.h"
#include "server/registry/dataset_catalog.h"

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
  // The shared catalog of the PostgreSQL mode (dataset_catalog.h): null in
  // the embedded mode. With one, the catalog decides which versions exist
  // and data_dir/datasets is a cache of it (dataset_registry.h).
  std::shared_ptr<DatasetCatalog> catalog;
  // How often the catalog's version is polled (> 0): a change made through
  // another replica is served or refused here within about this time plus
  // the new version's load time.
  absl::Duration catalog_poll_interval = absl::Milliseconds(250);
  // Tests only: runs on the worker before each background conflict-graph
  // build (to hold a build back and observe requests waiting for it).
  std::function<void(const std::string& dataset_id)> before_graph_build;
  // Tests only: runs in Register/Replace after the rows are parsed, before
  // the conflict graph is built (to make the build take time).
  std::function<void(const std::string& dataset_id)> before_registration_graph;
  // Tests only (a fault-injecting cache): runs before a replica writes a
  // catalog version into its cache; a non-OK status fails that write as a
  // full disk would.
  std::function<absl::Status(const std::string& dataset_id)> before_cache_write;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_REGISTRY_OPTIONS_H_
