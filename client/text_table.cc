#include "client/text_table.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/terminal_text.h"

namespace dpq::client {
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
  for (std::string& cell : header_) cell = TerminalSafe(cell);
}

void TextTable::AddRow(std::vector<std::string> row) {
  if (row.size() < header_.size()) row.resize(header_.size());
  // A cell is one line: a newline in it would forge a row. TerminalSafe is
  // idempotent, so cells escaped before print the same.
  for (std::string& cell : row) cell = TerminalSafe(cell);
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

}  // namespace dpq::client
