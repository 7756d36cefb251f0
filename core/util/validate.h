// The range checks of every option and request number outside the DP
// mechanisms (server options, the registry's options, the admin RPCs), with
// one message shape: "<name> must be <condition><note>, but is <value>."
// (the value as absl::StrCat prints it). `note` explains a special value,
// e.g. " (0 = one per core)". Each returns kInvalidArgument; a request
// field wraps it with AsFieldError so the client gets a BadRequest
// violation naming the field (docs/errors.md). Epsilons of releases have
// their own check, core::dp::ValidateRequestEpsilon (its floor and ceiling
// are DP rules).
#ifndef DPQ_CORE_UTIL_VALIDATE_H_
#define DPQ_CORE_UTIL_VALIDATE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::core::util {

// lo <= value <= hi: "<name> must be in [lo, hi]<note>, but is <value>."
absl::Status ValidateInRange(int64_t value, int64_t lo, int64_t hi,
                             absl::string_view name,
                             absl::string_view note = "");

// value >= lo: "<name> must be >= lo<note>, but is <value>."
absl::Status ValidateAtLeast(int64_t value, int64_t lo, absl::string_view name,
                             absl::string_view note = "");

// value > 0: "<name> must be > 0, but is <value>."
absl::Status ValidatePositive(uint64_t value, absl::string_view name);

// Finite and > 0 (NaN fails): "<name> must be finite and > 0<note>, but is
// <value>."
absl::Status ValidateFiniteAndPositive(double value, absl::string_view name,
                                       absl::string_view note = "");

// Finite and >= 0 (NaN fails): "<name> must be finite and >= 0<note>, but is
// <value>."
absl::Status ValidateFiniteAndNonNegative(double value, absl::string_view name,
                                          absl::string_view note = "");

// `status` as a request-field error (InvalidFieldError: kInvalidArgument
// with a BadRequest violation of `field`, same message); OK stays OK.
absl::Status AsFieldError(absl::string_view field, const absl::Status& status);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_VALIDATE_H_
