// What `dpq` prints: aligned tables and sentences for people, one JSON
// object per command for scripts (--json). Pure functions of the responses,
// so they are tested from canned messages.
#ifndef DPQ_CLIENT_OUTPUT_H_
#define DPQ_CLIENT_OUTPUT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "dpq/v1/ledger.pb.h"
#include "google/protobuf/timestamp.pb.h"

namespace dpq::client {

// A table with a header line and columns aligned by padding with spaces
// (two between columns, no trailing spaces).
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  // Short rows are padded with empty cells; extra cells are kept.
  void AddRow(std::vector<std::string> row);
  size_t num_rows() const { return rows_.size(); }
  // Header, then one line per row, each ending in '\n'.
  std::string Render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// --- Scalars -----------------------------------------------------------

// Epsilon (and other reals) with up to 6 significant digits: 1, 0.333333.
std::string FormatReal(double value);
// "MI", "P", "R" (or "UNSPECIFIED").
std::string MeasureCode(dpq::v1::Measure measure);
// "I_MI (conflicting pairs)", "I_P (tuples in conflicts)",
// "I_R (minimal repair deletions)".
std::string MeasureLabel(dpq::v1::Measure measure);
// "gem", "optimized", "hierarchical", "basic", "baseline" ("" when
// unspecified).
std::string MethodName(dpq::v1::SelectionMethod method);

// What a result estimates: "exact" / "lower_bound" / "upper_bound" (JSON),
// "exact" / "lower bound" / "upper bound" (tables), and the caveat printed
// after the noise bound ("" for exact values).
std::string EstimateCode(dpq::v1::Estimate estimate);
std::string EstimateLabel(dpq::v1::Estimate estimate);
std::string EstimateCaveat(dpq::v1::Estimate estimate);
// "int64", "double", "string", "inferred".
std::string ColumnTypeName(dpq::v1::ColumnType type);
// "RESERVED", "COMMITTED", "REFUNDED", "UNSPECIFIED".
std::string LedgerStateName(dpq::v1::LedgerEntryState state);
// "table" (also for UNSPECIFIED, the default) or "graph".
std::string KindName(dpq::v1::DatasetKind kind);
// A count for tables: integers exactly ("12", "-3"), other values with two
// decimals ("12.35"); non-finite values as "nan"/"inf".
std::string FormatCount(double count);
// RFC 3339 in UTC, e.g. "2024-05-01T12:00:00Z"; "-" if unset (zero).
std::string FormatTimestamp(const google::protobuf::Timestamp& ts);

// --- JSON pieces (each a complete JSON value) --------------------------

// [a,b,c] from already-encoded JSON values.
std::string JsonArray(const std::vector<std::string>& values);
std::string DatasetInfoJson(const dpq::v1::DatasetInfo& info);
std::string BudgetJson(const dpq::v1::Budget& budget);
std::string LedgerEntryJson(const dpq::v1::LedgerEntry& entry);
std::string MeasureResultJson(const dpq::v1::MeasureResult& result);
// {"dimensions":[...],"cells":[{"values":{"A":"a1",...},"count":c},...]}
// (a cell's missing labels are "").
std::string CuboidJson(const dpq::v1::Cuboid& cuboid);
// One tree node: {"leaf":true,"positive":b} or {"leaf":false,"feature":F,
// "op":"<=","threshold":t | "op":"==","category":c,"left":i,"right":j}.
std::string TreeNodeJson(const dpq::v1::DecisionTreeNode& node);

// --- Blocks of text ------------------------------------------------------

// A cuboid as a table: one column per dimension, then COUNT.
std::string CuboidTable(const dpq::v1::Cuboid& cuboid);
// The tree as indented if/else lines ("if age <= 37.5:", "  +", "else:"),
// from nodes[0]; an index out of range or a node reached twice prints as
// "<invalid node i>" instead of looping.
std::string TreeRules(
    const google::protobuf::RepeatedPtrField<dpq::v1::DecisionTreeNode>& nodes);

// --- Whole command outputs (each ends in '\n') --------------------------

std::string HealthText(const std::string& status_name, bool json);
std::string DatasetsText(const dpq::v1::ListDatasetsResponse& resp, bool json);
std::string DescribeText(const dpq::v1::DescribeDatasetResponse& resp,
                         bool json);
// `dataset_id`: the filter asked for ("" = all).
std::string BudgetText(const dpq::v1::GetBudgetResponse& resp,
                       absl::string_view dataset_id, bool include_history,
                       bool json);
// JSON: {"dataset","measure","value","epsilon_charged","remaining_budget",
// "theta" (null for R),"bound95","method","request_id","replayed"}.
std::string MeasureText(absl::string_view dataset_id,
                        const dpq::v1::MeasureInconsistencyResponse& resp,
                        bool json);
// JSON: {"dataset","results":[{measure,value,epsilon,theta,bound95,method}],
// "epsilon_charged","remaining_budget","request_id","replayed"}.
std::string ReportText(absl::string_view dataset_id,
                       const dpq::v1::QualityReportResponse& resp, bool json);
// JSON: {"dataset","cuboids":[{dimensions, noise_stddev, cells}],
// "strategy","sensitivity","epsilon_charged","remaining_budget",
// "request_id","replayed"}.
std::string CuboidsText(absl::string_view dataset_id,
                        const dpq::v1::ReleaseCuboidsResponse& resp, bool json);
// `label`/`positive`: what the tree predicts (from the request).
// JSON: {"dataset","label","positive_class","tree_text","depth","nodes":[...],
// "tpr","tnr" (null unless released),"epsilon_charged","remaining_budget",
// "request_id","replayed"}.
std::string TreeText(absl::string_view dataset_id, absl::string_view label,
                     absl::string_view positive,
                     const dpq::v1::TrainDecisionTreeResponse& resp, bool json);
// JSON: {"dataset","nodes":[ids],"epsilon_charged","remaining_budget",
// "request_id","replayed"}.
std::string TopNodesText(absl::string_view dataset_id,
                         const dpq::v1::SelectInfluentialNodesResponse& resp,
                         bool json);
// Register (`replaced` false) and replace (true).
std::string UploadText(const dpq::v1::DatasetInfo& info,
                       const dpq::v1::DatasetStats& stats,
                       const google::protobuf::RepeatedPtrField<std::string>&
                           notes,
                       bool replaced, bool json);
std::string DeleteText(absl::string_view dataset_id, bool json);
std::string AdminDatasetsText(const dpq::v1::AdminListDatasetsResponse& resp,
                              bool json);
// JSON: exactly {"buyer": ..., "token": ...}.
std::string CreateBuyerText(const dpq::v1::CreateBuyerResponse& resp,
                            bool json);
std::string RevokeBuyerText(absl::string_view buyer_id, bool json);
std::string BuyersText(const dpq::v1::ListBuyersResponse& resp, bool json);
// Grant and set-budget: the budget after the change.
std::string BudgetChangeText(const dpq::v1::Budget& budget, bool json);
std::string SetCapText(absl::string_view dataset_id, double cap, bool json);
std::string LedgerText(const dpq::v1::ListLedgerResponse& resp, bool json);
std::string AuditText(const dpq::v1::ListAuditLogResponse& resp, bool json);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_OUTPUT_H_
