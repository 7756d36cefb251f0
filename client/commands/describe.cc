#include "client/commands/describe.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/command_flags.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/tables.h"
#include "client/terminal_text.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

DescribeCommand::DescribeCommand()
    : Command({.name = "describe",
               .synopsis = "describe ID",
               .summary = "Shows a dataset's schema, constraints and public "
                          "metadata."}) {}

void DescribeCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
}

absl::StatusOr<CommandOutput> DescribeCommand::Run(const RunContext& context) {
  v1::DescribeDatasetResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::DescribeDataset,
                            request_, &response));
  return ResponseOutput(response, context.json,
                        [&response] { return DescribeText(response); });
}

std::string DescribeText(const v1::DescribeDatasetResponse& response) {
  const v1::DatasetInfo& d = response.dataset();
  std::string out;
  absl::StrAppend(&out, "dataset:          ", TerminalSafe(d.dataset_id()),
                  "\n");
  absl::StrAppend(&out, "description:      ", OrDash(d.description()), "\n");
  absl::StrAppend(&out, "version:          ", d.version(), " (registered ",
                  FormatTimestamp(d.registered_at()), ")\n");
  absl::StrAppend(&out, "kind:             ", KindName(d.kind()), "\n");
  absl::StrAppend(&out, "privacy unit:     ", OrDash(d.neighbouring()), "\n");
  if (d.charge_multiplier() > 1) {
    absl::StrAppend(&out,
                    "charges:          ReleaseCuboids: epsilon; other "
                    "releases: ",
                    d.charge_multiplier(),
                    " x epsilon (the public exact cuboids)\n");
  }
  absl::StrAppend(&out, "releases:         ",
                  OrDash(absl::StrJoin(d.supported_releases(), ", ")), "\n");
  // A graph (edge list) has none of a table's schema, bounds or cube.
  if (d.kind() == v1::DATASET_KIND_GRAPH) {
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
  for (const v1::Column& c : d.columns()) {
    columns.AddRow({absl::StrCat("  ", c.name()), ColumnTypeName(c.type())});
  }
  out += columns.Render();
  absl::StrAppend(&out, "constraints:\n");
  int n = 0;
  for (const std::string& dc : d.constraints()) {
    absl::StrAppend(&out, "  ", ++n, ". ", TerminalSafe(dc), "\n");
  }
  if (n == 0) out += "  (none)\n";
  absl::StrAppend(&out, "cube dimensions:\n");
  for (const v1::CubeDimensionInfo& dim : d.cube_dimensions()) {
    absl::StrAppend(&out, "  ", TerminalSafe(dim.column()), ": ",
                    TerminalSafe(absl::StrJoin(dim.labels(), ", ")), "\n");
  }
  if (d.cube_dimensions().empty()) out += "  (none)\n";
  absl::StrAppend(&out, "public exact cuboids:\n");
  n = 0;
  for (const v1::Cuboid& cuboid : d.public_cuboids()) {
    absl::StrAppend(&out, "  ", ++n, ". ", CuboidName(cuboid), "\n");
    for (absl::string_view line :
         absl::StrSplit(CuboidTable(cuboid), '\n', absl::SkipEmpty())) {
      absl::StrAppend(&out, "     ", line, "\n");
    }
  }
  if (n == 0) out += "  (none)\n";
  return out;
}

}  // namespace dpq::client
