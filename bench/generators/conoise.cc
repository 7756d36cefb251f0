#include "bench/generators/conoise.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bench/generators/cell_values.h"

namespace dpq::bench::generators {

using core::constraints::CompareOp;
using core::constraints::Operand;
using core::constraints::Predicate;
using core::constraints::TupleVar;
using core::table::ColumnType;

namespace {

struct CellRef {
  size_t row = 0;
  size_t column = 0;
};

class CoNoiseRun {
 public:
  CoNoiseRun(const CellTable& clean, GeneratorRng& rng)
      : table_(clean), rng_(rng), domains_(clean.schema.num_columns()) {}

  NoiseIteration Iterate(
      absl::Span<const core::constraints::DenialConstraint> dcs) {
    NoiseIteration it;
    it.dc_index = UniformIndex(rng_, dcs.size());
    it.row_t1 = UniformIndex(rng_, table_.rows.size());
    it.row_t2 = UniformIndex(rng_, table_.rows.size() - 1);
    if (it.row_t2 >= it.row_t1) ++it.row_t2;  // distinct tuples
    for (const Predicate& p : dcs[*it.dc_index].predicates) {
      Enforce(p, it.row_t1, it.row_t2, it.changes);
    }
    return it;
  }

 private:
  CellRef Ref(const Operand& o, size_t t1, size_t t2) const {
    return {o.tuple == TupleVar::kT1 ? t1 : t2, o.column};
  }
  Cell& At(CellRef ref) { return table_.rows[ref.row][ref.column]; }
  ColumnType TypeOf(size_t column) const {
    return table_.schema.column(column).type;
  }

  void Enforce(const Predicate& p, size_t t1, size_t t2,
               std::vector<CellChange>& changes) {
    const CellRef lhs = Ref(p.lhs, t1, t2);
    const ColumnType type = TypeOf(lhs.column);
    const Cell rhs_value = p.rhs.is_constant ? ConstantCell(p.rhs.constant)
                                             : At(Ref(p.rhs, t1, t2));
    if (CompareCells(type, At(lhs), p.op, rhs_value)) return;
    // Which cell to edit: the lhs, or (join and same-tuple predicates) the
    // rhs with the operator seen from its side.
    bool edit_lhs = p.rhs.is_constant || UniformIndex(rng_, 2) == 0;
    for (int attempt = 0; attempt < 2; ++attempt, edit_lhs = !edit_lhs) {
      if (!edit_lhs && p.rhs.is_constant) continue;
      const CellRef target = edit_lhs ? lhs : Ref(p.rhs, t1, t2);
      const CellRef other = edit_lhs ? Ref(p.rhs, t1, t2) : lhs;
      const Cell other_value = edit_lhs ? rhs_value : At(other);
      const CompareOp op =
          edit_lhs ? p.op : core::constraints::SwapOperands(p.op);
      Cell value = Satisfying(target.column, op, other_value);
      if (!value.has_value()) continue;
      At(target) = value;
      changes.push_back({target.row, target.column, std::move(value)});
      return;
    }
  }

  const std::vector<std::string>& Domain(size_t column) {
    if (domains_[column].empty())
      domains_[column] = ActiveDomain(table_, column);
    return domains_[column];
  }

  // A value v for `column` with `v op other`, or nullopt if `other` is NULL.
  Cell Satisfying(size_t column, CompareOp op, const Cell& other) {
    if (!other.has_value()) return std::nullopt;
    const ColumnType type = TypeOf(column);
    if (op == CompareOp::kEq || op == CompareOp::kLe || op == CompareOp::kGe) {
      return other;
    }
    // The active domain is sorted in the column's order, so the satisfying
    // values of < and > form a prefix and a suffix.
    const std::vector<std::string>& domain = Domain(column);
    std::vector<size_t> fits;
    for (size_t i = 0; i < domain.size(); ++i) {
      if (CompareCells(type, domain[i], op, other)) fits.push_back(i);
    }
    if (!fits.empty()) return domain[fits[UniformIndex(rng_, fits.size())]];
    return Beyond(type, op, *other);
  }

  // A value just beyond `other` in the direction of `op` (<, > or !=).
  std::string Beyond(ColumnType type, CompareOp op, const std::string& other) {
    const bool below = op == CompareOp::kLt;
    if (type == ColumnType::kString) {
      if (!below || other.empty())
        return other + static_cast<char>('a' + UniformIndex(rng_, 26));
      // A proper prefix is smaller; a one-character string gets a smaller
      // first character (or "!" if it already is the smallest printable).
      if (other.size() > 1) return other.substr(0, other.size() - 1);
      return std::string(
          1, other[0] > '!' ? static_cast<char>(other[0] - 1) : '!');
    }
    const int64_t step = 1 + static_cast<int64_t>(UniformIndex(rng_, 10));
    if (type == ColumnType::kInt64) {
      int64_t v = 0;
      absl::SimpleAtoi(other, &v);
      return absl::StrCat(below ? v - step : v + step);
    }
    double v = 0;
    absl::SimpleAtod(other, &v);
    return absl::StrCat(below ? v - static_cast<double>(step)
                              : v + static_cast<double>(step));
  }

  CellTable table_;
  GeneratorRng& rng_;
  std::vector<std::vector<std::string>> domains_;  // computed at first use
};

}  // namespace

absl::StatusOr<NoiseLog> GenerateCoNoise(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs,
    const CoNoiseOptions& options) {
  NoiseLog log;
  if (options.iterations == 0) return log;
  if (dcs.empty()) {
    return absl::InvalidArgumentError("CONoise needs at least one DC.");
  }
  if (clean.rows.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("CONoise needs at least 2 rows, but the table has ",
                     clean.rows.size(), "."));
  }
  GeneratorRng rng(options.seed);
  CoNoiseRun run(clean, rng);
  for (size_t i = 0; i < options.iterations; ++i) {
    log.iterations.push_back(run.Iterate(dcs));
  }
  return log;
}

}  // namespace dpq::bench::generators
