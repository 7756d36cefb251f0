#include "core/selection/nodes/edge_list.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::core::selection {
namespace {

absl::string_view Unquote(absl::string_view field) {
  field = absl::StripAsciiWhitespace(field);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
    field = field.substr(1, field.size() - 2);
  }
  return field;
}

std::vector<absl::string_view> SplitFields(absl::string_view line) {
  if (line.find(',') != absl::string_view::npos) {
    std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
    for (absl::string_view& f : fields) f = Unquote(f);
    return fields;
  }
  return absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
}

bool IsHeader(const std::vector<absl::string_view>& fields) {
  if (fields.size() != 2) return false;
  const std::string a = absl::AsciiStrToLower(fields[0]);
  const std::string b = absl::AsciiStrToLower(fields[1]);
  return (a == "source" && b == "target") || (a == "id_1" && b == "id_2");
}

class NodeIds {
 public:
  NodeIds() = default;
  // A fixed universe: Get fails for any other label.
  static absl::StatusOr<NodeIds> Declared(std::vector<std::string> labels) {
    if (labels.size() >= std::numeric_limits<graph::NodeId>::max()) {
      return absl::InvalidArgumentError(
          "The node universe has more than 2^32 - 2 nodes.");
    }
    NodeIds ids;
    ids.fixed_ = true;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (labels[i].empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node label ", i + 1, " is empty."));
      }
      if (!ids.ids_.try_emplace(labels[i], static_cast<graph::NodeId>(i))
               .second) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node label '", absl::CHexEscape(labels[i].substr(0, 100)),
            "' is declared twice."));
      }
    }
    ids.labels_ = std::move(labels);
    return ids;
  }

  absl::StatusOr<graph::NodeId> Get(absl::string_view label,
                                    size_t line_number) {
    if (fixed_) {
      const auto it = ids_.find(label);
      if (it == ids_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Edge list line ", line_number, ": node '",
                         absl::CHexEscape(label.substr(0, 100)),
                         "' is not in the declared node universe."));
      }
      return it->second;
    }
    auto [it, inserted] =
        ids_.try_emplace(label, static_cast<graph::NodeId>(labels_.size()));
    if (inserted) {
      if (labels_.size() >= std::numeric_limits<graph::NodeId>::max()) {
        return absl::InvalidArgumentError(
            "The edge list has more than 2^32 - 1 nodes.");
      }
      labels_.emplace_back(label);
    }
    return it->second;
  }
  std::vector<std::string> TakeLabels() { return std::move(labels_); }

 private:
  bool fixed_ = false;
  absl::flat_hash_map<std::string, graph::NodeId> ids_;
  std::vector<std::string> labels_;
};

absl::StatusOr<LabeledGraph> Parse(absl::string_view text, NodeIds ids) {
  std::vector<graph::Edge> edges;
  size_t line_number = 0;
  bool first_data_line = true;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);  // also a CR of CRLF
    if (line.empty() || line.front() == '#') continue;
    const std::vector<absl::string_view> fields = SplitFields(line);
    if (first_data_line) {
      first_data_line = false;
      if (IsHeader(fields)) continue;
    }
    if (fields.size() != 2 || fields[0].empty() || fields[1].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Edge list line ", line_number,
                       ": expected two node ids `source,target`, got '",
                       line.substr(0, 200), "'."));
    }
    ASSIGN_OR_RETURN(const graph::NodeId u, ids.Get(fields[0], line_number));
    ASSIGN_OR_RETURN(const graph::NodeId v, ids.Get(fields[1], line_number));
    if (u == v) continue;  // self-loop: not an edge of a simple graph
    edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  LabeledGraph out;
  out.labels = ids.TakeLabels();
  ASSIGN_OR_RETURN(out.graph, graph::Graph::FromEdges(
                                  static_cast<uint32_t>(out.labels.size()),
                                  std::move(edges)));
  return out;
}

}  // namespace

absl::StatusOr<LabeledGraph> ParseEdgeList(absl::string_view text) {
  return Parse(text, NodeIds());
}

absl::StatusOr<LabeledGraph> ParseEdgeList(absl::string_view text,
                                           std::vector<std::string> labels) {
  ASSIGN_OR_RETURN(NodeIds ids, NodeIds::Declared(std::move(labels)));
  return Parse(text, std::move(ids));
}

std::vector<std::string> CountedNodeLabels(uint64_t n) {
  std::vector<std::string> labels;
  labels.reserve(n);
  for (uint64_t i = 0; i < n; ++i) labels.push_back(absl::StrCat(i));
  return labels;
}

absl::StatusOr<LabeledGraph> ReadEdgeListCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("Cannot open the edge list '", path, "'."));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  absl::StatusOr<LabeledGraph> graph = ParseEdgeList(buffer.str());
  if (!graph.ok()) {
    return util::WithPrefix(absl::StrCat(path, ": "), graph.status());
  }
  return graph;
}

}  // namespace dpq::core::selection
