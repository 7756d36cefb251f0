#include "client/commands/admin_datasets.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminDatasetsCommand::AdminDatasetsCommand()
    : Command({.name = "admin datasets",
               .synopsis = "admin datasets",
               .summary = "Lists datasets with their true sizes.",
               .service = Service::kAdmin}) {}

void AdminDatasetsCommand::DefineFlags(CommandFlags& /*flags*/) {}

absl::StatusOr<CommandOutput> AdminDatasetsCommand::Run(
    const RunContext& context) {
  // Every page, as one list (the server pages by count and bytes).
  v1::AdminListDatasetsResponse response;
  v1::AdminListDatasetsRequest request;
  do {
    v1::AdminListDatasetsResponse page;
    RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                              &v1::AdminService::StubInterface::ListDatasets,
                              request, &page));
    for (v1::AdminDatasetInfo& d : *page.mutable_datasets()) {
      *response.add_datasets() = std::move(d);
    }
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  return ResponseOutput(response, context.json,
                        [&response] { return AdminDatasetsText(response); });
}

std::string AdminDatasetsText(const v1::AdminListDatasetsResponse& response) {
  TextTable table({"ID", "VERSION", "ROWS", "MAX_ROWS", "CSV_BYTES", "EDGES",
                   "COST", "CAP", "SPENT_ALL"});
  for (const v1::AdminDatasetInfo& a : response.datasets()) {
    table.AddRow(
        {a.dataset().dataset_id(), absl::StrCat(a.dataset().version()),
         absl::StrCat(a.stats().rows()),
         absl::StrCat(a.dataset().public_max_rows()),
         absl::StrCat(a.stats().csv_bytes()), absl::StrCat(a.stats().edges()),
         a.stats().release_cost().empty() ? std::string("-")
                                          : a.stats().release_cost(),
         a.cap() == 0 ? std::string("none")
                      : FormatEpsilon(a.cap_units(), a.cap()),
         FormatEpsilon(a.spent_all_buyers_units(), a.spent_all_buyers())});
  }
  return table.Render();
}

}  // namespace dpq::client
