#include "core/cube/graph_sensitivity.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/cube/generic_sensitivity.h"

namespace dpq::core::cube {
namespace {

absl::Status ValidateCounts(int64_t known, int64_t num_nodes,
                            const char* what) {
  if (num_nodes < 1 || known < 0 || known > num_nodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The number of nodes with known ", what, " must be in [0, ", num_nodes,
        "] and the graph needs at least one node, but ", known, " of ",
        num_nodes, " are given."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> UndirectedKnownDegreeSensitivity(int64_t num_known,
                                                         int64_t num_nodes) {
  if (absl::Status s = ValidateCounts(num_known, num_nodes, "degree");
      !s.ok()) {
    return s;
  }
  if (num_known >= 3) {
    return absl::FailedPreconditionError(absl::StrCat(
        "No bound on the generic sensitivity of an undirected graph with ",
        num_known,
        " known degrees is proven (the draft's Lemma 5.1(i) fails from three "
        "known degrees on: odd cycles give longer minimal changes); publish "
        "at most two degrees or treat the graph as directed."));
  }
  // n + 1 (proof in the header), at most |V| (n = |V| = 2: the one edge).
  return std::max<int64_t>(1, std::min(num_known + 1, num_nodes));
}

absl::StatusOr<int64_t> DirectedKnownDegreeSensitivity(int64_t num_known_out,
                                                       int64_t num_known_in,
                                                       int64_t num_nodes) {
  if (absl::Status s = ValidateCounts(num_known_out, num_nodes, "out-degree");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateCounts(num_known_in, num_nodes, "in-degree");
      !s.ok()) {
    return s;
  }
  // Rows (v, u): out-degrees are exact cells of {V1}, in-degrees of {V2};
  // the meet is the apex, so there is one group.
  const MeetGroup g{num_known_out, num_nodes - num_known_out, num_known_in,
                    num_nodes - num_known_in};
  return ExactCellsSensitivity({g});
}

}  // namespace dpq::core::cube
