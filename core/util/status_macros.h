// Status propagation macros for dpq, after the design of Abseil's internal
// RETURN_IF_ERROR/ASSIGN_OR_RETURN (also used by google/differential-privacy).
#ifndef DPQ_CORE_UTIL_STATUS_MACROS_H_
#define DPQ_CORE_UTIL_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status); returns it from the enclosing function
// if it is not OK.
#define RETURN_IF_ERROR(expr)                             \
  do {                                                    \
    const absl::Status dpq_status_macro_status_ = (expr); \
    if (!dpq_status_macro_status_.ok()) {                 \
      return dpq_status_macro_status_;                    \
    }                                                     \
  } while (false)

#define DPQ_STATUS_MACROS_CONCAT_INNER_(x, y) x##y
#define DPQ_STATUS_MACROS_CONCAT_(x, y) DPQ_STATUS_MACROS_CONCAT_INNER_(x, y)

#define DPQ_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                               \
  if (!statusor.ok()) {                                  \
    return std::move(statusor).status();                 \
  }                                                      \
  lhs = *std::move(statusor)

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status,
// otherwise move-assigns the value to `lhs` (which may be a declaration).
#define ASSIGN_OR_RETURN(lhs, rexpr)                                        \
  DPQ_ASSIGN_OR_RETURN_IMPL_(                                               \
      DPQ_STATUS_MACROS_CONCAT_(dpq_status_macro_statusor_, __LINE__), lhs, \
      rexpr)

#endif  // DPQ_CORE_UTIL_STATUS_MACROS_H_
