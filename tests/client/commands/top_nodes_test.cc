// `dpq top-nodes`: flags, the request sent, the ranking and the JSON.
#include "client/commands/top_nodes.h"

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
using ::testing::IsEmpty;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(ParseTopNodesTest, EveryFlag) {
  v1::SelectInfluentialNodesRequest inv = ParsedRequest<TopNodesCommand>(
      {"top-nodes", "karate", "--k", "3", "--objectives",
       "egocentric_density,Degree", "--approach", "aggregation", "--weights",
       "0.5,0.5", "--sensitivity", "GLOBAL", "--epsilon", "2", "--request-id",
       "n-1"});
  EXPECT_EQ(inv.dataset_id(), "karate");
  EXPECT_EQ(inv.k(), 3u);
  EXPECT_THAT(inv.objectives(),
              ElementsAre(v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY,
                          v1::NODE_OBJECTIVE_DEGREE));
  EXPECT_EQ(inv.approach(), v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(inv.weights(), ElementsAre(0.5, 0.5));
  EXPECT_EQ(inv.sensitivity(), v1::SENSITIVITY_MODE_GLOBAL);
  EXPECT_DOUBLE_EQ(inv.epsilon(), 2);
  EXPECT_EQ(inv.request_id(), "n-1");
}

TEST(ParseTopNodesTest, DefaultsAndServerSideChecks) {
  v1::SelectInfluentialNodesRequest inv = ParsedRequest<TopNodesCommand>(
      {"top-nodes", "karate", "--k", "0", "--epsilon", "1"});
  EXPECT_EQ(inv.k(), 0u);  // the range of k is the server's to check
  EXPECT_THAT(inv.objectives(), IsEmpty());
  EXPECT_EQ(inv.approach(), v1::SELECTION_APPROACH_UNSPECIFIED);
}

TEST(ParseTopNodesTest, Errors) {
  ExpectUsageError({"top-nodes", "karate", "--epsilon", "1"},
                   "dpq top-nodes: --k is required");
  ExpectUsageError({"top-nodes", "karate", "--k", "3"},
                   "dpq top-nodes: --epsilon is required");
  ExpectUsageError({"top-nodes", "karate", "--k", "three", "--epsilon", "1"},
                   "--k expects a non-negative integer, got 'three'");
  ExpectUsageError({"top-nodes", "karate", "--k", "3", "--epsilon", "1",
                    "--objectives", "degree,pagerank"},
                   "--objectives must list some of degree, "
                   "egocentric_density; got 'pagerank'");
  ExpectUsageError({"top-nodes", "karate", "--k", "3", "--epsilon", "1",
                    "--approach", "sum"},
                   "--approach must be one of pareto, aggregation");
  ExpectUsageError(
      {"top-nodes", "karate", "--k", "3", "--epsilon", "1", "--weights", ""},
      "--weights expects comma-separated finite numbers");
  ExpectUsageError(
      {"top-nodes", "karate", "--k", "3", "--epsilon", "1", "--label", "x"},
      "Unknown flag '--label' for 'dpq top-nodes'");
}

const char kTopNodes[] = R"pb(
  nodes: "34"
  nodes: "1"
  nodes: "33"
  epsilon_charged: 1
  remaining_budget: 4
  request_id: "n-1"
)pb";

TEST(TopNodesTextTest, HumanRankedTable) {
  const auto resp = FromText<v1::SelectInfluentialNodesResponse>(kTopNodes);
  EXPECT_EQ(TopNodesText("karate", resp),
            "Influential nodes of karate (in selection order):\n"
            "RANK  NODE\n"
            "1     34\n"
            "2     1\n"
            "3     33\n"
            "charged epsilon 1, remaining 4\n"
            "request id: n-1\n");
}

TEST(TopNodesTextTest, JsonNodesAreStrings) {
  const auto resp = FromText<v1::SelectInfluentialNodesResponse>(kTopNodes);
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"j({"nodes":["34","1","33"],"epsilonCharged":1,)j"
      R"j("remainingBudget":4,"requestId":"n-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})j"
      "\n");
  EXPECT_EQ(
      *ProtoJsonLine(v1::SelectInfluentialNodesResponse()),
      R"j({"nodes":[],"epsilonCharged":0,"remainingBudget":0,)j"
      R"j("requestId":"","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})j"
      "\n");
}

TEST_F(CliTest, TopNodesSendsEveryFlagAndPrintsJson) {
  v1::SelectInfluentialNodesRequest sent;
  v1::SelectInfluentialNodesResponse resp;
  resp.add_nodes("34");
  resp.add_nodes("1");
  resp.set_epsilon_charged(2);
  resp.set_request_id("n-1");
  EXPECT_CALL(*buyer_, SelectInfluentialNodes(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"top-nodes", "karate", "--k", "2", "--objectives", "degree",
                 "--approach", "pareto", "--sensitivity", "global", "--weights",
                 "1", "--epsilon", "2", "--request-id", "n-1", "--json"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "karate");
  EXPECT_EQ(sent.k(), 2u);
  ASSERT_EQ(sent.objectives_size(), 1);
  EXPECT_EQ(sent.objectives(0), v1::NODE_OBJECTIVE_DEGREE);
  EXPECT_EQ(sent.approach(), v1::SELECTION_APPROACH_PARETO);
  EXPECT_EQ(sent.sensitivity(), v1::SENSITIVITY_MODE_GLOBAL);
  EXPECT_THAT(sent.weights(), ::testing::ElementsAre(1));
  EXPECT_DOUBLE_EQ(sent.epsilon(), 2);
  EXPECT_EQ(
      out(),
      R"({"nodes":["34","1"],"epsilonCharged":2,)"
      R"("remainingBudget":0,"requestId":"n-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
      "\n");
}

}  // namespace
}  // namespace dpq::client
