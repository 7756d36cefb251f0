// Where a dataset version being built comes from (dataset_builder.h): a new
// registration, a replacement of a version, or a version stored on disk.
#ifndef DPQ_SERVER_REGISTRY_BUILD_CONTEXT_H_
#define DPQ_SERVER_REGISTRY_BUILD_CONTEXT_H_

#include <memory>

#include "server/registry/loaded_dataset.h"

namespace dpq::server::registry {

struct BuildContext {
  // ReplaceDataset: the version being replaced. Columns the new manifest
  // leaves untyped keep their frozen types from it; its public exact
  // cuboids must not change (the ledger counts in their neighbour unit).
  std::shared_ptr<const LoadedDataset> previous;
  // Loading a stored manifest. One written before this server froze types,
  // domains and node universes is completed the way the earlier server
  // did (inference on the same rows gives what buyers already saw) and
  // frozen; the builder then sets its `migrated` output so the caller
  // rewrites the file.
  bool stored = false;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_BUILD_CONTEXT_H_
