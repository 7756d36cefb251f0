// Says where an error happened without changing what kind it is: the same
// code, the message behind a prefix ("constraints: ", "hospital.csv: ").
#ifndef DPQ_CORE_UTIL_STATUS_PREFIX_H_
#define DPQ_CORE_UTIL_STATUS_PREFIX_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace dpq::core::util {

// `status` with `prefix` before its message (OK stays OK), e.g.
// WithPrefix("constraints: ", s) -> "constraints: line 3: ...".
inline absl::Status WithPrefix(absl::string_view prefix,
                               const absl::Status& status,
                               absl::string_view suffix = "") {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(prefix, status.message(), suffix));
}

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_STATUS_PREFIX_H_
