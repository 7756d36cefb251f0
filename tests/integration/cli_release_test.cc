// The `dpq` binary against the real server for the cube and selection
// releases: `dpq admin register` with --cube-dimension/--public-cuboid and
// --kind graph, `dpq describe`, `dpq cuboids`, `dpq tree`, `dpq top-nodes`:
// success paths, the --json fields scripts rely on (protobuf's JSON mapping
// of each response: lowerCamelCase names), and one error each
// (exit 1 with one line "dpq: CODE: message", or exit 2 for usage).
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

// The count of the cell whose values are exactly `values_json` (e.g.
// ["F"]) in a `dpq --json cuboids` or `describe` output; NaN if absent.
double CellCount(const std::string& json, const std::string& values_json) {
  const std::string needle =
      absl::StrCat("{\"values\":", values_json, ",\"count\":");
  const size_t at = json.find(needle);
  if (at == std::string::npos) return std::nan("");
  const size_t start = at + needle.size();
  const size_t end = json.find('}', start);
  double d = std::nan("");
  if (!absl::SimpleAtod(json.substr(start, end - start), &d)) {
    return std::nan("");
  }
  return d;
}

// The first number of the JSON array "key": [1.5,...]; NaN if absent.
double JsonFirstNumber(const std::string& json, const std::string& key) {
  const std::regex re("\"" + key + "\":\\[(-?[0-9.eE+-]+)");
  std::smatch m;
  double d = std::nan("");
  if (!std::regex_search(json, m, re) || !absl::SimpleAtod(m[1].str(), &d)) {
    return std::nan("");
  }
  return d;
}

// The strings of the JSON array "key": ["a","b"] (flat arrays only).
std::vector<std::string> JsonStrings(const std::string& json,
                                     const std::string& key) {
  const std::regex re("\"" + key + "\":\\[([^\\]]*)\\]");
  std::smatch m;
  std::vector<std::string> out;
  if (!std::regex_search(json, m, re)) return out;
  const std::string body = m[1].str();
  for (absl::string_view item : absl::StrSplit(body, ',', absl::SkipEmpty())) {
    out.emplace_back(absl::StripSuffix(absl::StripPrefix(item, "\""), "\""));
  }
  return out;
}

// A failed command printed one line "dpq: CODE: ..." on stderr (and at
// most the details' line after it).
void ExpectOneErrorLine(const CommandResult& r, const std::string& code) {
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(ExpectErrorLines(r.err), StartsWith("dpq: " + code + ": "))
      << r.err;
}

// 40 rows: Sex alternates F, M (20 each: the public exact cuboid), Age in
// [18, 77], Income a function of both with a few exceptions.
std::string PeopleCsv() {
  std::string csv = "Sex,Age,Edu,Income\n";
  for (int i = 0; i < 40; ++i) {
    const int age = 18 + (i * 7) % 60;
    const bool rich = age > 40 && i % 3 != 0;
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", age, ",",
                    i % 4 == 0 ? "HS" : "BSc", ",", rich ? ">50K" : "<=50K",
                    "\n");
  }
  return csv;
}

// 8 nodes: node 1 is the hub (degree 5).
constexpr char kEdgesCsv[] =
    "source,target\n1,2\n1,3\n1,4\n1,5\n1,6\n2,3\n4,5\n6,7\n7,8\n";
const std::set<std::string> kNodeIds = {"1", "2", "3", "4", "5", "6", "7", "8"};

class CliReleaseTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    const std::string csv = dir_.Sub("people.csv");
    const std::string dc = dir_.Sub("people.dc");
    const std::string edges = dir_.Sub("edges.csv");
    const std::string nodes = dir_.Sub("nodes.txt");
    WriteFileOrDie(csv, PeopleCsv());
    WriteFileOrDie(dc, "Sex,Age -> Income\n");
    WriteFileOrDie(edges, kEdgesCsv);
    WriteFileOrDie(nodes, "1\n2\n3\n4\n5\n6\n7\n8\n");
    CommandResult r = Dpq({"admin",
                           "register",
                           "people",
                           "--data",
                           csv,
                           "--constraints",
                           dc,
                           "--public-max-rows",
                           "100",
                           "--infer-types",
                           "--cube-dimension",
                           "Sex=F|M",
                           "--cube-dimension",
                           "Age:0,30,60,100",
                           "--cube-dimension",
                           "Income=*",
                           "--cube-dimension",
                           "Edu=HS|BSc",
                           "--public-cuboid",
                           "Sex"},
                          admin_token_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    // The owner is told what was inferred and made public.
    EXPECT_THAT(r.out, HasSubstr("Note: Column types inferred from the data"))
        << r.out;
    EXPECT_THAT(r.out, HasSubstr("Note: row_count_public is now true"))
        << r.out;
    r = Dpq({"admin", "register", "net", "--kind", "graph", "--data", edges,
             "--nodes", nodes, "--description", "a small network"},
            admin_token_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const CommandResult created =
        Dpq({"--json", "admin", "create-buyer", "bob"}, admin_token_);
    ASSERT_EQ(created.exit_code, 0) << created.err;
    token_ = JsonField(created.out, "token").value_or("");
    ASSERT_THAT(token_, MatchesRegex("dpq_[0-9a-f]{64}")) << created.out;
    for (const char* dataset : {"people", "net"}) {
      r = Dpq({"admin", "grant", "bob", dataset, "5"}, admin_token_);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }

  std::string token_;
};

TEST_F(CliReleaseTest, DescribeShowsKindCubeExactCuboidsAndReleases) {
  CommandResult r = Dpq({"describe", "people"}, token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kind:             table\n"));
  EXPECT_THAT(r.out, HasSubstr("ReleaseCuboids"));
  EXPECT_THAT(r.out, HasSubstr("  Sex: F, M"));
  EXPECT_THAT(r.out, HasSubstr("  Age: [0,30)"));
  // The exact counts (columns are padded to the widest label, "other").
  EXPECT_THAT(r.out, HasSubstr("public exact cuboids:\n  1. Sex\n"));
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n     F +20\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n     M +20\n"))) << r.out;

  r = Dpq({"--json", "describe", "people"}, token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonField(r.out, "kind").value_or(""), "DATASET_KIND_TABLE");
  EXPECT_THAT(r.out, HasSubstr(R"("publicCuboids":[{"dimensions":["Sex"],)"));
  EXPECT_DOUBLE_EQ(CellCount(r.out, R"(["F"])"), 20);

  r = Dpq({"describe", "net"}, token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("kind:             graph\n"));
  EXPECT_THAT(r.out, HasSubstr("SelectInfluentialNodes"));
}

TEST_F(CliReleaseTest, CuboidsTableJsonAndReplay) {
  CommandResult r = Dpq({"cuboids", "people", "--dims", "Sex,Age", "--dims",
                         "Income", "--epsilon", "1", "--request-id", "q-1"},
                        token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Cuboid 1 of people: Sex, Age (noise stddev "));
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nSex +Age +COUNT\n")))
      << r.out;
  EXPECT_THAT(r.out, HasSubstr("Cuboid 2 of people: Income (noise stddev "));
  EXPECT_THAT(r.out, HasSubstr("charged epsilon 1, remaining 4\n"));
  EXPECT_THAT(r.out, HasSubstr("request id: q-1\n"));

  // The Sex marginal is public exactly: the released one agrees with it.
  r = Dpq({"--json", "cuboids", "people", "--dims", "Sex", "--epsilon", "1",
           "--request-id", "q-2"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(R"({"cuboids":[{"dimensions":["Sex"],)"));
  // Sex is public exactly: the server may add no noise at all.
  EXPECT_GE(JsonFirstNumber(r.out, "noiseStddev"), 0) << r.out;
  EXPECT_NEAR(CellCount(r.out, R"(["F"])"), 20, 1e-6) << r.out;
  EXPECT_NEAR(CellCount(r.out, R"(["M"])"), 20, 1e-6) << r.out;
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 1);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "remainingBudget"), 3);
  EXPECT_EQ(JsonField(r.out, "requestId").value_or(""), "q-2");
  EXPECT_EQ(JsonField(r.out, "replayed").value_or(""), "false");
  const std::string first = r.out;

  r = Dpq({"--json", "cuboids", "people", "--dims", "Sex", "--epsilon", "1",
           "--request-id", "q-2"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonField(r.out, "replayed").value_or(""), "true");
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 0);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "remainingBudget"), 3);

  // --integral: non-negative integers.
  r = Dpq({"--json", "cuboids", "people", "--dims", "Age", "--epsilon", "1",
           "--integral"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex count_re("\"count\":(-?[0-9.eE+-]+)");
  int cells = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), count_re);
       it != std::sregex_iterator(); ++it, ++cells) {
    double c = -1;
    ASSERT_TRUE(absl::SimpleAtod((*it)[1].str(), &c)) << r.out;
    EXPECT_GE(c, 0) << r.out;
    EXPECT_EQ(c, std::floor(c)) << r.out;
  }
  EXPECT_GE(cells, 3) << r.out;
}

TEST_F(CliReleaseTest, CuboidsErrors) {
  ExpectOneErrorLine(
      Dpq({"cuboids", "people", "--dims", "Salary", "--epsilon", "1"}, token_),
      "INVALID_ARGUMENT");
  const CommandResult usage =
      Dpq({"cuboids", "people", "--dims", "Sex", "--epsilon", "one"}, token_);
  EXPECT_EQ(usage.exit_code, 2) << usage.err;
  EXPECT_THAT(usage.err, StartsWith("dpq: --epsilon expects a finite number"));
  // Nothing was charged.
  const CommandResult budget = Dpq({"--json", "budget", "people"}, token_);
  ASSERT_EQ(budget.exit_code, 0) << budget.err;
  EXPECT_DOUBLE_EQ(JsonNumber(budget.out, "remaining"), 5);
}

TEST_F(CliReleaseTest, TreeTableAndJson) {
  CommandResult r =
      Dpq({"tree", "people", "--label", "Income", "--positive", ">50K",
           "--features", "Sex,Age,Edu", "--generations", "2", "--population",
           "4", "--epsilon", "1", "--request-id", "t-1"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("Decision tree for people (depth "));
  EXPECT_THAT(r.out, HasSubstr("+: Income == \">50K\""));
  EXPECT_THAT(r.out, HasSubstr("TPR/TNR not released"));
  // "people" has the public exact cuboid [Sex]: a tree is charged k_Q = 2
  // times its epsilon.
  EXPECT_THAT(r.out, HasSubstr("charged epsilon 2, remaining 3\n"));
  EXPECT_THAT(r.out, HasSubstr("request id: t-1\n"));

  r = Dpq({"--json",
           "tree",
           "people",
           "--label",
           "Income",
           "--positive",
           ">50K",
           "--approach",
           "aggregation",
           "--weights",
           "1,1",
           "--sensitivity",
           "local",
           "--generations",
           "2",
           "--population",
           "4",
           "--accuracy-epsilon",
           "0.5",
           "--epsilon",
           "1"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(R"("nodes":[{"leaf":)"));
  EXPECT_FALSE(JsonField(r.out, "treeText").value_or("").empty()) << r.out;
  const double tpr = JsonNumber(r.out, "tpr");
  const double tnr = JsonNumber(r.out, "tnr");
  EXPECT_TRUE(tpr > -1e300 && tnr > -1e300) << r.out;  // paid: present
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 3);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "remainingBudget"), 0);
  EXPECT_THAT(JsonField(r.out, "requestId").value_or(""),
              MatchesRegex("dpq-[0-9a-f]{32}"));
}

TEST_F(CliReleaseTest, TreeErrors) {
  ExpectOneErrorLine(Dpq({"tree", "people", "--label", "Salary", "--positive",
                          "yes", "--epsilon", "1"},
                         token_),
                     "INVALID_ARGUMENT");
  // The classes are the label's declared (public) values.
  const CommandResult rich = Dpq({"tree", "people", "--label", "Income",
                                  "--positive", "rich", "--epsilon", "1"},
                                 token_);
  ExpectOneErrorLine(rich, "INVALID_ARGUMENT");
  EXPECT_THAT(rich.err, HasSubstr("its values are: "));
  const CommandResult usage =
      Dpq({"tree", "people", "--label", "Income", "--positive", ">50K",
           "--approach", "lexicographic", "--epsilon", "1"},
          token_);
  EXPECT_EQ(usage.exit_code, 2) << usage.err;
  EXPECT_THAT(usage.err, StartsWith("dpq: --approach must be one of pareto, "
                                    "aggregation; got 'lexicographic'."));
}

TEST_F(CliReleaseTest, TopNodesTableJsonAndErrors) {
  CommandResult r = Dpq(
      {"top-nodes", "net", "--k", "2", "--epsilon", "1", "--request-id", "n-1"},
      token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("Influential nodes of net (in selection "
                                "order):\nRANK  NODE\n1     "));
  EXPECT_THAT(r.out, HasSubstr("\n2     "));
  EXPECT_THAT(r.out, HasSubstr("charged epsilon 1, remaining 4\n"));

  r = Dpq({"--json", "top-nodes", "net", "--k", "3", "--objectives",
           "degree,egocentric_density", "--approach", "aggregation",
           "--weights", "1,0.5", "--sensitivity", "global", "--epsilon", "1"},
          token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> nodes = JsonStrings(r.out, "nodes");
  ASSERT_EQ(nodes.size(), 3u) << r.out;
  EXPECT_EQ(std::set<std::string>(nodes.begin(), nodes.end()).size(), 3u)
      << "selection is without replacement: " << r.out;
  for (const std::string& node : nodes) {
    EXPECT_TRUE(kNodeIds.contains(node)) << node << " in " << r.out;
  }
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 1);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "remainingBudget"), 3);
  EXPECT_EQ(JsonField(r.out, "replayed").value_or(""), "false");

  // k above the 8 nodes.
  ExpectOneErrorLine(
      Dpq({"top-nodes", "net", "--k", "9", "--epsilon", "1"}, token_),
      "INVALID_ARGUMENT");
  // A graph answers no trees, a table no top nodes.
  ExpectOneErrorLine(Dpq({"tree", "net", "--label", "source", "--positive", "1",
                          "--epsilon", "1"},
                         token_),
                     "FAILED_PRECONDITION");
  ExpectOneErrorLine(
      Dpq({"top-nodes", "people", "--k", "1", "--epsilon", "1"}, token_),
      "FAILED_PRECONDITION");
  const CommandResult usage = Dpq({"top-nodes", "net", "--k", "2", "--epsilon",
                                   "1", "--objectives", "pagerank"},
                                  token_);
  EXPECT_EQ(usage.exit_code, 2) << usage.err;
  EXPECT_THAT(usage.err, HasSubstr("--objectives must list some of degree, "
                                   "egocentric_density; got 'pagerank'"));
}

}  // namespace
}  // namespace dpq::integration
