#include "tools/dpq_measure/measure_tool.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::tools {
namespace {

using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Paper Figure 1: FD Capital -> Country; row 4 has the typo "Kanada".
constexpr char kFigure1Csv[] =
    "Capital,Country\nOttawa,Canada\nOttawa,Canada\nOttawa,Canada\n"
    "Ottawa,Kanada\n";
constexpr char kFigure1Dc[] = "# paper Example 1\nCapital -> Country\n";

class MeasureToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = Write("figure1.csv", kFigure1Csv);
    dc_ = Write("figure1.dc", kFigure1Dc);
    schema_ = Write("figure1.schema", "Capital: string\nCountry: string\n");
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    WriteFileOrDie(path, text);
    return path;
  }

  MeasureToolOptions Exact(const std::string& measure) {
    MeasureToolOptions o;
    o.data_path = data_;
    o.constraints_path = dc_;
    o.schema_path = schema_;
    o.measure = measure;
    o.exact = true;
    return o;
  }

  MeasureToolOptions Private(const std::string& measure, double eps) {
    MeasureToolOptions o = Exact(measure);
    o.exact = false;
    o.epsilon = eps;
    o.public_max_rows = 10;
    o.seed = 42;
    return o;
  }

  TempDir temp_dir_{"dpq-measure-tool"};
  const std::filesystem::path dir_{temp_dir_.path()};
  std::string data_, dc_, schema_;
  std::vector<std::string> warnings_;
};

TEST_F(MeasureToolTest, ExactMeasuresOfFigure1) {
  auto mi = RunMeasureTool(Exact("mi"), &warnings_);
  ASSERT_OK(mi);
  EXPECT_THAT(*mi, StartsWith("{\"measure\":\"MI\",\"exact\":true,\"value\":3,"
                              "\"rows\":4,\"edges\":3,\"graph_seconds\":"));
  EXPECT_THAT(RunMeasureTool(Exact("p"), &warnings_),
              ::dpq::testing::IsOkAndHolds(HasSubstr("\"value\":4,")));
  EXPECT_THAT(RunMeasureTool(Exact("d"), &warnings_),
              ::dpq::testing::IsOkAndHolds(HasSubstr("\"value\":1,")));
  EXPECT_THAT(RunMeasureTool(Exact("mc"), &warnings_),
              ::dpq::testing::IsOkAndHolds(HasSubstr("\"value\":2,")));
  auto r = RunMeasureTool(Exact("r"), &warnings_);
  ASSERT_OK(r);
  EXPECT_THAT(*r, HasSubstr("\"value\":1,\"optimal\":true,\"lower_bound\":1,"
                            "\"upper_bound\":1,\"lp_bound\":1,\"approx_2\":2"));
}

TEST_F(MeasureToolTest, PrivateRunReportsEpsilonThetaAndBound) {
  auto out = RunMeasureTool(Private("mi", 1.0), &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, StartsWith("{\"measure\":\"MI\",\"exact\":false,"
                               "\"value\":"));
  EXPECT_THAT(*out, HasSubstr(",\"rows\":4,\"edges\":3,\"graph_seconds\":"));
  EXPECT_THAT(*out, HasSubstr("\"epsilon\":1,\"theta\":"));
  EXPECT_THAT(*out, HasSubstr("\"bound95\":"));
  // group_bound is the default for mi; its value is a lower bound, with
  // an interval that includes the undercount.
  EXPECT_THAT(*out, HasSubstr("\"method\":\"group_bound\",\"estimates\":"
                              "\"lower_bound\",\"public_max_rows\":10"));
  EXPECT_THAT(*out, HasSubstr("\"lower95\":"));
  EXPECT_THAT(*out, HasSubstr(",\"upper_proved\":true,\"degree_upper\":"));
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(MeasureToolTest, NamedMethodOfMiAndPIsUsed) {
  for (const char* measure : {"mi", "p"}) {
    for (const char* method : {"group_bound", "gem", "optimized",
                               "hierarchical", "basic", "baseline"}) {
      MeasureToolOptions o = Private(measure, 1.0);
      o.method = method;
      auto out = RunMeasureTool(o, &warnings_);
      ASSERT_OK(out);
      EXPECT_THAT(*out, HasSubstr(absl::StrCat("\"method\":\"", method,
                                               "\",\"estimates\":"
                                               "\"lower_bound\"")))
          << measure;
    }
  }
}

// K4: four rows of Ottawa with four countries. I_R = 3; the plain LP bound
// is 2, and cover_bound's clique LP, with the FD's block, proves 3.
constexpr char kCliqueCsv[] =
    "Capital,Country\nOttawa,A\nOttawa,B\nOttawa,C\nOttawa,D\n";

TEST_F(MeasureToolTest, RepairDefaultsToCoverBoundALowerBound) {
  MeasureToolOptions o = Private("r", 1e6);
  o.data_path = Write("clique.csv", kCliqueCsv);
  auto out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  // At epsilon 1e6 the noise is 0 (but with negligible probability).
  EXPECT_THAT(*out, StartsWith("{\"measure\":\"R\",\"exact\":false,"
                               "\"value\":3,"));
  // The LP's integrality gap of 2 gives the upper end.
  EXPECT_THAT(*out, HasSubstr("\"theta\":null,\"bound95\":0,\"lower95\":3,"
                              "\"upper95\":6,\"upper_proved\":true,"
                              "\"method\":\"cover_bound\","
                              "\"estimates\":\"lower_bound\""));
}

TEST_F(MeasureToolTest, RepairMethodExactComputesTheCoverFirst) {
  MeasureToolOptions o = Private("r", 1e6);
  o.data_path = Write("clique.csv", kCliqueCsv);
  o.method = "exact";
  auto out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, StartsWith("{\"measure\":\"R\",\"exact\":false,"
                               "\"value\":3,"));
  EXPECT_THAT(*out, HasSubstr("\"method\":\"exact\","
                              "\"estimates\":\"exact\""));
  // And on Figure 1 (I_R = 1), at a usual epsilon.
  o = Private("r", 1.0);
  o.method = "EXACT";
  out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, HasSubstr("\"method\":\"exact\","
                              "\"estimates\":\"exact\""));
  // Algorithm 5 estimates an upper bound.
  o.method = "vertex_cover";
  out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, HasSubstr("\"method\":\"vertex_cover\","
                              "\"estimates\":\"upper_bound\""));
}

// 700 triangles chained by edges: one component of 2100 nodes, above the
// exact solver's default max_component_nodes, with LP bound < greedy.
TEST_F(MeasureToolTest, RepairMethodExactFailsWhenTheCoverCannotBeProven) {
  std::string csv = "A,B,C,D\n";
  const int n = 2100;
  for (int i = 0; i < n; ++i) {
    int c = 1'000'000 + i;
    if (i % 3 == 2 && i + 1 < n) c = i / 3;
    if (i % 3 == 0 && i > 0) c = i / 3 - 1;
    absl::StrAppend(&csv, i / 3, ",", i, ",", c, ",", i, "\n");
  }
  MeasureToolOptions o = Private("r", 1.0);
  o.data_path = Write("chain.csv", csv);
  o.constraints_path = Write("chain.dc", "A -> B\nC -> D\n");
  o.schema_path =
      Write("chain.schema", "A: int64\nB: int64\nC: int64\nD: int64\n");
  o.public_max_rows = 5000;
  o.method = "exact";
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("could not be proven"),
                             HasSubstr("max_component_nodes"))));
  o.method = "";  // cover_bound needs no proof
  EXPECT_OK(RunMeasureTool(o, &warnings_));
}

TEST_F(MeasureToolTest, MethodOfTheOtherMeasureIsRefusedBeforeLoading) {
  MeasureToolOptions o = Private("mi", 1.0);
  o.data_path = "/nonexistent.csv";
  o.method = "cover_bound";
  EXPECT_THAT(
      RunMeasureTool(o, &warnings_),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("'cover_bound'"), HasSubstr("I_MI or I_P"))));
  o = Private("r", 1.0);
  o.data_path = "/nonexistent.csv";
  o.method = "gem";
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("'gem'"), HasSubstr("I_R"),
                             HasSubstr("cover_bound"))));
}

TEST_F(MeasureToolTest, SameSeedGivesSameAnswerDifferentSeedUsuallyNot) {
  MeasureToolOptions o = Private("r", 0.5);
  auto a = RunMeasureTool(o, &warnings_);
  auto b = RunMeasureTool(o, &warnings_);
  ASSERT_OK(a);
  ASSERT_OK(b);
  auto strip_times = [](std::string s) {
    return s.substr(0, s.find("\"graph_seconds\"")) +
           s.substr(s.find(",", s.find("\"graph_seconds\"")));
  };
  EXPECT_EQ(strip_times(*a), strip_times(*b));
  // Over 20 seeds the noisy cover bound (the default for r; noise scale
  // 1 / 0.5 = 2) takes several values.
  std::set<std::string> distinct;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    o.seed = seed;
    auto out = RunMeasureTool(o, &warnings_);
    ASSERT_OK(out);
    distinct.insert(strip_times(*out));
  }
  EXPECT_GT(distinct.size(), 3u);
}

TEST_F(MeasureToolTest, MissingPublicMaxRowsWarnsAndUsesRowCount) {
  MeasureToolOptions o = Private("p", 1.0);
  o.public_max_rows.reset();
  auto out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, HasSubstr("\"public_max_rows\":4"));
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_THAT(warnings_[0], HasSubstr("treats it as public"));
}

TEST_F(MeasureToolTest, DrasticAndMaximalConsistencyAreRefusedUnderDp) {
  EXPECT_THAT(RunMeasureTool(Private("d", 1.0), &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("I_D")));
  EXPECT_THAT(RunMeasureTool(Private("mc", 1.0), &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("I_MC")));
}

TEST_F(MeasureToolTest, PublicMaxRowsBelowRowCountIsRefused) {
  MeasureToolOptions o = Private("mi", 1.0);
  o.public_max_rows = 3;
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("public_max_rows")));
}

TEST_F(MeasureToolTest, BadEpsilonIsRefusedBeforeLoading) {
  MeasureToolOptions o = Private("mi", -1);
  o.data_path = "/nonexistent.csv";
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Epsilon must be finite and positive")));
}

TEST_F(MeasureToolTest, ErrorsFromTheInputsNameTheProblem) {
  MeasureToolOptions o = Exact("mi");
  o.data_path = (dir_ / "missing.csv").string();
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("missing.csv")));
  o = Exact("mi");
  o.data_path = Write("bad.csv", "A,B\n1,2\n3\n");
  o.schema_path.reset();
  EXPECT_THAT(
      RunMeasureTool(o, &warnings_),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 3")));
  o = Exact("mi");
  o.constraints_path = Write("bad.dc", "Capital -> Population\n");
  EXPECT_THAT(
      RunMeasureTool(o, &warnings_),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Population")));
  o = Exact("q");
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown measure 'q'")));
}

// dpq-measure never infers a type per run (docs/privacy.md 2.2). The schema
// declares every column (a column it leaves out is refused); without one every
// column is text, a data-independent default, said in a warning.
TEST_F(MeasureToolTest, TypesAreDeclaredOrEveryColumnIsText) {
  MeasureToolOptions o = Exact("mi");
  o.data_path = Write("nums.csv", "A,B\n1.0,x\n1.00,y\n");
  o.constraints_path = Write("nums.dc", "A -> B\n");
  o.schema_path = Write("nums.schema", "A: double\nB: string\n");
  // As doubles 1.0 = 1.00: one conflicting pair.
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              ::dpq::testing::IsOkAndHolds(HasSubstr("\"value\":1,")));
  EXPECT_TRUE(warnings_.empty());
  // As text they differ: none.
  o.schema_path.reset();
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              ::dpq::testing::IsOkAndHolds(HasSubstr("\"value\":0,")));
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_THAT(warnings_[0], HasSubstr("every column is read as text"));
  o.schema_path = Write("partial.schema", "A: double\n");
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("no type is declared for column \"B\"")));
  o.schema_path = Write("bad.schema", "A: decimal\n");
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown column type 'decimal'")));
}

TEST_F(MeasureToolTest, PrintSchemaSuggestsTypesForTheOwnerToReview) {
  MeasureToolOptions o;
  o.print_schema = true;
  o.data_path = Write("mixed.csv", "a,b,c\n1,1.5,x\n2,2,y\n");
  EXPECT_THAT(RunMeasureTool(o, &warnings_),
              ::dpq::testing::IsOkAndHolds(
                  ::testing::EndsWith("a: int64\nb: double\nc: string\n")));
  EXPECT_THAT(ParseMeasureToolArgs({"dpq-measure", "--print-schema", "--data",
                                    "d.csv", "--epsilon", "1"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--print-schema only needs --data")));
  EXPECT_TRUE(
      ParseMeasureToolArgs({"dpq-measure", "--print-schema", "--data", "d.csv"})
          .ok());
}

TEST_F(MeasureToolTest, StatsAddDegreeAndPerDcCounts) {
  MeasureToolOptions o = Exact("mi");
  o.stats = true;
  auto out = RunMeasureTool(o, &warnings_);
  ASSERT_OK(out);
  EXPECT_THAT(*out, HasSubstr("\"max_degree\":3,\"non_isolated\":4,"));
  EXPECT_THAT(*out, HasSubstr("\"violating_pairs\":3"));
}

TEST(MeasureToolArgsTest, ParsesBothFlagForms) {
  auto o = ParseMeasureToolArgs(
      {"dpq-measure", "--data", "d.csv", "--constraints=c.dc", "--measure",
       "mi", "--epsilon=0.5", "--method", "basic", "--public-max-rows", "100",
       "--seed", "7", "--stats"});
  ASSERT_OK(o);
  EXPECT_EQ(o->data_path, "d.csv");
  EXPECT_EQ(o->constraints_path, "c.dc");
  EXPECT_EQ(*o->epsilon, 0.5);
  EXPECT_EQ(o->method, "basic");
  // No --method: the measure's default, decided by RunMeasureTool.
  auto r =
      ParseMeasureToolArgs({"dpq-measure", "--data", "d.csv", "--constraints",
                            "c.dc", "--measure", "r", "--epsilon", "1"});
  ASSERT_OK(r);
  EXPECT_EQ(r->method, "");
  r = ParseMeasureToolArgs({"dpq-measure", "--data", "d.csv", "--constraints",
                            "c.dc", "--measure", "r", "--epsilon", "1",
                            "--method", "exact"});
  ASSERT_OK(r);
  EXPECT_EQ(r->method, "exact");
  EXPECT_EQ(*o->public_max_rows, 100u);
  EXPECT_EQ(*o->seed, 7u);
  EXPECT_TRUE(o->stats);
}

TEST(MeasureToolArgsTest, RejectsBadCommandLines) {
  const std::vector<std::string> base = {
      "dpq-measure", "--data",    "d.csv", "--constraints",
      "c.dc",        "--measure", "mi"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return ParseMeasureToolArgs(args);
  };
  EXPECT_THAT(with({}), StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("exactly one of --exact")));
  EXPECT_THAT(with({"--exact", "--epsilon", "1"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("exactly one of --exact")));
  EXPECT_THAT(with({"--epsilon", "abc"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--epsilon expects a number, got 'abc'")));
  EXPECT_THAT(with({"--exact", "--frobnicate", "1"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown flag '--frobnicate'")));
  EXPECT_THAT(with({"--exact", "--seed", "1"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--seed only applies")));
  EXPECT_THAT(with({"--epsilon"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--epsilon needs a value")));
  EXPECT_THAT(ParseMeasureToolArgs({"dpq-measure", "--exact"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--data F.csv is required")));
}

// The binary itself: exit codes and the stdout/stderr split.
std::string RunBinary(const std::string& args, int* exit_code) {
  const std::string cmd =
      std::string(DPQ_MEASURE_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  *exit_code = WEXITSTATUS(status);
  return out;
}

TEST(MeasureToolBinaryTest, ExitCodesSeparateUsageAndDataErrors) {
  int code = -1;
  std::string out = RunBinary("--help", &code);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(out, HasSubstr("usage: dpq-measure"));
  out = RunBinary("--data x.csv", &code);
  EXPECT_EQ(code, 2);
  EXPECT_THAT(out, HasSubstr("--constraints F.dc is required"));
  out = RunBinary(
      "--data /nonexistent.csv --constraints c.dc --measure mi "
      "--exact",
      &code);
  EXPECT_EQ(code, 1);
  EXPECT_THAT(out, HasSubstr("dpq-measure: "));
  EXPECT_THAT(out, HasSubstr("/nonexistent.csv"));
}

TEST(MeasureToolBinaryTest, DemoDataGivesOneJsonLine) {
  int code = -1;
  const std::string src = DPQ_SOURCE_DIR;
  std::string out = RunBinary("--data " + src + "/deploy/demo/hospital.csv" +
                                  " --constraints " + src +
                                  "/deploy/demo/hospital.dc --schema " + src +
                                  "/deploy/demo/hospital.schema --measure mi "
                                  "--epsilon 1 --public-max-rows 2000",
                              &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, StartsWith("{\"measure\":\"MI\",\"exact\":false,"
                              "\"value\":"));
  EXPECT_THAT(out, HasSubstr(",\"rows\":1000,\"edges\":11313,"));
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

TEST_F(MeasureToolTest, BinaryTakesTheMethodOfR) {
  const std::string common = "--data " + data_ + " --constraints " + dc_ +
                             " --schema " + schema_ +
                             " --measure r --epsilon 1 --public-max-rows 10 "
                             "--seed 3";
  int code = -1;
  std::string out = RunBinary(common + " --method exact", &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("\"method\":\"exact\",\"estimates\":"
                             "\"exact\""));
  out = RunBinary(common, &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("\"method\":\"cover_bound\",\"estimates\":"
                             "\"lower_bound\""));
  out = RunBinary(common + " --method optimized", &code);
  EXPECT_NE(code, 0);
  EXPECT_THAT(out, HasSubstr("'optimized' for I_R"));
}

}  // namespace
}  // namespace dpq::server::tools
