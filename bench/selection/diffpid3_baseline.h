// DiffPID3 (Friedman and Schuster, KDD 2010): differentially private ID3
// with the exponential mechanism over information gain and noisy counts.
// A global-sensitivity STAND-IN for the paper's LocalDiffPID3 baseline of
// Figure 2 (which replaces the EM by local dampening; its sensitivity
// function for information gain is not given in the paper). Experiments
// only; randomness from the caller's generator.
#ifndef DPQ_TESTS_BENCH_SELECTION_DIFFPID3_BASELINE_H_
#define DPQ_TESTS_BENCH_SELECTION_DIFFPID3_BASELINE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/table/table.h"

namespace dpq::bench {

// Every feature as a small categorical code: string columns by value,
// numeric columns with at most 16 distinct values by value, other numeric
// columns in 5 equal-width bins over the (public) [min, max].
class DiscretizedTable {
 public:
  static absl::StatusOr<DiscretizedTable> Create(
      const core::table::Table& table, const std::string& label,
      const std::string& positive, const std::vector<std::string>& features);
  size_t num_rows() const { return labels.size(); }
  std::vector<std::vector<int>> codes;  // [feature][row], -1 = NULL
  std::vector<int> arity;               // values per feature
  std::vector<int> labels;              // 1 = positive
};

// A trained tree: inner nodes split on all values of one feature.
struct Id3Node {
  int feature = -1;  // -1: leaf
  int label = 0;
  std::vector<std::unique_ptr<Id3Node>> children;  // by code
};

// Trains on `rows` of `data` with total budget epsilon and depth limit
// `depth` (F&S: epsilon / (2 (depth + 1)) per level for the noisy count
// and the EM at inner nodes, or the noisy class counts at leaves).
std::unique_ptr<Id3Node> TrainDiffPId3(const DiscretizedTable& data,
                                       const std::vector<size_t>& rows,
                                       double epsilon, int depth,
                                       core::dp::SecureUrbg& urbg);

// 3 TPR + 2 TNR of the tree on `rows`.
double Id3Fitness(const Id3Node& tree, const DiscretizedTable& data,
                  const std::vector<size_t>& rows);

}  // namespace dpq::bench

#endif  // DPQ_TESTS_BENCH_SELECTION_DIFFPID3_BASELINE_H_
