#include "client/output.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "client/terminal_text.h"
#include "core/util/json_writer.h"

namespace dpq::client {
namespace {

using core::util::JsonObjectWriter;
using core::util::JsonQuote;

std::string Line(const JsonObjectWriter& w) { return w.Finish() + "\n"; }

// Every text and table output passes server-provided strings through
// TerminalSafe (owner text must not drive the buyer's terminal or forge
// lines). TerminalSafe is idempotent, so text escaped twice prints the same.
std::string Safe(absl::string_view s) { return TerminalSafe(s); }

std::string OrDash(absl::string_view s) {
  return s.empty() ? "-" : Safe(s);
}

std::string MeasuresList(const dpq::v1::DatasetInfo& info,
                         absl::string_view sep) {
  std::vector<std::string> codes;
  for (int m : info.supported_measures()) {
    codes.push_back(MeasureCode(static_cast<dpq::v1::Measure>(m)));
  }
  return absl::StrJoin(codes, sep);
}

void AddTimestamp(JsonObjectWriter& w, absl::string_view key,
                  const google::protobuf::Timestamp& ts) {
  if (ts.seconds() == 0 && ts.nanos() == 0) {
    w.AddNull(key);
  } else {
    w.Add(key, FormatTimestamp(ts));
  }
}

std::string BudgetTable(
    const google::protobuf::RepeatedPtrField<dpq::v1::Budget>& budgets,
    bool with_buyer) {
  std::vector<std::string> header;
  if (with_buyer) header.push_back("BUYER");
  for (const char* h :
       {"DATASET", "GRANTED", "SPENT", "RESERVED", "REMAINING"}) {
    header.push_back(h);
  }
  TextTable table(std::move(header));
  for (const dpq::v1::Budget& b : budgets) {
    std::vector<std::string> row;
    if (with_buyer) row.push_back(b.buyer_id());
    row.push_back(b.dataset_id());
    row.push_back(FormatReal(b.granted()));
    row.push_back(FormatReal(b.spent()));
    row.push_back(FormatReal(b.reserved()));
    row.push_back(FormatReal(b.remaining()));
    table.AddRow(std::move(row));
  }
  return table.Render();
}

std::string LedgerTable(
    const google::protobuf::RepeatedPtrField<dpq::v1::LedgerEntry>& entries,
    bool with_buyer) {
  std::vector<std::string> header = {"ENTRY", "CREATED"};
  if (with_buyer) header.push_back("BUYER");
  for (const char* h :
       {"DATASET", "OPERATION", "EPSILON", "STATE", "REQUEST_ID"}) {
    header.push_back(h);
  }
  TextTable table(std::move(header));
  for (const dpq::v1::LedgerEntry& e : entries) {
    std::vector<std::string> row = {absl::StrCat(e.entry_id()),
                                    FormatTimestamp(e.created_at())};
    if (with_buyer) row.push_back(e.buyer_id());
    row.push_back(e.dataset_id());
    row.push_back(OrDash(e.operation()));
    row.push_back(FormatReal(e.epsilon()));
    row.push_back(LedgerStateName(e.state()));
    row.push_back(OrDash(e.request_id()));
    table.AddRow(std::move(row));
  }
  return table.Render();
}

template <typename Items, typename ToJson>
std::string JsonArrayOf(const Items& items, ToJson to_json) {
  std::vector<std::string> values;
  values.reserve(static_cast<size_t>(items.size()));
  for (const auto& item : items) values.push_back(to_json(item));
  return JsonArray(values);
}

// [{"values":{"A":"a1",...},"count":c},...]: the cells of a cuboid.
std::string CellsJson(const dpq::v1::Cuboid& cuboid) {
  return JsonArrayOf(cuboid.cells(), [&cuboid](const dpq::v1::CuboidCell& c) {
    JsonObjectWriter values;
    for (int i = 0; i < cuboid.dimensions_size(); ++i) {
      values.Add(cuboid.dimensions(i), i < c.values_size() ? c.values(i) : "");
    }
    JsonObjectWriter cell;
    cell.AddRaw("values", values.Finish());
    cell.Add("count", c.count());
    return cell.Finish();
  });
}

// "charged epsilon 1, remaining 2" (or the replay wording).
std::string ChargeSentence(double charged, double remaining, bool replayed) {
  if (replayed) {
    return absl::StrCat("charged epsilon ", FormatReal(charged),
                        " (recorded answer of an earlier call), remaining ",
                        FormatReal(remaining));
  }
  return absl::StrCat("charged epsilon ", FormatReal(charged), ", remaining ",
                      FormatReal(remaining));
}

// The closing lines of every release: what was charged, what is left, and
// the request id to retry with. `Response` is any release response message.
template <typename Response>
void AppendChargeLines(const Response& resp, std::string* out) {
  absl::StrAppend(out,
                  ChargeSentence(resp.epsilon_charged(),
                                 resp.remaining_budget(), resp.replayed()),
                  "\n", "request id: ", OrDash(resp.request_id()), "\n");
}

// "per_cuboid" -> "per cuboid"; "" -> "-".
std::string Words(absl::string_view code) {
  if (code.empty()) return "-";
  std::string text = Safe(code);
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

// The name of a cuboid for people: "Sex, Age", or "(total)" for the apex.
std::string CuboidName(const dpq::v1::Cuboid& cuboid) {
  if (cuboid.dimensions().empty()) return "(total)";
  return Safe(absl::StrJoin(cuboid.dimensions(), ", "));
}

// "sex == 'Male'" or "age <= 37.5".
std::string TestText(const dpq::v1::DecisionTreeNode& node) {
  if (node.numeric_test()) {
    return absl::StrCat(Safe(node.feature()), " <= ",
                        FormatReal(node.threshold()));
  }
  return absl::StrCat(Safe(node.feature()), " == ",
                      Safe(JsonQuote(node.category())));
}

constexpr int kMaxRulesDepth = 64;

void AppendRules(
    const google::protobuf::RepeatedPtrField<dpq::v1::DecisionTreeNode>& nodes,
    int index, int indent, absl::flat_hash_set<int>& seen, std::string* out) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  // A tree reaches every node once; anything else is a malformed answer,
  // printed rather than followed.
  if (index < 0 || index >= nodes.size() || !seen.insert(index).second) {
    absl::StrAppend(out, pad, "<invalid node ", index, ">\n");
    return;
  }
  const dpq::v1::DecisionTreeNode& node = nodes[index];
  // Bounds the recursion for any answer; real trees are far shallower.
  if (indent >= kMaxRulesDepth && !node.leaf()) {
    absl::StrAppend(out, pad, "... (deeper levels omitted; see --json)\n");
    return;
  }
  if (node.leaf()) {
    absl::StrAppend(out, pad, node.positive() ? "+" : "-", "\n");
    return;
  }
  absl::StrAppend(out, pad, "if ", TestText(node), ":\n");
  AppendRules(nodes, node.left(), indent + 1, seen, out);
  absl::StrAppend(out, pad, "else:\n");
  AppendRules(nodes, node.right(), indent + 1, seen, out);
}

}  // namespace

// --- TextTable -----------------------------------------------------------

namespace {

// Columns a cell takes on a terminal: UTF-8 code points (so that "\u00b1"
// counts once).
size_t DisplayWidth(absl::string_view cell) {
  size_t width = 0;
  for (char c : cell) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header)
    : header_(std::move(header)) {
  for (std::string& cell : header_) cell = Safe(cell);
}

void TextTable::AddRow(std::vector<std::string> row) {
  if (row.size() < header_.size()) row.resize(header_.size());
  // A cell is one line: a newline in it would forge a row.
  for (std::string& cell : row) cell = Safe(cell);
  rows_.push_back(std::move(row));
}

std::string TextTable::Render() const {
  std::vector<size_t> widths(header_.size(), 0);
  auto widen = [&widths](const std::vector<std::string>& row) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  };
  widen(header_);
  for (const auto& row : rows_) widen(row);
  auto render_row = [&widths](const std::vector<std::string>& row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line.append(widths[i] - DisplayWidth(row[i]) + 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string out = render_row(header_);
  for (const auto& row : rows_) out += render_row(row);
  return out;
}

// --- Scalars ---------------------------------------------------------------

std::string FormatReal(double value) {
  if (value == 0) return "0";  // also -0
  return absl::StrFormat("%.6g", value);
}

std::string MeasureCode(dpq::v1::Measure measure) {
  switch (measure) {
    case dpq::v1::MEASURE_MI:
      return "MI";
    case dpq::v1::MEASURE_P:
      return "P";
    case dpq::v1::MEASURE_R:
      return "R";
    default:
      return "UNSPECIFIED";
  }
}

std::string MeasureLabel(dpq::v1::Measure measure) {
  switch (measure) {
    case dpq::v1::MEASURE_MI:
      return "I_MI (conflicting pairs)";
    case dpq::v1::MEASURE_P:
      return "I_P (tuples in conflicts)";
    case dpq::v1::MEASURE_R:
      return "I_R (minimal repair deletions)";
    default:
      return "unspecified measure";
  }
}

std::string EstimateCode(dpq::v1::Estimate estimate) {
  switch (estimate) {
    case dpq::v1::ESTIMATE_EXACT:
      return "exact";
    case dpq::v1::ESTIMATE_LOWER_BOUND:
      return "lower_bound";
    case dpq::v1::ESTIMATE_UPPER_BOUND:
      return "upper_bound";
    default:
      return "unspecified";
  }
}

std::string EstimateLabel(dpq::v1::Estimate estimate) {
  switch (estimate) {
    case dpq::v1::ESTIMATE_EXACT:
      return "exact";
    case dpq::v1::ESTIMATE_LOWER_BOUND:
      return "lower bound";
    case dpq::v1::ESTIMATE_UPPER_BOUND:
      return "upper bound";
    default:
      return "-";
  }
}

std::string EstimateCaveat(dpq::v1::Estimate estimate) {
  switch (estimate) {
    case dpq::v1::ESTIMATE_LOWER_BOUND:
      return "; estimates a lower bound: may undercount";
    case dpq::v1::ESTIMATE_UPPER_BOUND:
      return "; estimates an upper bound: may overcount up to 2x";
    default:
      return "";
  }
}

std::string MethodName(dpq::v1::SelectionMethod method) {
  switch (method) {
    case dpq::v1::SELECTION_METHOD_GEM:
      return "gem";
    case dpq::v1::SELECTION_METHOD_OPTIMIZED:
      return "optimized";
    case dpq::v1::SELECTION_METHOD_HIERARCHICAL:
      return "hierarchical";
    case dpq::v1::SELECTION_METHOD_BASIC:
      return "basic";
    case dpq::v1::SELECTION_METHOD_BASELINE:
      return "baseline";
    default:
      return "";
  }
}

std::string ColumnTypeName(dpq::v1::ColumnType type) {
  switch (type) {
    case dpq::v1::COLUMN_TYPE_INT64:
      return "int64";
    case dpq::v1::COLUMN_TYPE_DOUBLE:
      return "double";
    case dpq::v1::COLUMN_TYPE_STRING:
      return "string";
    default:
      return "inferred";
  }
}

std::string LedgerStateName(dpq::v1::LedgerEntryState state) {
  switch (state) {
    case dpq::v1::LEDGER_ENTRY_STATE_RESERVED:
      return "RESERVED";
    case dpq::v1::LEDGER_ENTRY_STATE_COMMITTED:
      return "COMMITTED";
    case dpq::v1::LEDGER_ENTRY_STATE_REFUNDED:
      return "REFUNDED";
    case dpq::v1::LEDGER_ENTRY_STATE_CHARGED:
      return "CHARGED";
    default:
      return "UNSPECIFIED";
  }
}

std::string KindName(dpq::v1::DatasetKind kind) {
  return kind == dpq::v1::DATASET_KIND_GRAPH ? "graph" : "table";
}

std::string FormatCount(double count) {
  if (std::isnan(count)) return "nan";
  if (std::isinf(count)) return count > 0 ? "inf" : "-inf";
  // Below 2^53 every integer is exact, and the cast cannot overflow.
  if (std::fabs(count) < 9007199254740992.0 && count == std::trunc(count)) {
    return absl::StrCat(static_cast<int64_t>(count));
  }
  return absl::StrFormat("%.2f", count);
}

std::string FormatTimestamp(const google::protobuf::Timestamp& ts) {
  if (ts.seconds() == 0 && ts.nanos() == 0) return "-";
  const absl::Time t =
      absl::FromUnixSeconds(ts.seconds()) + absl::Nanoseconds(ts.nanos());
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// --- JSON pieces -----------------------------------------------------------

std::string JsonArray(const std::vector<std::string>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ","), "]");
}

std::string DatasetInfoJson(const dpq::v1::DatasetInfo& info) {
  JsonObjectWriter w;
  w.Add("dataset", info.dataset_id());
  w.Add("description", info.description());
  w.Add("version", static_cast<uint64_t>(info.version()));
  w.AddRaw("columns", JsonArrayOf(info.columns(), [](const dpq::v1::Column& c) {
             JsonObjectWriter col;
             col.Add("name", c.name());
             col.Add("type", ColumnTypeName(c.type()));
             return col.Finish();
           }));
  w.AddRaw("constraints",
           JsonArrayOf(info.constraints(),
                       [](const std::string& dc) { return JsonQuote(dc); }));
  w.Add("public_max_rows", static_cast<uint64_t>(info.public_max_rows()));
  w.Add("row_count_public", info.row_count_public());
  if (info.row_count_public()) {
    w.Add("row_count", static_cast<uint64_t>(info.row_count()));
  } else {
    w.AddNull("row_count");
  }
  w.AddRaw("supported_measures",
           JsonArrayOf(info.supported_measures(), [](int m) {
             return JsonQuote(MeasureCode(static_cast<dpq::v1::Measure>(m)));
           }));
  w.Add("neighbouring", info.neighbouring());
  w.Add("charge_multiplier", static_cast<uint64_t>(info.charge_multiplier()));
  AddTimestamp(w, "registered_at", info.registered_at());
  w.Add("kind", KindName(info.kind()));
  if (info.kind() == dpq::v1::DATASET_KIND_GRAPH) {
    w.Add("node_count", static_cast<uint64_t>(info.node_count()));
  } else {
    w.Add("exact_repair", info.exact_repair());
  }
  w.AddRaw("cube_dimensions",
           JsonArrayOf(
               info.cube_dimensions(), [](const dpq::v1::CubeDimensionInfo& d) {
                 JsonObjectWriter dim;
                 dim.Add("column", d.column());
                 dim.AddRaw("labels", JsonArrayOf(d.labels(), JsonQuote));
                 return dim.Finish();
               }));
  w.AddRaw("public_cuboids", JsonArrayOf(info.public_cuboids(), CuboidJson));
  w.AddRaw("supported_releases",
           JsonArrayOf(info.supported_releases(), JsonQuote));
  return w.Finish();
}

std::string BudgetJson(const dpq::v1::Budget& budget) {
  JsonObjectWriter w;
  w.Add("buyer", budget.buyer_id());
  w.Add("dataset", budget.dataset_id());
  w.Add("granted", budget.granted());
  w.Add("spent", budget.spent());
  w.Add("reserved", budget.reserved());
  w.Add("remaining", budget.remaining());
  return w.Finish();
}

std::string LedgerEntryJson(const dpq::v1::LedgerEntry& e) {
  JsonObjectWriter w;
  w.Add("entry_id", static_cast<int64_t>(e.entry_id()));
  w.Add("buyer", e.buyer_id());
  w.Add("dataset", e.dataset_id());
  w.Add("request_id", e.request_id());
  w.Add("operation", e.operation());
  w.Add("epsilon", e.epsilon());
  w.Add("state", LedgerStateName(e.state()));
  AddTimestamp(w, "created_at", e.created_at());
  AddTimestamp(w, "settled_at", e.settled_at());
  w.Add("neighbouring", e.neighbouring());
  return w.Finish();
}

std::string MeasureResultJson(const dpq::v1::MeasureResult& r) {
  JsonObjectWriter w;
  w.Add("measure", MeasureCode(r.measure()));
  w.Add("value", static_cast<int64_t>(r.value()));
  w.Add("epsilon", r.epsilon());
  if (r.measure() == dpq::v1::MEASURE_R) {
    w.AddNull("theta");
  } else {
    w.Add("theta", static_cast<uint32_t>(r.theta()));
  }
  w.Add("bound95", static_cast<int64_t>(r.bound95()));
  w.Add("method", r.method());
  w.Add("estimates", EstimateCode(r.estimate()));
  return w.Finish();
}

std::string CuboidJson(const dpq::v1::Cuboid& cuboid) {
  JsonObjectWriter w;
  w.AddRaw("dimensions", JsonArrayOf(cuboid.dimensions(), JsonQuote));
  w.AddRaw("cells", CellsJson(cuboid));
  return w.Finish();
}

std::string TreeNodeJson(const dpq::v1::DecisionTreeNode& node) {
  JsonObjectWriter w;
  w.Add("leaf", node.leaf());
  if (node.leaf()) {
    w.Add("positive", node.positive());
    return w.Finish();
  }
  w.Add("feature", node.feature());
  if (node.numeric_test()) {
    w.Add("op", "<=");
    w.Add("threshold", node.threshold());
  } else {
    w.Add("op", "==");
    w.Add("category", node.category());
  }
  w.Add("left", static_cast<int64_t>(node.left()));
  w.Add("right", static_cast<int64_t>(node.right()));
  return w.Finish();
}

// --- Blocks of text ----------------------------------------------------------

std::string CuboidTable(const dpq::v1::Cuboid& cuboid) {
  std::vector<std::string> header(cuboid.dimensions().begin(),
                                  cuboid.dimensions().end());
  header.push_back("COUNT");
  TextTable table(std::move(header));
  for (const dpq::v1::CuboidCell& c : cuboid.cells()) {
    std::vector<std::string> row;
    for (int i = 0; i < cuboid.dimensions_size(); ++i) {
      row.push_back(i < c.values_size() ? c.values(i) : "");
    }
    row.push_back(FormatCount(c.count()));
    table.AddRow(std::move(row));
  }
  return table.Render();
}

std::string TreeRules(
    const google::protobuf::RepeatedPtrField<dpq::v1::DecisionTreeNode>&
        nodes) {
  if (nodes.empty()) return "(empty tree)\n";
  std::string out;
  absl::flat_hash_set<int> seen;
  AppendRules(nodes, 0, 0, seen, &out);
  return out;
}

// --- Commands ----------------------------------------------------------------

std::string HealthText(const std::string& status_name, bool json) {
  if (json) return Line(JsonObjectWriter().Add("status", status_name));
  return status_name + "\n";
}

std::string DatasetsText(const dpq::v1::ListDatasetsResponse& resp, bool json) {
  if (json) {
    return Line(JsonObjectWriter().AddRaw(
        "datasets", JsonArrayOf(resp.datasets(), DatasetInfoJson)));
  }
  TextTable table(
      {"ID", "VERSION", "KIND", "MAX_ROWS", "ROWS", "MEASURES", "DESCRIPTION"});
  for (const dpq::v1::DatasetInfo& d : resp.datasets()) {
    // A graph has no row bound and answers no measures.
    const bool graph = d.kind() == dpq::v1::DATASET_KIND_GRAPH;
    table.AddRow({d.dataset_id(), absl::StrCat(d.version()), KindName(d.kind()),
                  graph ? "-" : absl::StrCat(d.public_max_rows()),
                  d.row_count_public() ? absl::StrCat(d.row_count()) : "-",
                  OrDash(MeasuresList(d, ",")), OrDash(d.description())});
  }
  return table.Render();
}

std::string DescribeText(const dpq::v1::DescribeDatasetResponse& resp,
                         bool json) {
  const dpq::v1::DatasetInfo& d = resp.dataset();
  if (json) return DatasetInfoJson(d) + "\n";
  std::string out;
  absl::StrAppend(&out, "dataset:          ", Safe(d.dataset_id()), "\n");
  absl::StrAppend(&out, "description:      ", OrDash(d.description()), "\n");
  absl::StrAppend(&out, "version:          ", d.version(), " (registered ",
                  FormatTimestamp(d.registered_at()), ")\n");
  absl::StrAppend(&out, "kind:             ", KindName(d.kind()), "\n");
  absl::StrAppend(&out, "privacy unit:     ", OrDash(d.neighbouring()), "\n");
  if (d.charge_multiplier() > 1) {
    absl::StrAppend(&out, "charges:          ReleaseCuboids: epsilon; other "
                    "releases: ", d.charge_multiplier(),
                    " x epsilon (the public exact cuboids)\n");
  }
  absl::StrAppend(&out, "releases:         ",
                  OrDash(absl::StrJoin(d.supported_releases(), ", ")), "\n");
  // A graph (edge list) has none of a table's schema, bounds or cube.
  if (d.kind() == dpq::v1::DATASET_KIND_GRAPH) {
    absl::StrAppend(&out, "nodes:            ", d.node_count(),
                    " (declared by the owner)\n");
    return out;
  }
  absl::StrAppend(&out, "public max rows:  ", d.public_max_rows(), "\n");
  absl::StrAppend(&out, "row count:        ",
                  d.row_count_public() ? absl::StrCat(d.row_count())
                                       : std::string("not public"),
                  "\n");
  absl::StrAppend(&out, "measures:         ", MeasuresList(d, ", "), "\n");
  absl::StrAppend(&out, "I_R released as:  ",
                  d.exact_repair()
                      ? "the exact minimum repair (owner's exact_repair)"
                      : "a lower bound (cover_bound: clique LP)",
                  "\n");
  absl::StrAppend(&out, "columns:\n");
  TextTable columns({"  NAME", "TYPE"});
  for (const dpq::v1::Column& c : d.columns()) {
    columns.AddRow({absl::StrCat("  ", c.name()), ColumnTypeName(c.type())});
  }
  out += columns.Render();
  absl::StrAppend(&out, "constraints:\n");
  int n = 0;
  for (const std::string& dc : d.constraints()) {
    absl::StrAppend(&out, "  ", ++n, ". ", Safe(dc), "\n");
  }
  if (n == 0) out += "  (none)\n";
  absl::StrAppend(&out, "cube dimensions:\n");
  for (const dpq::v1::CubeDimensionInfo& dim : d.cube_dimensions()) {
    absl::StrAppend(&out, "  ", Safe(dim.column()), ": ",
                    Safe(absl::StrJoin(dim.labels(), ", ")), "\n");
  }
  if (d.cube_dimensions().empty()) out += "  (none)\n";
  absl::StrAppend(&out, "public exact cuboids:\n");
  n = 0;
  for (const dpq::v1::Cuboid& cuboid : d.public_cuboids()) {
    absl::StrAppend(&out, "  ", ++n, ". ", CuboidName(cuboid), "\n");
    for (absl::string_view line :
         absl::StrSplit(CuboidTable(cuboid), '\n', absl::SkipEmpty())) {
      absl::StrAppend(&out, "     ", line, "\n");
    }
  }
  if (n == 0) out += "  (none)\n";
  return out;
}

std::string BudgetText(const dpq::v1::GetBudgetResponse& resp,
                       absl::string_view dataset_id, bool include_history,
                       bool json) {
  if (json) {
    JsonObjectWriter w;
    w.AddRaw("budgets", JsonArrayOf(resp.budgets(), BudgetJson));
    if (include_history) {
      w.AddRaw("history", JsonArrayOf(resp.history(), LedgerEntryJson));
    }
    return Line(w);
  }
  std::string out;
  if (resp.budgets().empty()) {
    out = dataset_id.empty()
              ? std::string("No budget granted on any dataset.\n")
              : absl::StrCat("No budget granted on ", Safe(dataset_id), ".\n");
  } else {
    out = BudgetTable(resp.budgets(), /*with_buyer=*/false);
  }
  if (include_history) {
    absl::StrAppend(&out, "\nHistory (newest first):\n",
                    LedgerTable(resp.history(), /*with_buyer=*/false));
  }
  return out;
}

std::string MeasureText(absl::string_view dataset_id,
                        const dpq::v1::MeasureInconsistencyResponse& resp,
                        bool json) {
  const dpq::v1::MeasureResult& r = resp.result();
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", dataset_id);
    w.Add("measure", MeasureCode(r.measure()));
    w.Add("value", static_cast<int64_t>(r.value()));
    w.Add("epsilon_charged", resp.epsilon_charged());
    w.Add("remaining_budget", resp.remaining_budget());
    if (r.measure() == dpq::v1::MEASURE_R) {
      w.AddNull("theta");
    } else {
      w.Add("theta", static_cast<uint32_t>(r.theta()));
    }
    w.Add("bound95", static_cast<int64_t>(r.bound95()));
    w.Add("method", r.method());
    w.Add("estimates", EstimateCode(r.estimate()));
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  std::string out =
      absl::StrCat(MeasureLabel(r.measure()), " ~ ", r.value(), " \u00b1 ",
                   r.bound95(), " (95% noise", EstimateCaveat(r.estimate()),
                   ")");
  if (r.measure() != dpq::v1::MEASURE_R) {
    absl::StrAppend(&out, ", theta ", r.theta());
  }
  if (!r.method().empty()) absl::StrAppend(&out, ", method ", Safe(r.method()));
  absl::StrAppend(&out, "; ",
                  ChargeSentence(resp.epsilon_charged(),
                                 resp.remaining_budget(), resp.replayed()),
                  "\n");
  absl::StrAppend(&out, "request id: ", OrDash(resp.request_id()), "\n");
  return out;
}

std::string ReportText(absl::string_view dataset_id,
                       const dpq::v1::QualityReportResponse& resp, bool json) {
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", dataset_id);
    w.AddRaw("results", JsonArrayOf(resp.results(), MeasureResultJson));
    w.Add("epsilon_charged", resp.epsilon_charged());
    w.Add("remaining_budget", resp.remaining_budget());
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  TextTable table({"MEASURE", "VALUE", "\u00b195%", "ESTIMATES", "THETA",
                   "EPSILON", "METHOD"});
  for (const dpq::v1::MeasureResult& r : resp.results()) {
    table.AddRow({MeasureLabel(r.measure()), absl::StrCat(r.value()),
                  absl::StrCat(r.bound95()), EstimateLabel(r.estimate()),
                  r.measure() == dpq::v1::MEASURE_R ? std::string("-")
                                                    : absl::StrCat(r.theta()),
                  FormatReal(r.epsilon()), OrDash(r.method())});
  }
  std::string out =
      absl::StrCat("Quality report for ", Safe(dataset_id), ":\n");
  out += table.Render();
  AppendChargeLines(resp, &out);
  return out;
}

std::string CuboidsText(absl::string_view dataset_id,
                        const dpq::v1::ReleaseCuboidsResponse& resp,
                        bool json) {
  auto stddev = [&resp](int i) -> std::optional<double> {
    if (i < resp.noise_stddev_size()) return resp.noise_stddev(i);
    return std::nullopt;
  };
  if (json) {
    std::vector<std::string> cuboids;
    for (int i = 0; i < resp.cuboids_size(); ++i) {
      const dpq::v1::Cuboid& c = resp.cuboids(i);
      JsonObjectWriter w;
      w.AddRaw("dimensions", JsonArrayOf(c.dimensions(), JsonQuote));
      if (std::optional<double> sd = stddev(i); sd.has_value()) {
        w.Add("noise_stddev", *sd);
      } else {
        w.AddNull("noise_stddev");
      }
      w.AddRaw("cells", CellsJson(c));
      cuboids.push_back(w.Finish());
    }
    JsonObjectWriter w;
    w.Add("dataset", dataset_id);
    w.AddRaw("cuboids", JsonArray(cuboids));
    w.Add("strategy", resp.strategy());
    w.Add("sensitivity", resp.sensitivity());
    w.Add("epsilon_charged", resp.epsilon_charged());
    w.Add("remaining_budget", resp.remaining_budget());
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  std::string out;
  for (int i = 0; i < resp.cuboids_size(); ++i) {
    const dpq::v1::Cuboid& c = resp.cuboids(i);
    const std::optional<double> sd = stddev(i);
    absl::StrAppend(&out, i == 0 ? "" : "\n", "Cuboid ", i + 1, " of ",
                    Safe(dataset_id), ": ", CuboidName(c), " (noise stddev ",
                    sd.has_value() ? FormatReal(*sd) : std::string("-"),
                    " per cell)\n", CuboidTable(c));
  }
  absl::StrAppend(&out, resp.cuboids().empty() ? "" : "\n", "strategy ",
                  Words(resp.strategy()), ", sensitivity ",
                  FormatReal(resp.sensitivity()), "; ",
                  ChargeSentence(resp.epsilon_charged(),
                                 resp.remaining_budget(), resp.replayed()),
                  "\n");
  absl::StrAppend(&out, "request id: ", OrDash(resp.request_id()), "\n");
  return out;
}

std::string TreeText(absl::string_view dataset_id, absl::string_view label,
                     absl::string_view positive,
                     const dpq::v1::TrainDecisionTreeResponse& resp,
                     bool json) {
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", dataset_id);
    w.Add("label", label);
    w.Add("positive_class", positive);
    w.Add("tree_text", resp.tree_text());
    w.Add("depth", static_cast<uint32_t>(resp.depth()));
    w.AddRaw("nodes", JsonArrayOf(resp.nodes(), TreeNodeJson));
    if (resp.has_tpr()) {
      w.Add("tpr", resp.tpr());
    } else {
      w.AddNull("tpr");
    }
    if (resp.has_tnr()) {
      w.Add("tnr", resp.tnr());
    } else {
      w.AddNull("tnr");
    }
    w.Add("epsilon_charged", resp.epsilon_charged());
    w.Add("remaining_budget", resp.remaining_budget());
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  std::string out = absl::StrCat(
      "Decision tree for ", Safe(dataset_id), " (depth ", resp.depth(),
      "; +: ", Safe(label), " == ", Safe(JsonQuote(positive)),
      ", -: otherwise; NULL takes else):\n", OrDash(resp.tree_text()), "\n\n",
      TreeRules(resp.nodes()), "\n");
  if (resp.has_tpr() || resp.has_tnr()) {
    absl::StrAppend(
        &out, "DP accuracy on the training data: TPR ",
        resp.has_tpr() ? FormatReal(resp.tpr()) : std::string("-"), ", TNR ",
        resp.has_tnr() ? FormatReal(resp.tnr()) : std::string("-"), "\n");
  } else {
    absl::StrAppend(&out,
                    "TPR/TNR not released (pay for them with "
                    "--accuracy-epsilon)\n");
  }
  AppendChargeLines(resp, &out);
  return out;
}

std::string TopNodesText(absl::string_view dataset_id,
                         const dpq::v1::SelectInfluentialNodesResponse& resp,
                         bool json) {
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", dataset_id);
    w.AddRaw("nodes", JsonArrayOf(resp.nodes(), JsonQuote));
    w.Add("epsilon_charged", resp.epsilon_charged());
    w.Add("remaining_budget", resp.remaining_budget());
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  TextTable table({"RANK", "NODE"});
  int rank = 0;
  for (const std::string& node : resp.nodes()) {
    table.AddRow({absl::StrCat(++rank), node});
  }
  std::string out = absl::StrCat("Influential nodes of ", Safe(dataset_id),
                                 " (in selection order):\n", table.Render());
  AppendChargeLines(resp, &out);
  return out;
}

std::string UploadText(const dpq::v1::DatasetInfo& info,
                       const dpq::v1::DatasetStats& stats,
                       const google::protobuf::RepeatedPtrField<std::string>&
                           notes,
                       bool replaced, bool json) {
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", info.dataset_id());
    w.Add("version", static_cast<uint64_t>(info.version()));
    w.Add("rows", static_cast<uint64_t>(stats.rows()));
    w.Add("csv_bytes", static_cast<uint64_t>(stats.csv_bytes()));
    w.Add("edges", static_cast<uint64_t>(stats.edges()));
    w.Add("graph_build_seconds", stats.graph_build_seconds());
    w.Add("public_max_rows", static_cast<uint64_t>(info.public_max_rows()));
    w.Add("kind", KindName(info.kind()));
    w.Add("nodes", static_cast<uint64_t>(stats.nodes()));
    w.Add("graph_ready", stats.graph_ready());
    w.Add("graph_error", stats.graph_error());
    w.Add("charge_multiplier", static_cast<uint64_t>(info.charge_multiplier()));
    w.AddRaw("notes", JsonArrayOf(notes, JsonQuote));
    return Line(w);
  }
  std::string out;
  if (info.kind() == dpq::v1::DATASET_KIND_GRAPH) {
    out = absl::StrCat(
        replaced ? "Replaced " : "Registered ", Safe(info.dataset_id()),
        " (version ",
        info.version(), "): a graph with ", stats.nodes(),
        " declared nodes and ", stats.edges(), " edges, ", stats.csv_bytes(),
        " bytes.\n");
  } else {
    const std::string head = absl::StrCat(
        replaced ? "Replaced " : "Registered ", Safe(info.dataset_id()),
        " (version ", info.version(), "): ", stats.rows(), " rows, ",
        stats.csv_bytes(), " bytes");
    if (!stats.graph_error().empty()) {
      out = absl::StrCat(head, "; the conflict graph failed: ",
                         Safe(stats.graph_error()), "\n");
    } else {
      out = absl::StrCat(head, ", ", stats.edges(),
                         " conflicting pairs; graph built in ",
                         FormatReal(stats.graph_build_seconds()), " s.\n");
    }
  }
  for (const std::string& note : notes) {
    absl::StrAppend(&out, "Note: ", Safe(note), "\n");
  }
  return out;
}

std::string DeleteText(absl::string_view dataset_id, bool json) {
  if (json) {
    return Line(
        JsonObjectWriter().Add("dataset", dataset_id).Add("deleted", true));
  }
  return absl::StrCat("Deleted ", Safe(dataset_id),
                      " (its ledger entries are kept).\n");
}

std::string AdminDatasetsText(const dpq::v1::AdminListDatasetsResponse& resp,
                              bool json) {
  if (json) {
    return Line(JsonObjectWriter().AddRaw(
        "datasets",
        JsonArrayOf(resp.datasets(), [](const dpq::v1::AdminDatasetInfo& a) {
          JsonObjectWriter w;
          w.Add("dataset", a.dataset().dataset_id());
          w.Add("version", static_cast<uint64_t>(a.dataset().version()));
          w.Add("rows", static_cast<uint64_t>(a.stats().rows()));
          w.Add("csv_bytes", static_cast<uint64_t>(a.stats().csv_bytes()));
          w.Add("edges", static_cast<uint64_t>(a.stats().edges()));
          w.Add("graph_build_seconds", a.stats().graph_build_seconds());
          w.Add("public_max_rows",
                static_cast<uint64_t>(a.dataset().public_max_rows()));
          w.Add("cap", a.cap());
          w.Add("spent_all_buyers", a.spent_all_buyers());
          w.Add("description", a.dataset().description());
          return w.Finish();
        })));
  }
  TextTable table({"ID", "VERSION", "ROWS", "MAX_ROWS", "CSV_BYTES", "EDGES",
                   "CAP", "SPENT_ALL"});
  for (const dpq::v1::AdminDatasetInfo& a : resp.datasets()) {
    table.AddRow({a.dataset().dataset_id(), absl::StrCat(a.dataset().version()),
                  absl::StrCat(a.stats().rows()),
                  absl::StrCat(a.dataset().public_max_rows()),
                  absl::StrCat(a.stats().csv_bytes()),
                  absl::StrCat(a.stats().edges()),
                  a.cap() == 0 ? std::string("none") : FormatReal(a.cap()),
                  FormatReal(a.spent_all_buyers())});
  }
  return table.Render();
}

std::string CreateBuyerText(const dpq::v1::CreateBuyerResponse& resp,
                            bool json) {
  if (json) {
    return Line(JsonObjectWriter()
                    .Add("buyer", resp.buyer().buyer_id())
                    .Add("token", resp.token()));
  }
  return absl::StrCat("Created buyer ", Safe(resp.buyer().buyer_id()),
                      ". Its token (shown only once; store it safely):\n",
                      Safe(resp.token()), "\n");
}

std::string RevokeBuyerText(absl::string_view buyer_id, bool json) {
  if (json) {
    return Line(JsonObjectWriter().Add("buyer", buyer_id).Add("revoked", true));
  }
  return absl::StrCat("Revoked buyer ", Safe(buyer_id),
                      " (its ledger entries are kept).\n");
}

std::string BuyersText(const dpq::v1::ListBuyersResponse& resp, bool json) {
  if (json) {
    return Line(JsonObjectWriter().AddRaw(
        "buyers", JsonArrayOf(resp.buyers(), [](const dpq::v1::Buyer& b) {
          JsonObjectWriter w;
          w.Add("buyer", b.buyer_id());
          AddTimestamp(w, "created_at", b.created_at());
          w.Add("revoked", b.revoked());
          return w.Finish();
        })));
  }
  TextTable table({"BUYER", "CREATED", "REVOKED"});
  for (const dpq::v1::Buyer& b : resp.buyers()) {
    table.AddRow({b.buyer_id(), FormatTimestamp(b.created_at()),
                  b.revoked() ? "yes" : "no"});
  }
  return table.Render();
}

std::string BudgetChangeText(const dpq::v1::Budget& budget, bool json) {
  if (json) return BudgetJson(budget) + "\n";
  return absl::StrCat(
      "Budget of ", Safe(budget.buyer_id()), " on ", Safe(budget.dataset_id()),
      ": granted ", FormatReal(budget.granted()), ", spent ",
      FormatReal(budget.spent()), ", reserved ", FormatReal(budget.reserved()),
      ", remaining ", FormatReal(budget.remaining()), ".\n");
}

std::string SetCapText(absl::string_view dataset_id, double cap, bool json) {
  if (json) {
    return Line(JsonObjectWriter().Add("dataset", dataset_id).Add("cap", cap));
  }
  if (cap == 0) {
    return absl::StrCat("Removed the cap on ", Safe(dataset_id), ".\n");
  }
  return absl::StrCat("Capped the epsilon of all buyers together on ",
                      Safe(dataset_id), " at ", FormatReal(cap), ".\n");
}

std::string LedgerText(const dpq::v1::ListLedgerResponse& resp, bool json) {
  if (json) {
    return Line(
        JsonObjectWriter()
            .AddRaw("entries", JsonArrayOf(resp.entries(), LedgerEntryJson))
            .AddRaw("budgets", JsonArrayOf(resp.budgets(), BudgetJson)));
  }
  return absl::StrCat("Budgets:\n", BudgetTable(resp.budgets(), true),
                      "\nEntries (newest first):\n",
                      LedgerTable(resp.entries(), true));
}

std::string AuditText(const dpq::v1::ListAuditLogResponse& resp, bool json) {
  if (json) {
    return Line(JsonObjectWriter().AddRaw(
        "entries",
        JsonArrayOf(resp.entries(), [](const dpq::v1::AuditEntry& e) {
          JsonObjectWriter w;
          AddTimestamp(w, "time", e.time());
          w.Add("actor", e.actor());
          w.Add("action", e.action());
          w.Add("details", e.details());
          return w.Finish();
        })));
  }
  TextTable table({"TIME", "ACTOR", "ACTION", "DETAILS"});
  for (const dpq::v1::AuditEntry& e : resp.entries()) {
    table.AddRow({FormatTimestamp(e.time()), e.actor(), e.action(),
                  OrDash(e.details())});
  }
  return table.Render();
}

}  // namespace dpq::client
