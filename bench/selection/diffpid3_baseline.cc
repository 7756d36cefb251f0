#include "bench/selection/diffpid3_baseline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/exponential_mechanism.h"

namespace dpq::bench {
namespace {

// Continuous Laplace noise for the experiment only (inverse CDF).
double Laplace(double scale, core::dp::SecureUrbg& urbg) {
  const double u = urbg.UniformDouble() - 0.5;
  return -scale * (u < 0 ? -1 : 1) * std::log(1 - 2 * std::abs(u));
}

struct Trainer {
  const DiscretizedTable& data;
  double eps_level;
  int max_depth;
  core::dp::SecureUrbg& urbg;

  std::unique_ptr<Id3Node> Leaf(const std::vector<size_t>& rows) {
    double counts[2] = {0, 0};
    for (size_t r : rows) counts[data.labels[r]] += 1;
    auto node = std::make_unique<Id3Node>();
    node->label = counts[1] + Laplace(1 / eps_level, urbg) >
                          counts[0] + Laplace(1 / eps_level, urbg)
                      ? 1
                      : 0;
    return node;
  }

  // -sum_j sum_c n_jc log2(n_jc / n_j): the count form of information
  // gain up to a constant; sensitivity log2(N + 1) + 1 / ln 2 (F&S 2010).
  double Quality(int f, const std::vector<size_t>& rows) {
    std::vector<double> n(data.arity[f] * 2, 0.0);
    for (size_t r : rows) {
      const int c = data.codes[f][r];
      if (c >= 0) n[c * 2 + data.labels[r]] += 1;
    }
    double q = 0;
    for (int j = 0; j < data.arity[f]; ++j) {
      const double nj = n[2 * j] + n[2 * j + 1];
      for (int c = 0; c < 2; ++c) {
        if (n[2 * j + c] > 0) q += n[2 * j + c] * std::log2(n[2 * j + c] / nj);
      }
    }
    return q;
  }

  std::unique_ptr<Id3Node> Build(const std::vector<size_t>& rows,
                                 std::vector<bool> used, int depth) {
    const double noisy_n = rows.size() + Laplace(1 / eps_level, urbg);
    int max_arity = 1;
    std::vector<int> candidates;
    for (size_t f = 0; f < used.size(); ++f) {
      if (used[f]) continue;
      candidates.push_back(static_cast<int>(f));
      max_arity = std::max(max_arity, data.arity[f]);
    }
    if (candidates.empty() || depth >= max_depth ||
        noisy_n / (max_arity * 2) < std::sqrt(2.0) / eps_level) {
      return Leaf(rows);
    }
    std::vector<double> q;
    for (int f : candidates) q.push_back(Quality(f, rows));
    const double sensitivity =
        std::log2(std::max(noisy_n, 0.0) + 1) + 1 / std::log(2.0);
    auto pick =
        core::dp::SampleExponentialMechanism(urbg, q, eps_level, sensitivity);
    if (!pick.ok()) return Leaf(rows);
    const int f = candidates[*pick];
    used[f] = true;
    auto node = std::make_unique<Id3Node>();
    node->feature = f;
    std::vector<std::vector<size_t>> parts(data.arity[f]);
    for (size_t r : rows) {
      const int c = data.codes[f][r];
      parts[c < 0 ? 0 : c].push_back(r);  // NULL with the first value
    }
    for (const auto& part : parts) {
      node->children.push_back(Build(part, used, depth + 1));
    }
    return node;
  }
};

int Predict(const Id3Node& node, const DiscretizedTable& data, size_t row) {
  const Id3Node* v = &node;
  while (v->feature >= 0) {
    const int c = data.codes[v->feature][row];
    v = v->children[c < 0 ? 0 : c].get();
  }
  return v->label;
}

}  // namespace

absl::StatusOr<DiscretizedTable> DiscretizedTable::Create(
    const core::table::Table& table, const std::string& label,
    const std::string& positive, const std::vector<std::string>& features) {
  DiscretizedTable out;
  const auto label_index = table.schema().FindColumn(label);
  if (!label_index) return absl::InvalidArgumentError("unknown label");
  for (size_t r = 0; r < table.num_rows(); ++r) {
    out.labels.push_back(table.CellText(*label_index, r) == positive ? 1 : 0);
  }
  for (const std::string& name : features) {
    const auto c = table.schema().FindColumn(name);
    if (!c) return absl::InvalidArgumentError("unknown feature " + name);
    const core::table::Column& col = table.column(*c);
    std::vector<int> codes(table.num_rows(), -1);
    std::map<double, int> numeric_values;
    std::map<uint32_t, int> string_values;
    for (size_t r = 0; r < table.num_rows(); ++r) {
      if (col.is_null(r)) continue;
      if (col.is_numeric())
        numeric_values.emplace(col.numeric_at(r), 0);
      else
        string_values.emplace(col.string_ids[r], 0);
    }
    int arity = 0;
    if (!col.is_numeric()) {
      for (auto& [id, code] : string_values) code = arity++;
      for (size_t r = 0; r < table.num_rows(); ++r) {
        if (!col.is_null(r)) codes[r] = string_values[col.string_ids[r]];
      }
    } else if (numeric_values.size() <= 16) {
      for (auto& [v, code] : numeric_values) code = arity++;
      for (size_t r = 0; r < table.num_rows(); ++r) {
        if (!col.is_null(r)) codes[r] = numeric_values[col.numeric_at(r)];
      }
    } else {
      arity = 5;
      const double lo = numeric_values.begin()->first;
      const double hi = numeric_values.rbegin()->first;
      for (size_t r = 0; r < table.num_rows(); ++r) {
        if (col.is_null(r)) continue;
        const double x = (col.numeric_at(r) - lo) / (hi - lo);
        codes[r] = std::min(4, static_cast<int>(x * 5));
      }
    }
    out.codes.push_back(std::move(codes));
    out.arity.push_back(std::max(arity, 1));
  }
  return out;
}

std::unique_ptr<Id3Node> TrainDiffPId3(const DiscretizedTable& data,
                                       const std::vector<size_t>& rows,
                                       double epsilon, int depth,
                                       core::dp::SecureUrbg& urbg) {
  Trainer trainer{data, epsilon / (2.0 * (depth + 1)), depth, urbg};
  return trainer.Build(rows, std::vector<bool>(data.arity.size(), false), 0);
}

double Id3Fitness(const Id3Node& tree, const DiscretizedTable& data,
                  const std::vector<size_t>& rows) {
  double tp = 0, p = 0, tn = 0, n = 0;
  for (size_t r : rows) {
    const int predicted = Predict(tree, data, r);
    if (data.labels[r]) {
      p += 1;
      tp += predicted;
    } else {
      n += 1;
      tn += 1 - predicted;
    }
  }
  return 3 * (p > 0 ? tp / p : 0) + 2 * (n > 0 ? tn / n : 0);
}

}  // namespace dpq::bench
