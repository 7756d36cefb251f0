// Syntax of dataset and buyer ids, and the errors that name a dataset
// (docs/errors.md).
#ifndef DPQ_SERVER_REGISTRY_DATASET_ID_H_
#define DPQ_SERVER_REGISTRY_DATASET_ID_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::server::registry {

// Valid dataset and buyer ids: 1-64 characters from [A-Za-z0-9_.-],
// starting with a letter or digit. kInvalidArgument naming `field` (a
// BadRequest field violation: core::util::InvalidFieldError).
absl::Status ValidateId(const std::string& id, const char* field);

// kNotFound "Dataset '<id>' does not exist<hint>." with the reason
// DATASET_NOT_FOUND and a ResourceInfo (hint e.g. ": register it first").
absl::Status DatasetNotFoundError(absl::string_view dataset_id,
                                  absl::string_view hint = "");

// RetryInfo of a dataset this server refuses: a retry may reach another
// replica, or this one once the operator acted.
inline constexpr int64_t kDatasetRefusedRetryDelayMs = 2000;

// kUnavailable: this server refuses to serve the dataset (a fault its
// operator must fix, found when the version was loaded; reason
// UNAVAILABLE, RetryInfo). Says nothing about the rows.
absl::Status DatasetRefusedError(absl::string_view dataset_id);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_ID_H_
