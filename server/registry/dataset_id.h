// Syntax of dataset and buyer ids.
#ifndef DPQ_SERVER_REGISTRY_DATASET_ID_H_
#define DPQ_SERVER_REGISTRY_DATASET_ID_H_

#include <string>

#include "absl/status/status.h"

namespace dpq::server::registry {

// Valid dataset and buyer ids: 1-64 characters from [A-Za-z0-9_.-],
// starting with a letter or digit. kInvalidArgument naming `field`.
absl::Status ValidateId(const std::string& id, const char* field);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_ID_H_
