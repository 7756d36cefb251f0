#include "client/commands/tree.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "client/command_flags.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/json_output.h"
#include "client/terminal_text.h"
#include "core/util/json_writer.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using core::util::JsonQuote;

// "sex == \"Male\"" or "age <= 37.5".
std::string TestText(const v1::DecisionTreeNode& node) {
  if (node.numeric_test()) {
    return absl::StrCat(TerminalSafe(node.feature()),
                        " <= ", FormatReal(node.threshold()));
  }
  return absl::StrCat(TerminalSafe(node.feature()),
                      " == ", TerminalSafe(JsonQuote(node.category())));
}

constexpr int kMaxRulesDepth = 64;

void AppendRules(
    const google::protobuf::RepeatedPtrField<v1::DecisionTreeNode>& nodes,
    int index, int indent, absl::flat_hash_set<int>& seen, std::string* out) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  // A tree reaches every node once; anything else is a malformed answer,
  // printed rather than followed.
  if (index < 0 || index >= nodes.size() || !seen.insert(index).second) {
    absl::StrAppend(out, pad, "<invalid node ", index, ">\n");
    return;
  }
  const v1::DecisionTreeNode& node = nodes[index];
  // Bounds the recursion for any answer; real trees are far shallower.
  if (indent >= kMaxRulesDepth && !node.leaf()) {
    absl::StrAppend(out, pad, "... (deeper levels omitted; see --json)\n");
    return;
  }
  if (node.leaf()) {
    absl::StrAppend(out, pad, node.positive() ? "+" : "-", "\n");
    return;
  }
  absl::StrAppend(out, pad, "if ", TestText(node), ":\n");
  AppendRules(nodes, node.left(), indent + 1, seen, out);
  absl::StrAppend(out, pad, "else:\n");
  AppendRules(nodes, node.right(), indent + 1, seen, out);
}

}  // namespace

TreeCommand::TreeCommand()
    : Command({.name = "tree",
               .synopsis = "tree ID --label COL --positive VALUE --epsilon E "
                           "[--features A,B] [--approach aggregation|pareto] "
                           "[--weights W1,W2] [--sensitivity local|global] "
                           "[--generations G] [--population P] "
                           "[--accuracy-epsilon E2] [--request-id R]",
               .summary = "Trains a DP decision tree (DP-MOET); charges E (+ "
                          "E2 for its DP TPR and TNR).",
               .release = true}) {}

void TreeCommand::DefineFlags(CommandFlags& flags) {
  flags.Argument("ID", request_.mutable_dataset_id());
  flags.Value("--label", request_.mutable_label_column(), FlagText::kSent,
              /*required=*/true);
  flags.Value("--positive", request_.mutable_positive_class(), FlagText::kSent,
              /*required=*/true);
  flags.Value("--features", &features_, FlagText::kSent);
  flags.Value("--generations", &generations_, FlagText::kLocal);
  flags.Value("--population", &population_, FlagText::kLocal);
  flags.Value("--accuracy-epsilon", &accuracy_epsilon_, FlagText::kLocal);
  selection_.Define(flags);
  flags.Value("--epsilon", &epsilon_, FlagText::kLocal, /*required=*/true);
  request_id_.Define(flags);
}

absl::Status TreeCommand::Validate(const CommandFlags& flags) {
  if (request_.label_column().empty()) {
    return absl::InvalidArgumentError("--label must not be empty.");
  }
  if (flags.Given("--features")) {
    ASSIGN_OR_RETURN(const std::vector<std::string> features,
                     ParseNameList("--features", features_,
                                   /*allow_empty=*/false));
    for (const std::string& f : features) request_.add_features(f);
  }
  if (flags.Given("--generations")) {
    ASSIGN_OR_RETURN(const uint32_t generations,
                     ParseUint32("--generations", generations_));
    request_.set_generations(generations);
  }
  if (flags.Given("--population")) {
    ASSIGN_OR_RETURN(const uint32_t population,
                     ParseUint32("--population", population_));
    request_.set_population(population);
  }
  if (flags.Given("--accuracy-epsilon")) {
    ASSIGN_OR_RETURN(const double accuracy_epsilon,
                     ParseNumber("--accuracy-epsilon", accuracy_epsilon_));
    request_.set_accuracy_epsilon(accuracy_epsilon);
  }
  RETURN_IF_ERROR(selection_.Validate(flags));
  selection_.FillRequest(&request_);
  ASSIGN_OR_RETURN(const double epsilon, ParseNumber("--epsilon", epsilon_));
  request_.set_epsilon(epsilon);
  RETURN_IF_ERROR(request_id_.Validate(flags));
  request_.set_request_id(request_id_.value());
  return absl::OkStatus();
}

absl::StatusOr<CommandOutput> TreeCommand::Run(const RunContext& context) {
  request_.set_request_id(context.request_id);
  v1::TrainDecisionTreeResponse response;
  RETURN_IF_ERROR(UnaryCall(context.call, *context.connection.buyer,
                            &v1::BuyerService::StubInterface::TrainDecisionTree,
                            request_, &response));
  FillRequestId(context.request_id, &response);
  return ResponseOutput(response, context.json, [&] {
    return TreeText(request_.dataset_id(), request_.label_column(),
                    request_.positive_class(), response);
  });
}

std::string TreeRules(
    const google::protobuf::RepeatedPtrField<v1::DecisionTreeNode>& nodes) {
  if (nodes.empty()) return "(empty tree)\n";
  std::string out;
  absl::flat_hash_set<int> seen;
  AppendRules(nodes, 0, 0, seen, &out);
  return out;
}

std::string TreeText(absl::string_view dataset_id, absl::string_view label,
                     absl::string_view positive,
                     const v1::TrainDecisionTreeResponse& response) {
  std::string out = absl::StrCat(
      "Decision tree for ", TerminalSafe(dataset_id), " (depth ",
      response.depth(), "; +: ", TerminalSafe(label),
      " == ", TerminalSafe(JsonQuote(positive)),
      ", -: otherwise; NULL takes else):\n", OrDash(response.tree_text()),
      "\n\n", TreeRules(response.nodes()), "\n");
  if (response.has_tpr() || response.has_tnr()) {
    absl::StrAppend(
        &out, "DP accuracy on the training data: TPR ",
        response.has_tpr() ? FormatReal(response.tpr()) : std::string("-"),
        ", TNR ",
        response.has_tnr() ? FormatReal(response.tnr()) : std::string("-"),
        "\n");
  } else {
    absl::StrAppend(&out,
                    "TPR/TNR not released (pay for them with "
                    "--accuracy-epsilon)\n");
  }
  if (response.has_caveat()) {
    absl::StrAppend(&out, "Caveat: ", TerminalSafe(response.caveat()), "\n");
  }
  AppendChargeLines(response, &out);
  return out;
}

}  // namespace dpq::client
