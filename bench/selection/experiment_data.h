// Loaders for the datasets of the multi-objective selection paper's
// experiments (dp-multi-objective-selection, Sections 6.3-6.4 and 7.5;
// docs/selection-experiments.md) from ../shared/data. Experiments only.
#ifndef DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_DATA_H_
#define DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_DATA_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/table/table.h"

namespace dpq::bench {

// A tree dataset: the table, its label column and the positive class.
struct TreeDataset {
  std::string name;
  core::table::Table table;
  std::string label;
  std::string positive;
  std::vector<std::string> features;
};

// Adult as the paper's artifact prepares it: predictors age, workclass,
// education-num (nominal), marital status collapsed to married / not
// married, occupation, relationship, race, sex, capital gain and loss,
// hours per week, native country; label income (>50K positive).
absl::StatusOr<TreeDataset> LoadAdult(const std::string& data_dir);

// NLTCS (label column 13) or ACS (label column 10) from the
// whitespace-separated .dat files; every attribute int64 in {0, 1},
// columns named a0, a1, ...; positive class "1".
absl::StatusOr<TreeDataset> LoadBinaryDat(const std::string& data_dir,
                                          const std::string& name,
                                          size_t label_index);

// "github" (musae-github-edges.csv, comma separated, no header) or
// "enron" (email-enron.txt, tab-separated directed pairs, made
// undirected).
absl::StatusOr<core::selection::LabeledGraph> LoadGraph(
    const std::string& data_dir, const std::string& name);

}  // namespace dpq::bench

#endif  // DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_DATA_H_
