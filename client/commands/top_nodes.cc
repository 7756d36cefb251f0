#include "client/commands/top_nodes.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

TopNodesCommand::TopNodesCommand()
    : Command({.name = "top-nodes",
               .synopsis = "top-nodes ID --k K --epsilon E "
                           "[--objectives degree,egocentric_density] "
                           "[--approach pareto|aggregation] [--weights W1,W2] "
                           "[--sensitivity global|local] [--request-id R]",
               .summary = "Selects the K most influential nodes of a graph "
                          "dataset (DP-MOTkIN, edge-DP); charges E.",
               .release = true}) {}

void TopNodesCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Value("--k", &k_, FlagText::kLocal, /*required=*/true);
  flags.Value("--objectives", &objectives_, FlagText::kLocal);
  selection_.Define(flags);
  flags.Value("--epsilon", &epsilon_, FlagText::kLocal, /*required=*/true);
  request_id_.Define(flags);
}

absl::Status TopNodesCommand::Validate(const CommandFlags& flags) {
  ASSIGN_OR_RETURN(const uint32_t k, ParseUint32("--k", k_));
  request_.set_k(k);
  if (flags.Given("--objectives")) {
    ASSIGN_OR_RETURN(const std::vector<std::string> names,
                     ParseNameList("--objectives", objectives_,
                                   /*allow_empty=*/false));
    for (const std::string& name : names) {
      ASSIGN_OR_RETURN(const v1::NodeObjective objective,
                       ParseObjectiveName(name));
      request_.add_objectives(objective);
    }
  }
  RETURN_IF_ERROR(selection_.Validate(flags));
  selection_.FillRequest(&request_);
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("--epsilon", epsilon_));
  request_.set_epsilon(epsilon);
  RETURN_IF_ERROR(request_id_.Validate(flags));
  request_.set_request_id(request_id_.value());
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> TopNodesCommand::Run(const RunContext& context) {
  request_.set_request_id(context.request_id);
  v1::SelectInfluentialNodesResponse response;
  RETURN_IF_ERROR(
      UnaryCall(context.call, *context.connection.buyer,
                &v1::BuyerService::StubInterface::SelectInfluentialNodes,
                request_, &response));
  FillRequestId(context.request_id, &response);
  return ResponseOutput(response, context.json, [&] {
    return TopNodesText(request_.dataset_id(), response);
  });
}

std::string TopNodesText(absl::string_view dataset_id,
                         const v1::SelectInfluentialNodesResponse& response) {
  TextTable table({"RANK", "NODE"});
  int rank = 0;
  for (const std::string& node : response.nodes()) {
    table.AddRow({absl::StrCat(++rank), node});
  }
  std::string out =
      absl::StrCat("Influential nodes of ", TerminalSafe(dataset_id),
                   " (in selection order):\n", table.Render());
  AppendChargeLines(response, &out);
  return out;
}

}  // namespace dpq::client
