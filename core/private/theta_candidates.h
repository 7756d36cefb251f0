// The public candidate set Theta for the edge-addition threshold (paper,
// Algorithm 2 and Section 4) and the public row bound N it is built from.
//
// Everything here is a function of public inputs only (docs/privacy.md 2.1):
// the owner's `public_max_rows` N and the buyer's candidate list. The papers
// use |V| (the true row count) where we use N.
#ifndef DPQ_CORE_PRIVATE_THETA_CANDIDATES_H_
#define DPQ_CORE_PRIVATE_THETA_CANDIDATES_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace dpq::core::private_measures {

// Checks that N = public_max_rows is usable as a degree bound: 1 <= N <=
// 2^32 - 1 (node ids are 32 bits). Returns N as uint32_t; kInvalidArgument
// naming the value otherwise.
absl::StatusOr<uint32_t> ValidatePublicMaxRows(uint64_t public_max_rows);

// The privacy analysis of every projection mechanism needs n <= N (the
// sensitivities and the candidate N assume no node has degree >= N).
// kFailedPrecondition ("... raise N") if `num_rows` > `max_rows`. Note that
// this refusal depends on the private row count; it is an owner
// misconfiguration, not a release.
absl::Status CheckRowsWithinPublicMax(uint64_t num_rows, uint32_t max_rows);

// The default Theta: the 1-2-5 geometric grid {1, 2, 5, 10, 20, 50, ...}
// strictly below `max_rows`, plus `max_rows` itself (baseline 1's theta, the
// candidate that truncates nothing). Sorted ascending, unique. Precondition:
// max_rows >= 1. O(log max_rows).
std::vector<uint32_t> DefaultThetaCandidates(uint32_t max_rows);

// A caller's Theta: kInvalidArgument if `candidates` is empty or any value is
// outside [1, max_rows] (the message names the value). Returns the values
// sorted ascending and deduplicated. O(k log k).
absl::StatusOr<std::vector<uint32_t>> NormalizeThetaCandidates(
    absl::Span<const uint64_t> candidates, uint32_t max_rows);

// OK iff `thetas` is non-empty, strictly ascending and all >= 1: the form
// the selection functions expect (what the two functions above return).
absl::Status CheckSortedCandidates(absl::Span<const uint32_t> thetas);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_THETA_CANDIDATES_H_
