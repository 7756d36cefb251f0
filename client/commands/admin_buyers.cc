#include "client/commands/admin_buyers.h"

#include <string>

#include "client/format.h"
#include "client/json_output.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

AdminBuyersCommand::AdminBuyersCommand()
    : Command({.name = "admin buyers",
               .synopsis = "admin buyers",
               .summary = "Lists buyers.",
               .service = Service::kAdmin}) {}

void AdminBuyersCommand::DefineFlags(CommandFlags& /*flags*/) {}

absl::StatusOr<CommandOutput> AdminBuyersCommand::Run(
    const RunContext& context) {
  v1::ListBuyersResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.admin,
                            &v1::AdminService::StubInterface::ListBuyers,
                            v1::ListBuyersRequest(), &response));
  return ResponseOutput(response, context.json,
                        [&response] { return BuyersText(response); });
}

std::string BuyersText(const v1::ListBuyersResponse& response) {
  TextTable table({"BUYER", "CREATED", "REVOKED"});
  for (const v1::Buyer& b : response.buyers()) {
    table.AddRow({b.buyer_id(), FormatTimestamp(b.created_at()),
                  b.revoked() ? "yes" : "no"});
  }
  return table.Render();
}

}  // namespace dpq::client
