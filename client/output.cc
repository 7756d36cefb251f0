#include "client/output.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "core/util/json_writer.h"

namespace dpq::client {
namespace {

using core::util::JsonObjectWriter;
using core::util::JsonQuote;

std::string Line(const JsonObjectWriter& w) { return w.Finish() + "\n"; }

std::string OrDash(absl::string_view s) {
  return s.empty() ? "-" : std::string(s);
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
    : header_(std::move(header)) {}

void TextTable::AddRow(std::vector<std::string> row) {
  if (row.size() < header_.size()) row.resize(header_.size());
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

std::string MethodName(dpq::v1::SelectionMethod method) {
  switch (method) {
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
    default:
      return "UNSPECIFIED";
  }
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
  AddTimestamp(w, "registered_at", info.registered_at());
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
  return w.Finish();
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
      {"ID", "VERSION", "MAX_ROWS", "ROWS", "MEASURES", "DESCRIPTION"});
  for (const dpq::v1::DatasetInfo& d : resp.datasets()) {
    table.AddRow({d.dataset_id(), absl::StrCat(d.version()),
                  absl::StrCat(d.public_max_rows()),
                  d.row_count_public() ? absl::StrCat(d.row_count()) : "-",
                  MeasuresList(d, ","), OrDash(d.description())});
  }
  return table.Render();
}

std::string DescribeText(const dpq::v1::DescribeDatasetResponse& resp,
                         bool json) {
  const dpq::v1::DatasetInfo& d = resp.dataset();
  if (json) return DatasetInfoJson(d) + "\n";
  std::string out;
  absl::StrAppend(&out, "dataset:          ", d.dataset_id(), "\n");
  absl::StrAppend(&out, "description:      ", OrDash(d.description()), "\n");
  absl::StrAppend(&out, "version:          ", d.version(), " (registered ",
                  FormatTimestamp(d.registered_at()), ")\n");
  absl::StrAppend(&out, "public max rows:  ", d.public_max_rows(), "\n");
  absl::StrAppend(&out, "row count:        ",
                  d.row_count_public() ? absl::StrCat(d.row_count())
                                       : std::string("not public"),
                  "\n");
  absl::StrAppend(&out, "privacy unit:     ", OrDash(d.neighbouring()), "\n");
  absl::StrAppend(&out, "measures:         ", MeasuresList(d, ", "), "\n");
  absl::StrAppend(&out, "columns:\n");
  TextTable columns({"  NAME", "TYPE"});
  for (const dpq::v1::Column& c : d.columns()) {
    columns.AddRow({absl::StrCat("  ", c.name()), ColumnTypeName(c.type())});
  }
  out += columns.Render();
  absl::StrAppend(&out, "constraints:\n");
  int n = 0;
  for (const std::string& dc : d.constraints()) {
    absl::StrAppend(&out, "  ", ++n, ". ", dc, "\n");
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
              : absl::StrCat("No budget granted on ", dataset_id, ".\n");
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
    w.Add("request_id", resp.request_id());
    w.Add("replayed", resp.replayed());
    return Line(w);
  }
  std::string out = absl::StrCat(MeasureLabel(r.measure()), " ~ ", r.value(),
                                 " \u00b1 ", r.bound95(), " (95%)");
  if (r.measure() != dpq::v1::MEASURE_R) {
    absl::StrAppend(&out, ", theta ", r.theta());
  }
  if (!r.method().empty()) absl::StrAppend(&out, ", method ", r.method());
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
  TextTable table(
      {"MEASURE", "VALUE", "\u00b195%", "THETA", "EPSILON", "METHOD"});
  for (const dpq::v1::MeasureResult& r : resp.results()) {
    table.AddRow({MeasureLabel(r.measure()), absl::StrCat(r.value()),
                  absl::StrCat(r.bound95()),
                  r.measure() == dpq::v1::MEASURE_R ? std::string("-")
                                                    : absl::StrCat(r.theta()),
                  FormatReal(r.epsilon()), OrDash(r.method())});
  }
  std::string out = absl::StrCat("Quality report for ", dataset_id, ":\n");
  out += table.Render();
  absl::StrAppend(&out,
                  ChargeSentence(resp.epsilon_charged(),
                                 resp.remaining_budget(), resp.replayed()),
                  "\n");
  absl::StrAppend(&out, "request id: ", OrDash(resp.request_id()), "\n");
  return out;
}

std::string UploadText(const dpq::v1::DatasetInfo& info,
                       const dpq::v1::DatasetStats& stats, bool replaced,
                       bool json) {
  if (json) {
    JsonObjectWriter w;
    w.Add("dataset", info.dataset_id());
    w.Add("version", static_cast<uint64_t>(info.version()));
    w.Add("rows", static_cast<uint64_t>(stats.rows()));
    w.Add("csv_bytes", static_cast<uint64_t>(stats.csv_bytes()));
    w.Add("edges", static_cast<uint64_t>(stats.edges()));
    w.Add("graph_build_seconds", stats.graph_build_seconds());
    w.Add("public_max_rows", static_cast<uint64_t>(info.public_max_rows()));
    return Line(w);
  }
  return absl::StrCat(replaced ? "Replaced " : "Registered ", info.dataset_id(),
                      " (version ", info.version(), "): ", stats.rows(),
                      " rows, ", stats.csv_bytes(), " bytes, ", stats.edges(),
                      " conflicting pairs; graph built in ",
                      FormatReal(stats.graph_build_seconds()), " s.\n");
}

std::string DeleteText(absl::string_view dataset_id, bool json) {
  if (json) {
    return Line(
        JsonObjectWriter().Add("dataset", dataset_id).Add("deleted", true));
  }
  return absl::StrCat("Deleted ", dataset_id,
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
  return absl::StrCat("Created buyer ", resp.buyer().buyer_id(),
                      ". Its token (shown only once; store it safely):\n",
                      resp.token(), "\n");
}

std::string RevokeBuyerText(absl::string_view buyer_id, bool json) {
  if (json) {
    return Line(JsonObjectWriter().Add("buyer", buyer_id).Add("revoked", true));
  }
  return absl::StrCat("Revoked buyer ", buyer_id,
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
      "Budget of ", budget.buyer_id(), " on ", budget.dataset_id(),
      ": granted ", FormatReal(budget.granted()), ", spent ",
      FormatReal(budget.spent()), ", reserved ", FormatReal(budget.reserved()),
      ", remaining ", FormatReal(budget.remaining()), ".\n");
}

std::string SetCapText(absl::string_view dataset_id, double cap, bool json) {
  if (json) {
    return Line(JsonObjectWriter().Add("dataset", dataset_id).Add("cap", cap));
  }
  if (cap == 0) return absl::StrCat("Removed the cap on ", dataset_id, ".\n");
  return absl::StrCat("Capped the epsilon of all buyers together on ",
                      dataset_id, " at ", FormatReal(cap), ".\n");
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
