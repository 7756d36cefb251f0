// `dpq cuboids`: flags, the request sent, tables per cuboid and the JSON.
#include "client/commands/cuboids.h"

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
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(ParseCuboidsTest, EveryFlag) {
  const v1::ReleaseCuboidsRequest request = ParsedRequest<CuboidsCommand>(
      {"cuboids", "adult", "--dims", "Sex,Age", "--dims=Salary", "--epsilon",
       "0.5", "--integral", "--request-id", "c-1"});
  EXPECT_EQ(request.dataset_id(), "adult");
  ASSERT_EQ(request.cuboids_size(), 2);
  EXPECT_THAT(request.cuboids(0).dimensions(), ElementsAre("Sex", "Age"));
  EXPECT_THAT(request.cuboids(1).dimensions(), ElementsAre("Salary"));
  EXPECT_DOUBLE_EQ(request.epsilon(), 0.5);
  EXPECT_TRUE(request.non_negative_integral());
  // The request id goes into the request when it is sent.
  EXPECT_EQ(ParsedLine({"cuboids", "adult", "--dims", "A", "--epsilon", "1",
                        "--request-id", "c-1"})
                .line()
                .command()
                ->GivenRequestId(),
            "c-1");
}

TEST(ParseCuboidsTest, DefaultsAndTheApexCuboid) {
  const v1::ReleaseCuboidsRequest request = ParsedRequest<CuboidsCommand>(
      {"cuboids", "adult", "--dims", "", "--epsilon", "1"});
  ASSERT_EQ(request.cuboids_size(), 1);
  EXPECT_THAT(request.cuboids(0).dimensions(), IsEmpty());
  EXPECT_FALSE(request.non_negative_integral());
  EXPECT_EQ(request.request_id(), "");
  // `--dims=` is the apex cuboid too.
  EXPECT_THAT(ParsedRequest<CuboidsCommand>({"cuboids", "adult", "--dims=",
                                             "--dims", "A", "--epsilon", "1"})
                  .cuboids(0)
                  .dimensions(),
              IsEmpty());
}

TEST(ParseCuboidsTest, Errors) {
  ExpectUsageError({"cuboids", "adult", "--epsilon", "1"},
                   "dpq cuboids: --dims is required");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex"},
                   "dpq cuboids: --epsilon is required");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex", "--epsilon", "x"},
                   "--epsilon expects a finite number, got 'x'");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex,Sex", "--epsilon", "1"},
                   "--dims: 'Sex' is given twice");
  ExpectUsageError(
      {"cuboids", "adult", "--dims", "Sex", "--epsilon", "1", "--integral=yes"},
      "--integral takes no value");
  ExpectUsageError({"cuboids", "--dims", "Sex", "--epsilon", "1"},
                   "dpq cuboids expects ID");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex", "--epsilon", "1",
                    "--request-id", ""},
                   "--request-id");
}

const char kCuboids[] = R"pb(
  cuboids {
    dimensions: "Sex"
    dimensions: "Age"
    cells { values: "F" values: "[0,30)" count: 101.25 }
    cells { values: "F" values: "other" count: -2 }
    cells { values: "M" values: "[0,30)" count: 99 }
    cells { values: "M" values: "other" count: 0.5 }
  }
  cuboids { cells { count: 1000 } }
  noise_stddev: 2.82843
  noise_stddev: 1.41421
  strategy: "per_cuboid"
  sensitivity: 2
  epsilon_charged: 1
  remaining_budget: 2
  request_id: "c-1"
)pb";

TEST(CuboidsTextTest, HumanTablesPerCuboidThenNoiseAndCharge) {
  const auto resp = FromText<v1::ReleaseCuboidsResponse>(kCuboids);
  EXPECT_EQ(CuboidsText("adult", resp),
            "Cuboid 1 of adult: Sex, Age (noise stddev 2.82843 per cell)\n"
            "Sex  Age     COUNT\n"
            "F    [0,30)  101.25\n"
            "F    other   -2\n"
            "M    [0,30)  99\n"
            "M    other   0.50\n"
            "\n"
            "Cuboid 2 of adult: (total) (noise stddev 1.41421 per cell)\n"
            "COUNT\n"
            "1000\n"
            "\n"
            "strategy per cuboid, sensitivity 2; charged epsilon 1, "
            "remaining 2\n"
            "request id: c-1\n");
}

// The response as it is: a cell's values follow its cuboid's dimensions,
// and noiseStddev[i] belongs to cuboids[i].
TEST(CuboidsTextTest, JsonCellsCarryTheirDimensionValues) {
  const auto resp = FromText<v1::ReleaseCuboidsResponse>(kCuboids);
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"j({"cuboids":[{"dimensions":["Sex","Age"],"cells":[)j"
      R"j({"values":["F","[0,30)"],"count":101.25},)j"
      R"j({"values":["F","other"],"count":-2},)j"
      R"j({"values":["M","[0,30)"],"count":99},)j"
      R"j({"values":["M","other"],"count":0.5}]},)j"
      R"j({"dimensions":[],"cells":[{"values":[],"count":1000}]}],)j"
      R"j("noiseStddev":[2.82843,1.41421],"strategy":"per_cuboid",)j"
      R"j("sensitivity":2,"epsilonCharged":1,"remainingBudget":2,)j"
      R"j("requestId":"c-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})j"
      "\n");
}

TEST(CuboidsTextTest, MissingStddevIsDashAndReplayIsExplained) {
  v1::ReleaseCuboidsResponse resp;
  v1::Cuboid* c = resp.add_cuboids();
  c->add_dimensions("Sex");
  v1::CuboidCell* cell = c->add_cells();
  cell->add_values("F");
  cell->set_count(3);
  resp.set_strategy("base_cuboid");
  resp.set_sensitivity(1);
  resp.set_remaining_budget(2);
  resp.set_request_id("c-2");
  resp.set_replayed(true);
  const std::string text = CuboidsText("adult", resp);
  EXPECT_THAT(text, HasSubstr("Sex (noise stddev - per cell)\n"));
  EXPECT_THAT(text, HasSubstr("strategy base cuboid, sensitivity 1; charged "
                              "epsilon 0 (recorded answer of an earlier "
                              "call), remaining 2\n"));
  EXPECT_THAT(*ProtoJsonLine(resp), HasSubstr(R"j("noiseStddev":[],)j"));
  EXPECT_THAT(
      *ProtoJsonLine(resp),
      HasSubstr(
          R"j("replayed":true,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})j"));
}

TEST_F(CliTest, CuboidsSendsEveryCuboidAndPrintsJson) {
  v1::ReleaseCuboidsRequest sent;
  v1::ReleaseCuboidsResponse resp;
  v1::Cuboid* c = resp.add_cuboids();
  c->add_dimensions("Sex");
  v1::CuboidCell* cell = c->add_cells();
  cell->add_values("F");
  cell->set_count(7);
  resp.add_noise_stddev(1.5);
  resp.set_strategy("per_cuboid");
  resp.set_epsilon_charged(1);
  resp.set_request_id("c-1");
  EXPECT_CALL(*buyer_, ReleaseCuboids(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "cuboids", "adult", "--dims", "Sex,Age", "--dims",
                 "", "--epsilon", "1", "--integral", "--request-id", "c-1"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "adult");
  ASSERT_EQ(sent.cuboids_size(), 2);
  EXPECT_THAT(sent.cuboids(0).dimensions(),
              ::testing::ElementsAre("Sex", "Age"));
  EXPECT_THAT(sent.cuboids(1).dimensions(), IsEmpty());
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_TRUE(sent.non_negative_integral());
  EXPECT_EQ(sent.request_id(), "c-1");
  EXPECT_EQ(out(), *ProtoJsonLine(resp));
  EXPECT_THAT(out(), HasSubstr(R"("cells":[{"values":["F"],"count":7}])"));
}

TEST_F(CliTest, CuboidsWithoutRequestIdGeneratesOneAndPrintsIt) {
  v1::ReleaseCuboidsRequest sent;
  EXPECT_CALL(*buyer_, ReleaseCuboids(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"cuboids", "adult", "--dims", "Sex", "--epsilon", "1"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_FALSE(sent.non_negative_integral());
  // The server left the id out: the one sent is printed.
  EXPECT_THAT(out(), HasSubstr("request id: dpq-generated\n"));
  EXPECT_EQ(
      Run({"--json", "cuboids", "adult", "--dims", "Sex", "--epsilon", "1"}),
      kExitOk);
  EXPECT_THAT(out(), HasSubstr(R"("requestId":"dpq-generated")"));
}

}  // namespace
}  // namespace dpq::client
