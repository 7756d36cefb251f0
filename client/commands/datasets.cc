#include "client/commands/datasets.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

DatasetsCommand::DatasetsCommand()
    : Command({.name = "datasets",
               .synopsis = "datasets",
               .summary = "Lists the datasets (public metadata)."}) {}

void DatasetsCommand::DefineFlags(CommandFlags& /*flags*/) {}

absl::StatusOr<CommandOutput> DatasetsCommand::Run(const RunContext& context) {
  // Every page, as one list (the server pages by count and bytes).
  v1::ListDatasetsResponse response;
  v1::ListDatasetsRequest request;
  do {
    v1::ListDatasetsResponse page;
    RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                              &v1::BuyerService::StubInterface::ListDatasets,
                              request, &page));
    for (v1::DatasetInfo& d : *page.mutable_datasets()) {
      *response.add_datasets() = std::move(d);
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  return ResponseOutput(response, context.json,
                        [&response] { return DatasetsText(response); });
}

std::string DatasetsText(const v1::ListDatasetsResponse& response) {
  TextTable table(
      {"ID", "VERSION", "KIND", "MAX_ROWS", "ROWS", "MEASURES", "DESCRIPTION"});
  for (const v1::DatasetInfo& d : response.datasets()) {
    // A graph has no row bound and answers no measures.
    const bool graph = d.kind() == v1::DATASET_KIND_GRAPH;
    table.AddRow({d.dataset_id(), absl::StrCat(d.version()), KindName(d.kind()),
                  graph ? "-" : absl::StrCat(d.public_max_rows()),
                  d.row_count_public() ? absl::StrCat(d.row_count()) : "-",
                  OrDash(MeasuresList(d, ",")), OrDash(d.description())});
  }
  return table.Render();
}

}  // namespace dpq::client
