// Which DCs are violated by the same unordered pairs of tuples: those with
// the same predicates up to their order, and those that become so when t1
// and t2 trade places (a DC and its mirror image, as the paper's tax DCs
// salary > / rate < and salary < / rate > are). The conflict-graph builder
// enumerates one DC of each class (docs/core.md "Conflict graph").
#ifndef DPQ_CORE_CONSTRAINTS_DC_PAIR_KEY_H_
#define DPQ_CORE_CONSTRAINTS_DC_PAIR_KEY_H_

#include <string>

#include "core/constraints/denial_constraint.h"

namespace dpq::core::constraints {

// The predicates of `dc` as a canonical byte string: normalized
// predicates, sorted, duplicates dropped; with `mirrored`, after t1 and t2
// trade places. Two DCs are violated by the same ordered pairs if their
// unmirrored keys are equal, and by the same unordered pairs if one's
// unmirrored key equals the other's unmirrored or mirrored key. Sufficient,
// not necessary: t1.A < t1.B and t1.B > t1.A get different keys.
std::string DcPredicateKey(const DenialConstraint& dc, bool mirrored);

}  // namespace dpq::core::constraints

#endif  // DPQ_CORE_CONSTRAINTS_DC_PAIR_KEY_H_
