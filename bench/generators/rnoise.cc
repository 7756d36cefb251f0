#include "bench/generators/rnoise.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "bench/generators/cell_values.h"

namespace dpq::bench::generators {

size_t RNoiseCellCount(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs, double alpha) {
  const double cells = static_cast<double>(clean.rows.size()) *
                       static_cast<double>(ConstrainedColumns(dcs).size());
  return static_cast<size_t>(std::llround(alpha * cells));
}

namespace {

// k distinct indices in [0, total), in the order drawn: rejection sampling
// while few are needed, a partial Fisher-Yates shuffle otherwise.
std::vector<uint64_t> DrawDistinct(uint64_t total, size_t k,
                                   GeneratorRng& rng) {
  std::vector<uint64_t> out;
  out.reserve(k);
  if (k <= total / 4) {
    absl::flat_hash_set<uint64_t> seen;
    while (out.size() < k) {
      const uint64_t i = UniformIndex(rng, total);
      if (seen.insert(i).second) out.push_back(i);
    }
    return out;
  }
  std::vector<uint64_t> all(total);
  for (uint64_t i = 0; i < total; ++i) all[i] = i;
  for (size_t i = 0; i < k; ++i) {
    std::swap(all[i], all[i + UniformIndex(rng, total - i)]);
    out.push_back(all[i]);
  }
  return out;
}

// Another value of the active domain, or nullopt if there is none.
Cell OtherDomainValue(const std::vector<std::string>& domain, const Cell& cur,
                      GeneratorRng& rng) {
  const size_t others =
      domain.size() -
      (cur.has_value() && std::binary_search(domain.begin(), domain.end(), *cur)
           ? 1
           : 0);
  if (others == 0) return std::nullopt;
  // Rejection keeps this uniform over the other values; at least half of
  // the draws succeed because others >= 1 and at most one value is `cur`.
  while (true) {
    const std::string& v = domain[UniformIndex(rng, domain.size())];
    if (!cur.has_value() || v != *cur) return v;
  }
}

}  // namespace

absl::StatusOr<NoiseLog> GenerateRNoise(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs,
    const RNoiseOptions& options) {
  if (!(options.alpha >= 0 && options.alpha <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("alpha must be in [0, 1], but is ", options.alpha, "."));
  }
  if (!(options.active_domain_probability >= 0 &&
        options.active_domain_probability <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("The active-domain probability must be in [0, 1], but is ",
                     options.active_domain_probability, "."));
  }
  const std::vector<size_t> columns = ConstrainedColumns(dcs);
  const size_t k = RNoiseCellCount(clean, dcs, options.alpha);
  if (k > 0 && columns.empty()) {
    return absl::InvalidArgumentError(
        "The DCs read no column: nothing to change.");
  }
  // The sort inside ActiveDomain compares typed values; do it once per
  // column. Byte-wise sorted copies serve binary_search in OtherDomainValue.
  std::vector<std::vector<std::string>> domains;
  for (size_t c : columns) {
    std::vector<std::string> d = ActiveDomain(clean, c);
    std::sort(d.begin(), d.end());
    domains.push_back(std::move(d));
  }
  GeneratorRng rng(options.seed);
  std::bernoulli_distribution use_domain(options.active_domain_probability);
  NoiseLog log;
  for (uint64_t cell : DrawDistinct(
           static_cast<uint64_t>(clean.rows.size()) * columns.size(), k, rng)) {
    const size_t row = cell / columns.size();
    const size_t slot = cell % columns.size();
    const size_t column = columns[slot];
    const Cell& current = clean.rows[row][column];
    Cell value;
    if (use_domain(rng)) value = OtherDomainValue(domains[slot], current, rng);
    if (!value.has_value()) {
      value = MakeTypo(clean.schema.column(column).type, current, rng);
    }
    NoiseIteration it;
    it.changes.push_back({row, column, std::move(value)});
    log.iterations.push_back(std::move(it));
  }
  return log;
}

}  // namespace dpq::bench::generators
