// `dpq tree`: flags, the request sent, the rules and the JSON.
#include "client/commands/tree.h"

#include <map>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"
#include "tests/client/proto_text_testing.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::DoAll;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(ParseTreeTest, EveryFlag) {
  v1::TrainDecisionTreeRequest inv =
      ParsedRequest<TreeCommand>({"tree",
                                  "adult",
                                  "--label",
                                  "income",
                                  "--positive",
                                  ">50K",
                                  "--features",
                                  "age,sex",
                                  "--approach",
                                  "Aggregation",
                                  "--weights",
                                  "1,2.5",
                                  "--sensitivity",
                                  "local",
                                  "--generations",
                                  "20",
                                  "--population=40",
                                  "--accuracy-epsilon",
                                  "0.25",
                                  "--epsilon",
                                  "1",
                                  "--request-id",
                                  "t-1"});
  EXPECT_EQ(inv.dataset_id(), "adult");
  EXPECT_EQ(inv.label_column(), "income");
  EXPECT_EQ(inv.positive_class(), ">50K");
  EXPECT_THAT(inv.features(), ElementsAre("age", "sex"));
  EXPECT_EQ(inv.approach(), v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(inv.weights(), ElementsAre(1, 2.5));
  EXPECT_EQ(inv.sensitivity(), v1::SENSITIVITY_MODE_LOCAL);
  EXPECT_EQ(inv.generations(), 20u);
  EXPECT_EQ(inv.population(), 40u);
  EXPECT_DOUBLE_EQ(inv.accuracy_epsilon(), 0.25);
  EXPECT_DOUBLE_EQ(inv.epsilon(), 1);
  EXPECT_EQ(inv.request_id(), "t-1");
}

TEST(ParseTreeTest, DefaultsAreLeftToTheServer) {
  v1::TrainDecisionTreeRequest inv =
      ParsedRequest<TreeCommand>({"tree", "adult", "--label", "income",
                                  "--positive", "", "--epsilon", "2"});
  EXPECT_EQ(inv.positive_class(), "");
  EXPECT_THAT(inv.features(), IsEmpty());
  EXPECT_EQ(inv.approach(), v1::SELECTION_APPROACH_UNSPECIFIED);
  EXPECT_THAT(inv.weights(), IsEmpty());
  EXPECT_EQ(inv.sensitivity(), v1::SENSITIVITY_MODE_UNSPECIFIED);
  EXPECT_EQ(inv.generations(), 0u);
  EXPECT_EQ(inv.population(), 0u);
  EXPECT_DOUBLE_EQ(inv.accuracy_epsilon(), 0);
  // Weights with the Pareto approach, or three of them: the server's call.
  EXPECT_TRUE(ParsedLine({"tree", "a", "--label", "l", "--positive", "p",
                          "--weights", "1,2,3", "--epsilon", "1"})
                  .ok());
}

TEST(ParseTreeTest, Errors) {
  const std::vector<std::string> base = {"tree",       "adult",     "--label",
                                         "income",     "--epsilon", "1",
                                         "--positive", "yes"};
  auto with = [&base](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  ExpectUsageError({"tree", "adult", "--positive", "yes", "--epsilon", "1"},
                   "dpq tree: --label is required");
  ExpectUsageError({"tree", "adult", "--label", "income", "--epsilon", "1"},
                   "dpq tree: --positive is required");
  ExpectUsageError({"tree", "adult", "--label", "income", "--positive", "yes"},
                   "dpq tree: --epsilon is required");
  ExpectUsageError(with({"--approach", "lexicographic"}),
                   "--approach must be one of pareto, aggregation; got "
                   "'lexicographic'");
  ExpectUsageError(with({"--sensitivity", "smooth"}),
                   "--sensitivity must be one of global, local; got 'smooth'");
  ExpectUsageError(with({"--weights", "1,heavy"}),
                   "--weights expects comma-separated finite numbers, got "
                   "'1,heavy'");
  ExpectUsageError(with({"--generations", "-1"}),
                   "--generations expects a non-negative integer");
  ExpectUsageError(with({"--population", "1e3"}),
                   "--population expects a non-negative integer");
  ExpectUsageError(with({"--accuracy-epsilon", "lots"}),
                   "--accuracy-epsilon expects a finite number");
  ExpectUsageError(with({"--features", "age,,sex"}), "--features: empty name");
  ExpectUsageError(with({"--k", "3"}), "Unknown flag '--k' for 'dpq tree'");
  ExpectUsageError(
      {"tree", "adult", "--label", "", "--positive", "yes", "--epsilon", "1"},
      "--label must not be empty");
}

// (age<=37.5 ? (sex=='Male' ? + : -) : +)
const char kTree[] = R"pb(
  nodes { feature: "age" numeric_test: true threshold: 37.5 left: 1 right: 4 }
  nodes { feature: "sex" category: "Male" left: 2 right: 3 }
  nodes { leaf: true positive: true left: -1 right: -1 }
  nodes { leaf: true positive: false left: -1 right: -1 }
  nodes { leaf: true positive: true left: -1 right: -1 }
  tree_text: "(age<=37.5 ? (sex=='Male' ? + : -) : +)"
  depth: 2
  tpr: 0.8125
  tnr: 0.75
  epsilon_charged: 1.5
  remaining_budget: 0.5
  request_id: "t-1"
)pb";

TEST(TreeRulesTest, IndentedIfElse) {
  const auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(TreeRules(resp.nodes()),
            "if age <= 37.5:\n"
            "  if sex == \"Male\":\n"
            "    +\n"
            "  else:\n"
            "    -\n"
            "else:\n"
            "  +\n");
}

TEST(TreeRulesTest, MalformedTreesDoNotLoop) {
  EXPECT_EQ(TreeRules({}), "(empty tree)\n");
  auto resp = FromText<v1::TrainDecisionTreeResponse>(R"pb(
    nodes { feature: "a" numeric_test: true threshold: 1 left: 0 right: 7 }
  )pb");
  EXPECT_EQ(TreeRules(resp.nodes()),
            "if a <= 1:\n"
            "  <invalid node 0>\n"
            "else:\n"
            "  <invalid node 7>\n");
}

TEST(TreeRulesTest, VeryDeepTreesAreCut) {
  // A chain of 100 inner nodes, each with a leaf on the right.
  v1::TrainDecisionTreeResponse resp;
  for (int i = 0; i < 100; ++i) {
    v1::DecisionTreeNode* inner = resp.add_nodes();
    inner->set_feature("x");
    inner->set_numeric_test(true);
    inner->set_threshold(i);
    inner->set_left(i == 99 ? 200 : 2 * i + 2);
    inner->set_right(2 * i + 1);
    v1::DecisionTreeNode* leaf = resp.add_nodes();
    leaf->set_leaf(true);
  }
  const std::string rules = TreeRules(resp.nodes());
  EXPECT_THAT(rules, HasSubstr(std::string(2 * 64, ' ') +
                               "... (deeper levels omitted; see --json)\n"));
  EXPECT_THAT(rules, Not(HasSubstr("invalid")));
}

TEST(TreeTextTest, HumanShowsCompactFormRulesRatesAndCharge) {
  const auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(TreeText("adult", "income", ">50K", resp),
            "Decision tree for adult (depth 2; +: income == \">50K\", -: "
            "otherwise; NULL takes else):\n"
            "(age<=37.5 ? (sex=='Male' ? + : -) : +)\n"
            "\n"
            "if age <= 37.5:\n"
            "  if sex == \"Male\":\n"
            "    +\n"
            "  else:\n"
            "    -\n"
            "else:\n"
            "  +\n"
            "\n"
            "DP accuracy on the training data: TPR 0.8125, TNR 0.75\n"
            "charged epsilon 1.5, remaining 0.5\n"
            "request id: t-1\n");
}

TEST(TreeTextTest, HumanSaysWhenRatesWereNotBought) {
  auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  resp.clear_tpr();
  resp.clear_tnr();
  EXPECT_THAT(TreeText("adult", "income", ">50K", resp),
              HasSubstr("TPR/TNR not released (pay for them with "
                        "--accuracy-epsilon)\n"));
}

// The response as it is: every node with all its fields, and tpr/tnr
// (optional fields) only when they were paid for. (protobuf prints fields
// with presence after the others, and '<' as \u003c.)
TEST(TreeTextTest, JsonHasNodesTextAndRatesOnlyWhenPaid) {
  auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"j({"nodes":[{"leaf":false,"positive":false,"feature":"age",)j"
      R"j("numericTest":true,"threshold":37.5,"category":"","left":1,"right":4},)j"
      R"j({"leaf":false,"positive":false,"feature":"sex","numericTest":false,)j"
      R"j("threshold":0,"category":"Male","left":2,"right":3},)j"
      R"j({"leaf":true,"positive":true,"feature":"","numericTest":false,)j"
      R"j("threshold":0,"category":"","left":-1,"right":-1},)j"
      R"j({"leaf":true,"positive":false,"feature":"","numericTest":false,)j"
      R"j("threshold":0,"category":"","left":-1,"right":-1},)j"
      R"j({"leaf":true,"positive":true,"feature":"","numericTest":false,)j"
      R"j("threshold":0,"category":"","left":-1,"right":-1}],)j"
      R"j("treeText":"(age\u003c=37.5 ? (sex=='Male' ? + : -) : +)",)j"
      R"j("depth":2,"epsilonCharged":1.5,"remainingBudget":0.5,)j"
      R"j("requestId":"t-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0","tpr":0.8125,"tnr":0.75})j"
      "\n");
  resp.clear_tpr();
  resp.clear_tnr();
  EXPECT_THAT(*ProtoJsonLine(resp),
              HasSubstr(R"j("depth":2,"epsilonCharged")j"));
}

TEST_F(CliTest, TreeSendsEveryFlagAndPrintsTheTree) {
  v1::TrainDecisionTreeRequest sent;
  v1::TrainDecisionTreeResponse resp;
  v1::DecisionTreeNode* leaf = resp.add_nodes();
  leaf->set_leaf(true);
  leaf->set_positive(true);
  leaf->set_left(-1);
  leaf->set_right(-1);
  resp.set_tree_text("+");
  resp.set_epsilon_charged(1.25);
  resp.set_remaining_budget(0.75);
  resp.set_request_id("t-1");
  EXPECT_CALL(*buyer_, TrainDecisionTree(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                            Return(grpc::Status::OK)));
  const std::vector<std::string> args = {"tree",
                                         "adult",
                                         "--label",
                                         "income",
                                         "--positive",
                                         ">50K",
                                         "--features",
                                         "age,sex",
                                         "--approach",
                                         "aggregation",
                                         "--weights",
                                         "2,1",
                                         "--sensitivity",
                                         "local",
                                         "--generations",
                                         "5",
                                         "--population",
                                         "8",
                                         "--accuracy-epsilon",
                                         "0.25",
                                         "--epsilon",
                                         "1",
                                         "--request-id",
                                         "t-1"};
  EXPECT_EQ(Run(args), kExitOk) << err();
  EXPECT_EQ(sent.dataset_id(), "adult");
  EXPECT_EQ(sent.label_column(), "income");
  EXPECT_EQ(sent.positive_class(), ">50K");
  EXPECT_THAT(sent.features(), ::testing::ElementsAre("age", "sex"));
  EXPECT_EQ(sent.approach(), v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(sent.weights(), ::testing::ElementsAre(2, 1));
  EXPECT_EQ(sent.sensitivity(), v1::SENSITIVITY_MODE_LOCAL);
  EXPECT_EQ(sent.generations(), 5u);
  EXPECT_EQ(sent.population(), 8u);
  EXPECT_DOUBLE_EQ(sent.accuracy_epsilon(), 0.25);
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_EQ(sent.request_id(), "t-1");
  EXPECT_EQ(out(), TreeText("adult", "income", ">50K", resp));
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  EXPECT_EQ(Run(json_args), kExitOk) << err();
  EXPECT_EQ(out(), *ProtoJsonLine(resp));
}

}  // namespace
}  // namespace dpq::client
