#include "client/tables.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/format.h"
#include "client/terminal_text.h"
#include "client/text_table.h"

namespace dpq::client {

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
    row.push_back(FormatEpsilon(b.granted_units(), b.granted()));
    row.push_back(FormatEpsilon(b.spent_units(), b.spent()));
    row.push_back(FormatEpsilon(b.reserved_units(), b.reserved()));
    row.push_back(FormatEpsilon(b.remaining_units(), b.remaining()));
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
    row.push_back(FormatEpsilon(e.epsilon_units(), e.epsilon()));
    row.push_back(LedgerStateName(e.state()));
    row.push_back(OrDash(e.request_id()));
    table.AddRow(std::move(row));
  }
  return table.Render();
}

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

std::string CuboidName(const dpq::v1::Cuboid& cuboid) {
  if (cuboid.dimensions().empty()) return "(total)";
  return TerminalSafe(absl::StrJoin(cuboid.dimensions(), ", "));
}

}  // namespace dpq::client
