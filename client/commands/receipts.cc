#include "client/commands/receipts.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "client/text_table.h"
#include "core/util/status_macros.h"

namespace dpq::client {

namespace v1 = ::dpq::v1;

namespace {

std::string MeasureText(const v1::MeasureResult& m) {
  return absl::StrCat(MeasureCode(m.measure()), " ", m.value(), " (",
                      IntervalRange(m), ")");
}

// The first `shown` node ids and how many more.
std::string NodesText(const v1::SelectInfluentialNodesResponse& r) {
  constexpr int kShown = 5;
  std::vector<std::string> shown;
  for (int i = 0; i < r.nodes_size() && i < kShown; ++i) {
    shown.push_back(r.nodes(i));  // TextTable makes every cell safe
  }
  std::string text =
      absl::StrCat(r.nodes_size(), " nodes: ", absl::StrJoin(shown, ", "));
  if (r.nodes_size() > kShown) absl::StrAppend(&text, ", ...");
  return text;
}

}  // namespace

ReceiptsCommand::ReceiptsCommand()
    : Command({.name = "receipts",
               .synopsis = "receipts ID [--limit N] [--page-token T]",
               .summary = "Lists your releases on a dataset with their "
                          "answers (free)."}) {}

void ReceiptsCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Value("--limit", &limit_, FlagText::kLocal);
  flags.Value("--page-token", request_.mutable_page_token(), FlagText::kLocal);
}

absl::Status ReceiptsCommand::Validate(const CommandFlags& flags) {
  if (flags.Given("--limit")) {
    ASSIGN_OR_RETURN(const uint32_t limit, ParseUint32("--limit", limit_));
    request_.set_page_size(limit);
  }
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> ReceiptsCommand::Run(const RunContext& context) {
  v1::ListReceiptsResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::ListReceipts,
                            request_, &response));
  return ResponseOutput(response, context.json,
                        [&] { return ReceiptsText(response, request_); });
}

std::string ReceiptAnswerText(const v1::Receipt& receipt) {
  switch (receipt.answer_case()) {
    case v1::Receipt::kMeasureInconsistency:
      return MeasureText(receipt.measure_inconsistency().result());
    case v1::Receipt::kQualityReport: {
      std::vector<std::string> parts;
      for (const v1::MeasureResult& m : receipt.quality_report().results()) {
        parts.push_back(absl::StrCat(MeasureCode(m.measure()), " ", m.value()));
      }
      return absl::StrJoin(parts, ", ");
    }
    case v1::Receipt::kReleaseCuboids: {
      int cells = 0;
      for (const v1::Cuboid& c : receipt.release_cuboids().cuboids()) {
        cells += c.cells_size();
      }
      return absl::StrCat(receipt.release_cuboids().cuboids_size(),
                          " cuboids, ", cells, " cells");
    }
    case v1::Receipt::kTrainDecisionTree:
      return absl::StrCat("tree of depth ",
                          receipt.train_decision_tree().depth());
    case v1::Receipt::kSelectInfluentialNodes:
      return NodesText(receipt.select_influential_nodes());
    case v1::Receipt::ANSWER_NOT_SET:
      break;
  }
  return "-";
}

std::string ReceiptsText(const v1::ListReceiptsResponse& response,
                         const v1::ListReceiptsRequest& request) {
  if (response.receipts().empty()) {
    return absl::StrCat("No releases of yours on ",
                        TerminalSafe(request.dataset_id()), ".\n");
  }
  TextTable table({"ENTRY", "CREATED", "OPERATION", "EPSILON", "STATE",
                   "REQUEST_ID", "ANSWER"});
  for (const v1::Receipt& r : response.receipts()) {
    const v1::LedgerEntry& e = r.entry();
    table.AddRow({absl::StrCat(e.entry_id()), FormatTimestamp(e.created_at()),
                  OrDash(e.operation()),
                  FormatEpsilon(e.epsilon_units(), e.epsilon()),
                  LedgerStateName(e.state()), OrDash(e.request_id()),
                  ReceiptAnswerText(r)});
  }
  std::string out = table.Render();
  if (!response.next_page_token().empty()) {
    absl::StrAppend(&out, "Older releases: dpq receipts ",
                    TerminalSafe(request.dataset_id()), " --page-token ",
                    response.next_page_token(), "\n");
  }
  return out;
}

}  // namespace dpq::client
