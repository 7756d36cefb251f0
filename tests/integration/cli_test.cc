// The `dpq` binary against the real server: every subcommand, its exit
// codes (0 ok, 1 gRPC error as one line "dpq: CODE: message", 2 usage), and
// the --json fields scripts rely on (protobuf's JSON mapping of each
// response: lowerCamelCase names, 64-bit integers as strings, enum names).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;

// A failed command printed one line "dpq: CODE: ..." on stderr (and at
// most the details' line after it).
void ExpectOneErrorLine(const CommandResult& r, const std::string& code) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(ExpectErrorLines(r.err), StartsWith("dpq: " + code + ": "))
      << r.err;
}

class CliTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    const CommandResult r = Dpq(
        {"admin", "register", "hospital", "--data", HospitalCsvPath(),
         "--constraints", HospitalDcPath(), "--schema", HospitalSchemaPath(),
         "--public-max-rows", "2000", "--description", "demo hospital data"},
        admin_token_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  // `dpq --json admin create-buyer NAME` and a grant on hospital.
  std::string NewBuyer(const std::string& name, const std::string& epsilon) {
    const CommandResult created =
        Dpq({"--json", "admin", "create-buyer", name}, admin_token_);
    EXPECT_EQ(created.exit_code, 0) << created.err;
    EXPECT_EQ(JsonField(created.out, "buyerId").value_or(""), name)
        << created.out;
    const std::string token = JsonField(created.out, "token").value_or("");
    EXPECT_THAT(token, MatchesRegex("dpq_[0-9a-f]{64}")) << created.out;
    const CommandResult granted =
        Dpq({"admin", "grant", name, "hospital", epsilon}, admin_token_);
    EXPECT_EQ(granted.exit_code, 0) << granted.err;
    return token;
  }
};

TEST_F(CliTest, HealthNeedsNoToken) {
  const CommandResult r = Dpq({"health"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("SERVING"));
}

TEST_F(CliTest, HealthFailsWhenNoServerListens) {
  const CommandResult r = RunCommand(
      {kClientBinary, "--server", "127.0.0.1:1", "--ca", certs_.ca(), "health"},
      {{"-DPQ_TOKEN", ""}}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.err, StartsWith("dpq: "));
}

TEST_F(CliTest, BuyerSessionWithTablesAndJson) {
  const std::string token = NewBuyer("alice", "2");

  CommandResult r = Dpq({"datasets"}, token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("hospital"));
  EXPECT_THAT(r.out, HasSubstr("2000"));

  r = Dpq({"describe", "hospital"}, token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ProviderNumber"));
  EXPECT_THAT(r.out, HasSubstr("EQ(t1.HospitalName,t2.HospitalName)"));
  EXPECT_THAT(r.out, Not(HasSubstr(kHospitalCellValue)));

  EXPECT_THAT(r.out, HasSubstr("I_R released as:  a lower bound "
                               "(cover_bound: clique LP)\n"));

  r = Dpq({"--json", "measure", "hospital", "--measure", "mi", "--epsilon", "1",
           "--request-id", "cli-1"},
          token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string value = JsonField(r.out, "value").value_or("?");
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 1);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "remainingBudget"), 1);
  EXPECT_EQ(JsonField(r.out, "method").value_or(""), "group_bound") << r.out;
  EXPECT_EQ(JsonField(r.out, "estimate").value_or(""), "ESTIMATE_LOWER_BOUND")
      << r.out;

  // The same request id again: the recorded answer, free.
  r = Dpq({"--json", "measure", "hospital", "--measure", "mi", "--epsilon", "1",
           "--request-id", "cli-1"},
          token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonField(r.out, "value").value_or(""), value);
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 0);
  EXPECT_EQ(JsonField(r.out, "replayed").value_or(""), "true") << r.out;

  // --method of r names an I_R method; a method of mi / p is a usage error,
  // and exact needs a dataset registered with --exact-repair (nothing is
  // charged for either refusal).
  r = Dpq({"measure", "hospital", "--measure", "r", "--epsilon", "0.25",
           "--method", "basic"},
          token);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  r = Dpq({"measure", "hospital", "--measure", "r", "--epsilon", "0.25",
           "--method", "exact"},
          token);
  ExpectOneErrorLine(r, "INVALID_ARGUMENT");
  EXPECT_THAT(r.err, HasSubstr("exact_repair"));
  r = Dpq({"measure", "hospital", "--measure", "r", "--epsilon", "0.25",
           "--method", "vertex_cover"},
          token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0.25"));
  EXPECT_THAT(r.out, HasSubstr("includes the possible overcount"));
  EXPECT_THAT(r.out, HasSubstr("method vertex_cover"));

  r = Dpq({"--json", "report", "hospital", "--epsilon", "0.6"}, token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(JsonNumber(r.out, "epsilonCharged"), 0.6);
  EXPECT_NEAR(JsonNumber(r.out, "remainingBudget"), 0.15, 1e-9);
  EXPECT_TRUE(JsonField(r.out, "value").has_value()) << r.out;
  EXPECT_THAT(r.out, HasSubstr(R"("method":"group_bound",)"
                               R"("estimate":"ESTIMATE_LOWER_BOUND")"));
  EXPECT_THAT(r.out, HasSubstr(R"("method":"cover_bound",)"
                               R"("estimate":"ESTIMATE_LOWER_BOUND")"));

  r = Dpq({"budget", "hospital"}, token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("hospital"));
  EXPECT_THAT(r.out, HasSubstr("1.85"));
  r = Dpq({"--json", "budget"}, token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NEAR(JsonNumber(r.out, "remaining"), 0.15, 1e-9) << r.out;

  // Over budget: one clear line, exit 1, nothing charged.
  r = Dpq({"measure", "hospital", "--measure", "r", "--epsilon", "1"}, token);
  ExpectOneErrorLine(r, "RESOURCE_EXHAUSTED");
  EXPECT_THAT(r.err, HasSubstr("0.15"));
}

// An owner registers a table with --exact-repair: buyers see it in
// describe, I_R is released from the exact cover by default (K6 plus an
// isolated row: I_R = 5, where cover_bound would give 3), and the stored
// cover survives a server restart.
TEST_F(CliTest, ExactRepairDatasetReleasesTheExactCoverAcrossARestart) {
  const std::string csv = dir_.Sub("clique.csv");
  WriteFileOrDie(csv,
                 "Zip,City\n10,a\n10,b\n10,c\n10,d\n10,e\n10,f\n"
                 "20,g\n");
  const std::string dc = dir_.Sub("clique.dc");
  WriteFileOrDie(dc, "Zip -> City\n");
  CommandResult r =
      Dpq({"admin", "register", "clique", "--data", csv, "--constraints", dc,
           "--public-max-rows", "10", "--infer-types", "--exact-repair"},
          admin_token_);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string token = NewBuyer("erin", "1");
  r = Dpq({"admin", "grant", "erin", "clique", "10000"}, admin_token_);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  r = Dpq({"describe", "clique"}, token);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("I_R released as:  the exact minimum repair"));
  r = Dpq({"--json", "describe", "clique"}, token);
  EXPECT_EQ(JsonField(r.out, "exactRepair").value_or(""), "true") << r.out;

  // At epsilon 1000 the noise (scale 1e-3) is 0 but with probability
  // about 1e-434.
  r = Dpq(
      {"--json", "measure", "clique", "--measure", "r", "--epsilon", "1000"},
      token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonField(r.out, "method").value_or(""), "exact") << r.out;
  EXPECT_EQ(JsonField(r.out, "estimate").value_or(""), "ESTIMATE_EXACT")
      << r.out;
  EXPECT_NEAR(JsonNumber(r.out, "value"), 5, 1) << r.out;
  r = Dpq({"measure", "clique", "--measure", "r", "--epsilon", "1000",
           "--method", "cover_bound"},
          token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("includes the possible undercount"));
  EXPECT_THAT(r.out, HasSubstr("method cover_bound"));

  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer());
  r = Dpq({"--json", "measure", "clique", "--measure", "r", "--epsilon", "1000",
           "--method", "exact"},
          token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonField(r.out, "estimate").value_or(""), "ESTIMATE_EXACT")
      << r.out;
  EXPECT_NEAR(JsonNumber(r.out, "value"), 5, 1) << r.out;
  r = Dpq({"--json", "report", "clique", "--epsilon", "3000"}, token);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr(R"("method":"exact","estimate":"ESTIMATE_EXACT")"));

  // The refusals: graphs locally, unprovable covers by the server.
  r = Dpq({"admin", "register", "g", "--kind", "graph", "--data", csv,
           "--node-count", "4", "--exact-repair"},
          admin_token_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // 700 triangles chained by edges: one component of 2100 rows, above the
  // solver's max_component_nodes (2048), with LP bound 1050 < 1400 <= I_R.
  std::string chain = "A,B,C,D\n";
  for (int i = 0; i < 2100; ++i) {
    int c = 1'000'000 + i;
    if (i % 3 == 2 && i + 1 < 2100) c = i / 3;
    if (i % 3 == 0 && i > 0) c = i / 3 - 1;
    absl::StrAppend(&chain, i / 3, ",", i, ",", c, ",", i, "\n");
  }
  const std::string chain_csv = dir_.Sub("chain.csv");
  WriteFileOrDie(chain_csv, chain);
  const std::string chain_dc = dir_.Sub("chain.dc");
  WriteFileOrDie(chain_dc, "A -> B\nC -> D\n");
  r = Dpq({"admin", "register", "chain", "--data", chain_csv, "--constraints",
           chain_dc, "--public-max-rows", "5000", "--infer-types",
           "--exact-repair"},
          admin_token_);
  ExpectOneErrorLine(r, "FAILED_PRECONDITION");
  EXPECT_THAT(r.err, HasSubstr("exact_repair: "));
  EXPECT_THAT(r.err, HasSubstr("max_component_nodes"));
  r = Dpq({"describe", "chain"}, token);
  ExpectOneErrorLine(r, "NOT_FOUND");
}

TEST_F(CliTest, ErrorsAreOneLineWithExitStatusOne) {
  const std::string token = NewBuyer("bob", "1");
  ExpectOneErrorLine(Dpq({"describe", "nosuch"}, token), "NOT_FOUND");
  ExpectOneErrorLine(Dpq({"datasets"}), "UNAUTHENTICATED");
  ExpectOneErrorLine(Dpq({"datasets"}, "dpq_" + std::string(64, '0')),
                     "UNAUTHENTICATED");
  ExpectOneErrorLine(Dpq({"admin", "create-buyer", "eve"}, token),
                     "PERMISSION_DENIED");
  ExpectOneErrorLine(
      Dpq({"measure", "hospital", "--measure", "mi", "--epsilon", "2"}, token),
      "RESOURCE_EXHAUSTED");
  const CommandResult first = Dpq({"measure", "hospital", "--measure", "mi",
                                   "--epsilon", "0.5", "--request-id", "dup"},
                                  token);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  ExpectOneErrorLine(Dpq({"measure", "hospital", "--measure", "p", "--epsilon",
                          "0.5", "--request-id", "dup"},
                         token),
                     "ALREADY_EXISTS");
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"frobnicate"},
           {"measure", "hospital", "--epsilon", "1"},
           {"measure", "hospital", "--measure", "mi", "--epsilon", "abc"},
           {"measure", "hospital", "--measure", "zz", "--epsilon", "1"},
           {"admin", "grant", "alice"},
           {"admin"}}) {
    const CommandResult r = Dpq(args, admin_token_);
    EXPECT_EQ(r.exit_code, 2) << absl::StrJoin(args, " ") << "\n" << r.err;
    EXPECT_FALSE(r.err.empty()) << absl::StrJoin(args, " ");
  }
}

TEST_F(CliTest, AdminSubcommands) {
  const std::string token = NewBuyer("carl", "1");
  CommandResult r =
      Dpq({"admin", "set-budget", "carl", "hospital", "3"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Dpq({"admin", "set-cap", "hospital", "10"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Dpq({"measure", "hospital", "--measure", "p", "--epsilon", "0.5",
           "--request-id", "carl-1"},
          token);
  EXPECT_EQ(r.exit_code, 0) << r.err;

  r = Dpq({"admin", "ledger", "--buyer", "carl"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("carl-1"));
  r = Dpq({"--json", "admin", "ledger", "--dataset", "hospital"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("carl-1"));
  r = Dpq({"admin", "ledger", "--buyer", "nobody"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("carl-1")));

  // Replace with the first 300 rows, then delete.
  const std::string csv = ReadFileOrEmpty(HospitalCsvPath());
  size_t pos = 0;
  for (int line = 0; line <= 300; ++line) pos = csv.find('\n', pos) + 1;
  const std::string small = dir_.Sub("small.csv");
  WriteFileOrDie(small, csv.substr(0, pos));
  r = Dpq({"admin", "replace", "hospital", "--data", small, "--constraints",
           HospitalDcPath(), "--public-max-rows", "2000"},
          admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("300"));

  r = Dpq({"admin", "revoke-buyer", "carl"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectOneErrorLine(Dpq({"budget"}, token), "UNAUTHENTICATED");

  r = Dpq({"admin", "delete", "hospital"}, admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectOneErrorLine(Dpq({"admin", "delete", "hospital"}, admin_token_),
                     "NOT_FOUND");
}

TEST_F(CliTest, TokenFlagWorksLikeTheEnvironment) {
  const std::string token = NewBuyer("tina", "1");
  const CommandResult r = Dpq({"--token", token, "budget", "hospital"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("hospital"));
}

}  // namespace
}  // namespace dpq::integration
