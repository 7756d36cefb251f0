// `dpq measure`: flags, the request sent, the sentence and the JSON.
#include "client/commands/measure.h"

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
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::dpq::testing::StatusIs;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(ParseBuyerTest, MeasureWithAllFlags) {
  v1::MeasureInconsistencyRequest inv = ParsedRequest<MeasureCommand>(
      {"measure", "hospital", "--measure", "MI", "--epsilon=0.5", "--method",
       "hierarchical", "--request-id", "r-1"});
  EXPECT_EQ(inv.dataset_id(), "hospital");
  EXPECT_EQ(inv.measure(), dpq::v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(inv.epsilon(), 0.5);
  EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_HIERARCHICAL);
  EXPECT_EQ(inv.request_id(), "r-1");
}

TEST(ParseBuyerTest, MeasureDefaultsAndEveryMeasureAndMethod) {
  v1::MeasureInconsistencyRequest inv = ParsedRequest<MeasureCommand>(
      {"measure", "h", "--measure", "r", "--epsilon", "1"});
  EXPECT_EQ(inv.measure(), dpq::v1::MEASURE_R);
  EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv.request_id(), "");
  EXPECT_EQ(ParsedRequest<MeasureCommand>(
                {"measure", "h", "--measure", "p", "--epsilon", "1"})
                .measure(),
            dpq::v1::MEASURE_P);
  const std::map<std::string, dpq::v1::SelectionMethod> methods = {
      {"gem", dpq::v1::SELECTION_METHOD_GEM},
      {"GEM", dpq::v1::SELECTION_METHOD_GEM},
      {"optimized", dpq::v1::SELECTION_METHOD_OPTIMIZED},
      {"hierarchical", dpq::v1::SELECTION_METHOD_HIERARCHICAL},
      {"basic", dpq::v1::SELECTION_METHOD_BASIC},
      {"baseline", dpq::v1::SELECTION_METHOD_BASELINE}};
  for (const auto& [name, method] : methods) {
    EXPECT_EQ(
        ParsedRequest<MeasureCommand>({"measure", "h", "--measure", "mi",
                                       "--epsilon", "1", "--method", name})
            .method(),
        method)
        << name;
  }
}

// --method of --measure r names a method of I_R: it sets repair_method and
// leaves method alone (and the order of the flags does not matter).
TEST(ParseBuyerTest, MeasureRTakesTheRepairMethods) {
  const std::map<std::string, dpq::v1::RepairMethod> methods = {
      {"cover_bound", dpq::v1::REPAIR_METHOD_COVER_BOUND},
      {"exact", dpq::v1::REPAIR_METHOD_EXACT},
      {"Exact", dpq::v1::REPAIR_METHOD_EXACT},
      {"vertex_cover", dpq::v1::REPAIR_METHOD_VERTEX_COVER}};
  for (const auto& [name, method] : methods) {
    SCOPED_TRACE(name);
    v1::MeasureInconsistencyRequest inv = ParsedRequest<MeasureCommand>(
        {"measure", "h", "--measure", "r", "--epsilon", "1", "--method", name});
    EXPECT_EQ(inv.repair_method(), method);
    EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_UNSPECIFIED);
    inv = ParsedRequest<MeasureCommand>(
        {"measure", "h", "--method", name, "--epsilon", "1", "--measure", "R"});
    EXPECT_EQ(inv.repair_method(), method);
  }
  // And the other way round: mi / p never set repair_method.
  v1::MeasureInconsistencyRequest inv = ParsedRequest<MeasureCommand>(
      {"measure", "h", "--measure", "p", "--epsilon", "1", "--method", "gem"});
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_UNSPECIFIED);
}

TEST(ParseBuyerTest, MethodOfTheOtherMeasureIsAUsageError) {
  for (const char* repair : {"cover_bound", "exact", "vertex_cover"}) {
    for (const char* measure : {"mi", "p"}) {
      ExpectUsageError({"measure", "h", "--measure", measure, "--epsilon", "1",
                        "--method", repair},
                       absl::StrCat("--method for mi and p must be one of "
                                    "group_bound, gem, optimized, "
                                    "hierarchical, basic, baseline; got '",
                                    repair, "'"));
    }
  }
  for (const char* selection : {"gem", "optimized", "baseline"}) {
    ExpectUsageError({"measure", "h", "--measure", "r", "--epsilon", "1",
                      "--method", selection},
                     absl::StrCat("the method for r must be one of "
                                  "cover_bound, exact, vertex_cover; got '",
                                  selection, "'"));
  }
  // measure has no --repair-method: --method does it.
  ExpectUsageError({"measure", "h", "--measure", "r", "--epsilon", "1",
                    "--repair-method", "exact"},
                   "Unknown flag '--repair-method' for 'dpq measure'");
  // A usage error exits 2 before any RPC: see cli_test.cc.
  EXPECT_THAT(
      ParsedLine({"measure", "h", "--measure", "mi", "--epsilon", "1",
                  "--method", "cover_bound"})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'cover_bound'")));
}

TEST(ParseBuyerTest, MeasureErrors) {
  ExpectUsageError({"measure", "--measure", "mi", "--epsilon", "1"},
                   "dpq measure expects ID");
  ExpectUsageError({"measure", "h", "--epsilon", "1"},
                   "dpq measure: --measure is required");
  ExpectUsageError({"measure", "h", "--measure", "mi"},
                   "dpq measure: --epsilon is required");
  ExpectUsageError({"measure", "h", "--measure", "d", "--epsilon", "1"},
                   "--measure must be one of mi, p, r; got 'd'");
  ExpectUsageError({"measure", "h", "--measure", "mi", "--epsilon", "lots"},
                   "--epsilon expects a finite number, got 'lots'");
  ExpectUsageError({"measure", "h", "--measure", "mi", "--epsilon", "inf"},
                   "--epsilon expects a finite number, got 'inf'");
  ExpectUsageError({"measure", "h", "--measure", "mi", "--epsilon", "nan"},
                   "--epsilon expects a finite number");
  ExpectUsageError({"measure", "h", "--measure", "mi", "--epsilon", "1",
                    "--method", "magic"},
                   "--method for mi and p must be one of group_bound, gem, "
                   "optimized, hierarchical, basic, baseline; got 'magic'");
  ExpectUsageError(
      {"measure", "h", "--measure", "r", "--epsilon", "1", "--method", "magic"},
      "the method for r must be one of cover_bound, exact, "
      "vertex_cover; got 'magic'");
  ExpectUsageError(
      {"measure", "h", "--measure", "mi", "--epsilon", "1", "--request-id="},
      "--request-id must have 1-128 characters");
  ExpectUsageError(
      {"measure", "h", "--measure", "mi", "--epsilon", "1", "--epsilon", "2"},
      "--epsilon is given more than once");
  ExpectUsageError(
      {"measure", "h", "--measure", "mi", "--epsilon", "1", "--history"},
      "Unknown flag '--history' for 'dpq measure'");
  ExpectUsageError({"measure", "h", "--measure"}, "--measure needs a value");
}

TEST(ParseBuyerTest, NonPositiveEpsilonIsLeftToTheServer) {
  // The server owns the range check (INVALID_ARGUMENT naming epsilon); the
  // CLI only insists on a number. A negative value is not taken for a flag.
  v1::MeasureInconsistencyRequest inv = ParsedRequest<MeasureCommand>(
      {"measure", "h", "--measure", "mi", "--epsilon", "-1"});
  EXPECT_DOUBLE_EQ(inv.epsilon(), -1);
}

const char kMeasureMi[] = R"pb(
  result {
    measure: MEASURE_MI
    value: 11295
    epsilon: 1
    theta: 100
    bound95: 499
    method: "gem"
    estimate: ESTIMATE_LOWER_BOUND
    lower95: 10796
    upper95: 12000
    upper_proved: true
    degree_upper: 150
    truncated: true
  }
  epsilon_charged: 1
  remaining_budget: 2
  request_id: "r-1"
)pb";

TEST(MeasureTextTest, HumanSentence) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  EXPECT_EQ(MeasureText(resp),
            "I_MI (conflicting pairs) ~ 11295 (95% interval: 10796 to 12000; "
            "includes the possible undercount; noise alone \u00b1499), theta "
            "100 (rows have at most 150 conflicts), method gem; charged "
            "epsilon 1, remaining 2\n"
            "request id: r-1\n");
}

TEST(MeasureTextTest, Json) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"result":{"measure":"MEASURE_MI","value":"11295","epsilon":1,)"
      R"("theta":100,"bound95":"499","method":"gem",)"
      R"("estimate":"ESTIMATE_LOWER_BOUND","epsilonUnits":"0","lower95":"10796",)"
      R"("upper95":"12000","upperProved":true,"degreeUpper":"150","truncated":true},"epsilonCharged":1,)"
      R"("remainingBudget":2,"requestId":"r-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
      "\n");
}

// An exact estimate gets no caveat: the noise is all the error.
TEST(MeasureTextTest, ExactRepairHasNoCaveat) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(R"pb(
    result {
      measure: MEASURE_R
      value: 41
      epsilon: 1
      bound95: 3
      method: "exact"
      estimate: ESTIMATE_EXACT
      lower95: 38
      upper95: 44
      upper_proved: true
    }
    epsilon_charged: 1
    remaining_budget: 0
    request_id: "x"
  )pb");
  const std::string human = MeasureText(resp);
  EXPECT_EQ(human,
            "I_R (minimal repair deletions) ~ 41 (95% interval: 38 to 44; "
            "noise only; noise alone \u00b13), method exact; charged epsilon "
            "1, remaining 0\n"
            "request id: x\n");
  EXPECT_THAT(human, Not(HasSubstr("undercount")));
  EXPECT_THAT(
      *ProtoJsonLine(resp),
      HasSubstr(
          R"("method":"exact","estimate":"ESTIMATE_EXACT","epsilonUnits":"0",)"));
  // cover_bound on the same measure: a lower bound, said so.
  auto bound = resp;
  bound.mutable_result()->set_method("cover_bound");
  bound.mutable_result()->set_estimate(dpq::v1::ESTIMATE_LOWER_BOUND);
  EXPECT_THAT(MeasureText(bound),
              HasSubstr("(95% interval: 38 to 44; includes the possible "
                        "undercount; noise alone \u00b13), method "
                        "cover_bound;"));
  EXPECT_THAT(*ProtoJsonLine(bound),
              HasSubstr(R"("estimate":"ESTIMATE_LOWER_BOUND")"));
}

// A server from before the interval fields sends none: the answer is read
// as one-sided (nothing proved above), never as more precise than it is.
TEST(MeasureTextTest, MissingIntervalClaimsNothing) {
  auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  resp.mutable_result()->clear_estimate();
  resp.mutable_result()->clear_lower95();
  resp.mutable_result()->clear_upper95();
  resp.mutable_result()->clear_upper_proved();
  resp.mutable_result()->clear_degree_upper();
  EXPECT_THAT(MeasureText(resp),
              HasSubstr("(95% interval: at least 0; no upper limit known: "
                        "may undercount; noise alone \u00b1499), theta 100, "
                        "method gem"));
  EXPECT_THAT(*ProtoJsonLine(resp),
              HasSubstr(R"("estimate":"ESTIMATE_UNSPECIFIED")"));
}

TEST(MeasureTextTest, RHasNoThetaAndReplayIsExplained) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(R"pb(
    result {
      measure: MEASURE_R
      value: -3
      epsilon: 0.5
      bound95: 12
      method: "vertex_cover"
      estimate: ESTIMATE_UPPER_BOUND
      lower95: 0
      upper95: 9
      upper_proved: true
    }
    epsilon_charged: 0
    remaining_budget: 0.25
    request_id: "again"
    replayed: true
  )pb");
  const std::string human = MeasureText(resp);
  EXPECT_EQ(human,
            "I_R (minimal repair deletions) ~ -3 (95% interval: 0 to 9; "
            "includes the possible overcount; noise alone \u00b112), method "
            "vertex_cover; charged epsilon 0 (recorded answer of an earlier "
            "call), remaining 0.25\n"
            "request id: again\n");
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"result":{"measure":"MEASURE_R","value":"-3","epsilon":0.5,)"
      R"("theta":0,"bound95":"12","method":"vertex_cover",)"
      R"("estimate":"ESTIMATE_UPPER_BOUND","epsilonUnits":"0","lower95":"0",)"
      R"("upper95":"9","upperProved":true,"degreeUpper":"0","truncated":false},"epsilonCharged":0,)"
      R"("remainingBudget":0.25,"requestId":"again","replayed":true,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
      "\n");
}

TEST_F(CliTest, MeasureSendsEverythingAndPrintsJson) {
  v1::MeasureInconsistencyRequest sent;
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(CannedMeasure("r-9")),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "measure", "hospital", "--measure", "mi",
                 "--epsilon", "1", "--method", "basic", "--request-id", "r-9"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_EQ(sent.measure(), v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_BASIC);
  EXPECT_EQ(sent.request_id(), "r-9");
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(
      out(),
      R"({"result":{"measure":"MEASURE_MI","value":"11295","epsilon":1,)"
      R"("theta":100,"bound95":"499","method":"gem",)"
      R"("estimate":"ESTIMATE_LOWER_BOUND","epsilonUnits":"0","lower95":"10796",)"
      R"("upper95":"12000","upperProved":true,"degreeUpper":"150","truncated":true},"epsilonCharged":1,)"
      R"("remainingBudget":2,"requestId":"r-9","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
      "\n");
  EXPECT_THAT(err(), IsEmpty());
}

TEST_F(CliTest, MeasureWithoutRequestIdGeneratesAndPrintsOne) {
  v1::MeasureInconsistencyRequest sent;
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent),
                      SetArgPointee<2>(CannedMeasure("dpq-generated")),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "p", "--epsilon", "0.5"}),
            kExitOk);
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_EQ(sent.measure(), v1::MEASURE_P);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(),
            "I_MI (conflicting pairs) ~ 11295 (95% interval: 10796 to 12000; "
            "includes the possible undercount; noise alone \u00b1499), theta "
            "100 (rows have at most 150 conflicts), method gem; charged "
            "epsilon 1, remaining 2\n"
            "request id: dpq-generated\n");
}

TEST_F(CliTest, MeasureRSendsTheRepairMethodAndPrintsAnExactValue) {
  v1::MeasureInconsistencyRequest sent;
  v1::MeasureInconsistencyResponse resp = CannedMeasure("r-e");
  v1::MeasureResult* r = resp.mutable_result();
  r->set_measure(v1::MEASURE_R);
  r->set_value(412);
  r->set_theta(0);
  r->set_bound95(3);
  r->set_method("exact");
  r->set_estimate(v1::ESTIMATE_EXACT);
  r->set_lower95(409);
  r->set_upper95(415);
  r->set_degree_upper(0);
  r->set_truncated(false);
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                            Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "r", "--epsilon", "1",
                 "--method", "exact", "--request-id", "r-e"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.measure(), v1::MEASURE_R);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_EXACT);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(),
            "I_R (minimal repair deletions) ~ 412 (95% interval: 409 to 415; "
            "noise only; noise alone \u00b13), method exact; charged epsilon "
            "1, remaining 2\n"
            "request id: r-e\n");
  EXPECT_THAT(out(), Not(HasSubstr("undercount")));
  EXPECT_EQ(Run({"--json", "measure", "hospital", "--measure", "r", "--epsilon",
                 "1", "--method", "vertex_cover"}),
            kExitOk);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_THAT(out(),
              HasSubstr(R"("method":"exact","estimate":"ESTIMATE_EXACT")"));
}

TEST_F(CliTest, MethodOfTheOtherMeasureExits2WithoutAnRpc) {
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "mi", "--epsilon", "1",
                 "--method", "cover_bound"}),
            kExitUsage);
  EXPECT_THAT(out(), IsEmpty());
  EXPECT_THAT(err(), HasSubstr("--method for mi and p must be one of "
                               "group_bound, gem, optimized, hierarchical, "
                               "basic, baseline; got 'cover_bound'"));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "r", "--epsilon", "1",
                 "--method", "gem"}),
            kExitUsage);
  EXPECT_THAT(err(), HasSubstr("the method for r must be one of cover_bound, "
                               "exact, vertex_cover; got 'gem'"));
  EXPECT_EQ(connects_, 0);
}

}  // namespace
}  // namespace dpq::client
