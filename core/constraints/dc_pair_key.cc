#include "core/constraints/dc_pair_key.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/constraints/denial_constraint.h"

namespace dpq::core::constraints {
namespace {

TupleVar Other(TupleVar t) {
  return t == TupleVar::kT1 ? TupleVar::kT2 : TupleVar::kT1;
}

// One operand, unambiguously: columns by tuple and index, constants by
// type and value (the value the comparison uses, not the text).
std::string OperandKey(const Operand& o) {
  if (!o.is_constant) {
    return absl::StrCat("c", static_cast<int>(o.tuple), ".", o.column);
  }
  const Constant& c = o.constant;
  switch (c.type) {
    case table::ColumnType::kString:
      return absl::StrCat("s", c.string_value.size(), ":", c.string_value);
    case table::ColumnType::kInt64:
      return absl::StrCat("i", c.int64_value);
    case table::ColumnType::kDouble:
      // Exactly, by its bits; -0.0 and 0.0 compare alike.
      return absl::StrCat("d",
                          absl::Hex(std::bit_cast<uint64_t>(
                              c.double_value == 0 ? 0.0 : c.double_value)));
  }
  return "";
}

}  // namespace

std::string DcPredicateKey(const DenialConstraint& dc, bool mirrored) {
  std::vector<std::string> keys;
  for (Predicate p : dc.predicates) {
    if (mirrored) {
      if (!p.lhs.is_constant) p.lhs.tuple = Other(p.lhs.tuple);
      if (!p.rhs.is_constant) p.rhs.tuple = Other(p.rhs.tuple);
    }
    p = NormalizePredicate(p);
    keys.push_back(absl::StrCat(OperandKey(p.lhs), " ", CompareOpSymbol(p.op),
                                " ", OperandKey(p.rhs)));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::string out;
  for (const std::string& k : keys) absl::StrAppend(&out, k.size(), ":", k);
  return out;
}

}  // namespace dpq::core::constraints
