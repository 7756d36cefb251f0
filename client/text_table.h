// The aligned tables `dpq` prints for people.
#ifndef DPQ_CLIENT_TEXT_TABLE_H_
#define DPQ_CLIENT_TEXT_TABLE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace dpq::client {

// A table with a header line and columns aligned by padding with spaces
// (two between columns, no trailing spaces). Every cell passes through
// TerminalSafe (client/terminal_text.h): a cell is one line, whatever the
// server sent.
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

}  // namespace dpq::client

#endif  // DPQ_CLIENT_TEXT_TABLE_H_
