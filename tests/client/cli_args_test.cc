#include "client/cli_args.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

EnvLookup Env(std::map<std::string, std::string> vars = {}) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

absl::StatusOr<Invocation> Parse(const std::vector<std::string>& args,
                                 std::map<std::string, std::string> env = {}) {
  return ParseCommandLine(args, Env(std::move(env)));
}

void ExpectUsageError(const std::vector<std::string>& args,
                      const std::string& fragment) {
  std::string joined;
  for (const std::string& a : args) joined += "[" + a + "]";
  SCOPED_TRACE(joined);
  EXPECT_THAT(Parse(args), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr(fragment)));
}

// --- Global flags -----------------------------------------------------------

TEST(ParseGlobalTest, DefaultsWithoutFlagsOrEnvironment) {
  absl::StatusOr<Invocation> inv = Parse({"datasets"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kDatasets);
  EXPECT_EQ(inv->global.server, "localhost:50051");
  EXPECT_EQ(inv->global.token, "");
  EXPECT_FALSE(inv->global.insecure);
  EXPECT_FALSE(inv->global.json);
  EXPECT_FALSE(inv->global.timeout.has_value());
}

TEST(ParseGlobalTest, EnvironmentSuppliesServerAndToken) {
  absl::StatusOr<Invocation> inv =
      Parse({"datasets"}, {{"DPQ_SERVER", "h:1"}, {"DPQ_TOKEN", "dpq_t"}});
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->global.server, "h:1");
  EXPECT_EQ(inv->global.token, "dpq_t");
}

TEST(ParseGlobalTest, FlagsOverrideEnvironmentInBothSpellings) {
  absl::StatusOr<Invocation> inv =
      Parse({"--server=a:2", "--token", "dpq_flag", "datasets"},
            {{"DPQ_SERVER", "h:1"}, {"DPQ_TOKEN", "dpq_env"}});
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->global.server, "a:2");
  EXPECT_EQ(inv->global.token, "dpq_flag");
}

TEST(ParseGlobalTest, GlobalFlagsAreAcceptedAfterTheCommand) {
  absl::StatusOr<Invocation> inv = Parse(
      {"budget", "--json", "--insecure", "--timeout=2.5", "--server", "x:3"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_TRUE(inv->global.json);
  EXPECT_TRUE(inv->global.insecure);
  EXPECT_EQ(inv->global.timeout, absl::Milliseconds(2500));
  EXPECT_EQ(inv->global.server, "x:3");
}

TEST(ParseGlobalTest, TlsFlags) {
  absl::StatusOr<Invocation> inv =
      Parse({"--ca", "ca.pem", "--client-cert", "c.pem", "--client-key=k.pem",
             "--tls-server-name", "dpq.local", "health"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->global.ca_file, "ca.pem");
  EXPECT_EQ(inv->global.client_cert_file, "c.pem");
  EXPECT_EQ(inv->global.client_key_file, "k.pem");
  EXPECT_EQ(inv->global.tls_server_name, "dpq.local");
}

TEST(ParseGlobalTest, TokenFileReplacesEnvironmentToken) {
  absl::StatusOr<Invocation> inv =
      Parse({"--token-file", "/d/admin.token", "admin", "buyers"},
            {{"DPQ_TOKEN", "dpq_env"}});
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->global.token_file, "/d/admin.token");
  EXPECT_EQ(inv->global.token, "");
}

TEST(ParseGlobalTest, BadGlobalFlagsAreUsageErrors) {
  ExpectUsageError({"--timeout", "soon", "datasets"},
                   "--timeout expects a finite number, got 'soon'");
  ExpectUsageError({"--timeout", "0", "datasets"},
                   "--timeout must be positive");
  ExpectUsageError({"--timeout", "-3", "datasets"},
                   "--timeout must be positive");
  ExpectUsageError({"--client-cert", "c.pem", "datasets"},
                   "--client-cert and --client-key go together");
  ExpectUsageError({"--insecure", "--ca", "ca.pem", "datasets"},
                   "--ca cannot be combined with --insecure");
  ExpectUsageError({"--token", "a", "--token-file", "f", "datasets"},
                   "either --token or --token-file");
  ExpectUsageError({"--token=", "datasets"}, "--token must not be empty");
  ExpectUsageError({"--server="}, "--server must not be empty");
  ExpectUsageError({"--json=yes", "datasets"}, "--json takes no value");
  ExpectUsageError({"--json", "--json", "datasets"},
                   "--json is given more than once");
  ExpectUsageError({"datasets", "--server"}, "--server needs a value");
  ExpectUsageError({"--verbose", "datasets"}, "Unknown flag '--verbose'");
  ExpectUsageError({"-v", "datasets"}, "Unknown flag '-v'");
}

TEST(ParseGlobalTest, NoOrUnknownCommand) {
  ExpectUsageError({}, "No command given");
  ExpectUsageError({"--json"}, "No command given");
  ExpectUsageError({"frobnicate"}, "Unknown command 'frobnicate'");
  ExpectUsageError({"admin"}, "'dpq admin' needs a subcommand");
  ExpectUsageError({"admin", "frob"}, "Unknown command 'admin frob'");
  ExpectUsageError({"register", "x"}, "Unknown command 'register'");
}

TEST(ParseGlobalTest, HelpInEveryForm) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"-h"},
                                             {"help"},
                                             {"measure", "--help"},
                                             {"admin", "grant", "--help"},
                                             {"admin", "--help"}}) {
    absl::StatusOr<Invocation> inv = Parse(args);
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_TRUE(inv->help);
  }
  EXPECT_EQ(Parse({"measure", "--help"})->command, Command::kMeasure);
  EXPECT_EQ(Parse({"admin", "grant", "--help"})->command, Command::kAdminGrant);
}

TEST(ParseGlobalTest, UsageHintFollowsTheCommand) {
  std::string hint;
  EXPECT_FALSE(ParseCommandLine({"measure", "h"}, Env(), &hint).ok());
  EXPECT_THAT(hint, HasSubstr("usage: dpq [global flags] measure ID "
                              "--measure mi|p|r --epsilon E"));
  EXPECT_FALSE(ParseCommandLine({"bogus"}, Env(), &hint).ok());
  EXPECT_THAT(hint, HasSubstr("dpq --help"));
  EXPECT_FALSE(ParseCommandLine({"admin"}, Env(), &hint).ok());
  EXPECT_THAT(hint, HasSubstr("dpq admin grant BUYER ID EPS"));
}

// --- Buyer commands
// -----------------------------------------------------------

TEST(ParseBuyerTest, HealthDatasetsDescribe) {
  EXPECT_EQ(Parse({"health"})->command, Command::kHealth);
  EXPECT_EQ(Parse({"datasets"})->command, Command::kDatasets);
  absl::StatusOr<Invocation> d = Parse({"describe", "hospital"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->command, Command::kDescribe);
  EXPECT_EQ(d->dataset_id, "hospital");
  ExpectUsageError({"health", "x"}, "got unexpected argument 'x'");
  ExpectUsageError({"datasets", "--history"},
                   "Unknown flag '--history' for 'dpq datasets'");
  ExpectUsageError({"describe"}, "dpq describe expects ID, but nothing");
  ExpectUsageError({"describe", "a", "b"}, "unexpected argument 'b'");
}

TEST(ParseBuyerTest, Budget) {
  absl::StatusOr<Invocation> all = Parse({"budget"});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->command, Command::kBudget);
  EXPECT_EQ(all->dataset_id, "");
  EXPECT_FALSE(all->history);
  absl::StatusOr<Invocation> one =
      Parse({"budget", "hospital", "--history", "--limit=5"});
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->dataset_id, "hospital");
  EXPECT_TRUE(one->history);
  EXPECT_EQ(one->limit, 5u);
  ExpectUsageError({"budget", "a", "b"}, "unexpected argument 'b'");
  ExpectUsageError({"budget", "--limit", "-1"},
                   "--limit expects a non-negative integer, got '-1'");
  ExpectUsageError({"budget", "--limit", "5000000000"},
                   "--limit must be at most");
}

TEST(ParseBuyerTest, MeasureWithAllFlags) {
  absl::StatusOr<Invocation> inv =
      Parse({"measure", "hospital", "--measure", "MI", "--epsilon=0.5",
             "--method", "hierarchical", "--request-id", "r-1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kMeasure);
  EXPECT_EQ(inv->dataset_id, "hospital");
  EXPECT_EQ(inv->measure, dpq::v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(inv->epsilon, 0.5);
  EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_HIERARCHICAL);
  EXPECT_EQ(inv->request_id, "r-1");
}

TEST(ParseBuyerTest, MeasureDefaultsAndEveryMeasureAndMethod) {
  absl::StatusOr<Invocation> inv =
      Parse({"measure", "h", "--measure", "r", "--epsilon", "1"});
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->measure, dpq::v1::MEASURE_R);
  EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv->request_id, "");
  EXPECT_EQ(
      Parse({"measure", "h", "--measure", "p", "--epsilon", "1"})->measure,
      dpq::v1::MEASURE_P);
  const std::map<std::string, dpq::v1::SelectionMethod> methods = {
      {"gem", dpq::v1::SELECTION_METHOD_GEM},
      {"GEM", dpq::v1::SELECTION_METHOD_GEM},
      {"optimized", dpq::v1::SELECTION_METHOD_OPTIMIZED},
      {"hierarchical", dpq::v1::SELECTION_METHOD_HIERARCHICAL},
      {"basic", dpq::v1::SELECTION_METHOD_BASIC},
      {"baseline", dpq::v1::SELECTION_METHOD_BASELINE}};
  for (const auto& [name, method] : methods) {
    EXPECT_EQ(Parse({"measure", "h", "--measure", "mi", "--epsilon", "1",
                     "--method", name})
                  ->method,
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
    absl::StatusOr<Invocation> inv = Parse(
        {"measure", "h", "--measure", "r", "--epsilon", "1", "--method", name});
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_EQ(inv->repair_method, method);
    EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_UNSPECIFIED);
    inv = Parse(
        {"measure", "h", "--method", name, "--epsilon", "1", "--measure", "R"});
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_EQ(inv->repair_method, method);
  }
  // And the other way round: mi / p never set repair_method.
  absl::StatusOr<Invocation> inv = Parse(
      {"measure", "h", "--measure", "p", "--epsilon", "1", "--method", "gem"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_UNSPECIFIED);
}

TEST(ParseBuyerTest, MethodOfTheOtherMeasureIsAUsageError) {
  for (const char* repair : {"cover_bound", "exact", "vertex_cover"}) {
    for (const char* measure : {"mi", "p"}) {
      ExpectUsageError({"measure", "h", "--measure", measure, "--epsilon", "1",
                        "--method", repair},
                       absl::StrCat("--method for mi and p must be one of gem, "
                                    "optimized, hierarchical, basic, "
                                    "baseline; got '",
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
      Parse({"measure", "h", "--measure", "mi", "--epsilon", "1", "--method",
             "cover_bound"}),
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
                   "--method for mi and p must be one of gem, optimized, "
                   "hierarchical, basic, baseline; got 'magic'");
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
  absl::StatusOr<Invocation> inv =
      Parse({"measure", "h", "--measure", "mi", "--epsilon", "-1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_DOUBLE_EQ(inv->epsilon, -1);
}

TEST(ParseBuyerTest, Report) {
  absl::StatusOr<Invocation> inv =
      Parse({"report", "tax", "--epsilon", "3", "--method=basic",
             "--request-id", "q"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kReport);
  EXPECT_EQ(inv->dataset_id, "tax");
  EXPECT_DOUBLE_EQ(inv->epsilon, 3);
  EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_BASIC);
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv->request_id, "q");
  ExpectUsageError({"report", "tax"}, "dpq report: --epsilon is required");
  ExpectUsageError({"report", "--epsilon", "1"}, "dpq report expects ID");
  ExpectUsageError({"report", "tax", "--epsilon", "1", "--measure", "mi"},
                   "Unknown flag '--measure' for 'dpq report'");
}

TEST(ParseBuyerTest, ReportRepairMethod) {
  absl::StatusOr<Invocation> inv = Parse(
      {"report", "tax", "--epsilon", "3", "--repair-method", "vertex_cover"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_UNSPECIFIED);
  inv = Parse({"report", "tax", "--epsilon", "3", "--method", "gem",
               "--repair-method=EXACT"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->method, dpq::v1::SELECTION_METHOD_GEM);
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_EXACT);
  inv = Parse(
      {"report", "tax", "--epsilon", "3", "--repair-method", "cover_bound"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->repair_method, dpq::v1::REPAIR_METHOD_COVER_BOUND);
  // report's --method is the method of I_MI and I_P only.
  ExpectUsageError({"report", "tax", "--epsilon", "3", "--method", "exact"},
                   "--method for mi and p must be one of");
  ExpectUsageError(
      {"report", "tax", "--epsilon", "3", "--repair-method", "basic"},
      "the method for r must be one of cover_bound, exact, vertex_cover; got "
      "'basic'");
  ExpectUsageError({"report", "tax", "--epsilon", "3", "--repair-method"},
                   "--repair-method needs a value");
}

TEST(ParseBuyerTest, DoubleDashEndsFlags) {
  absl::StatusOr<Invocation> inv = Parse({"describe", "--", "--odd-id"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->dataset_id, "--odd-id");
}

// --- Admin commands
// -------------------------------------------------------------

TEST(ParseAdminTest, RegisterWithEveryFlag) {
  absl::StatusOr<Invocation> inv =
      Parse({"admin", "register", "hospital", "--data", "h.csv",
             "--constraints=h.dc", "--public-max-rows", "1000", "--description",
             "Hospital records", "--row-count-public", "--schema", "h.schema",
             "--null-value", "NA", "--null-value=?"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kAdminRegister);
  EXPECT_EQ(inv->dataset_id, "hospital");
  const UploadArgs& up = inv->upload;
  EXPECT_EQ(up.data_path, "h.csv");
  EXPECT_EQ(up.server_path, "");
  EXPECT_EQ(up.constraints_path, "h.dc");
  EXPECT_EQ(up.public_max_rows, 1000u);
  EXPECT_EQ(up.description, "Hospital records");
  EXPECT_TRUE(up.row_count_public);
  EXPECT_EQ(up.schema_path, "h.schema");
  EXPECT_THAT(up.null_values, ElementsAre("NA", "?"));
}

TEST(ParseAdminTest, ExactRepairIsATableFlag) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    absl::StatusOr<Invocation> inv =
        Parse({"admin", sub, "tax", "--data", "t.csv", "--constraints", "t.dc",
               "--public-max-rows", "5", "--exact-repair"});
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_TRUE(inv->upload.exact_repair);
    inv = Parse({"admin", sub, "tax", "--data", "t.csv", "--constraints",
                 "t.dc", "--public-max-rows", "5"});
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_FALSE(inv->upload.exact_repair);
    ExpectUsageError({"admin", sub, "g", "--kind", "graph", "--data", "e.csv",
                      "--node-count", "4", "--exact-repair"},
                     "--exact-repair applies to tables only, not to --kind "
                     "graph");
    ExpectUsageError({"admin", sub, "tax", "--data", "t.csv", "--constraints",
                      "t.dc", "--public-max-rows", "5", "--exact-repair=yes"},
                     "--exact-repair takes no value");
  }
}

TEST(ParseAdminTest, RegisterFromServerPath) {
  absl::StatusOr<Invocation> inv =
      Parse({"admin", "register", "tax", "--server-path", "/srv/tax.csv",
             "--constraints", "t.dc", "--public-max-rows", "5"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->upload.server_path, "/srv/tax.csv");
  EXPECT_EQ(inv->upload.data_path, "");
  EXPECT_FALSE(inv->upload.row_count_public);
}

TEST(ParseAdminTest, RegisterAndReplaceErrors) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    ExpectUsageError(
        {"admin", sub, "h", "--constraints", "c", "--public-max-rows", "5"},
        "dpq admin " + sub + ": --data is required (or --server-path)");
    ExpectUsageError(
        {"admin", sub, "h", "--data", "d", "--public-max-rows", "5"},
        "dpq admin " + sub + ": --constraints is required");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c"},
                     "--public-max-rows is required");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "many"},
                     "--public-max-rows expects a non-negative integer, got "
                     "'many'");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "-4"},
                     "--public-max-rows expects a non-negative integer");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--server-path", "p",
                      "--constraints", "c", "--public-max-rows", "4"},
                     "either --data (upload) or --server-path");
    ExpectUsageError({"admin", sub, "--data", "d", "--constraints", "c",
                      "--public-max-rows", "4"},
                     "expects ID");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "4", "--row-count-public=1"},
                     "--row-count-public takes no value");
  }
  EXPECT_EQ(Parse({"admin", "replace", "h", "--data", "d", "--constraints", "c",
                   "--public-max-rows", "4"})
                ->command,
            Command::kAdminReplace);
}

TEST(ParseAdminTest, DeleteDatasetsBuyers) {
  absl::StatusOr<Invocation> del = Parse({"admin", "delete", "h"});
  ASSERT_TRUE(del.ok());
  EXPECT_EQ(del->command, Command::kAdminDelete);
  EXPECT_EQ(del->dataset_id, "h");
  EXPECT_EQ(Parse({"admin", "datasets"})->command, Command::kAdminDatasets);
  EXPECT_EQ(Parse({"admin", "buyers"})->command, Command::kAdminBuyers);
  ExpectUsageError({"admin", "delete"}, "dpq admin delete expects ID");
  ExpectUsageError({"admin", "datasets", "x"}, "unexpected argument 'x'");
}

TEST(ParseAdminTest, CreateAndRevokeBuyer) {
  absl::StatusOr<Invocation> c = Parse({"admin", "create-buyer", "alice"});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->command, Command::kAdminCreateBuyer);
  EXPECT_EQ(c->buyer_id, "alice");
  absl::StatusOr<Invocation> r = Parse({"admin", "revoke-buyer", "alice"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->command, Command::kAdminRevokeBuyer);
  EXPECT_EQ(r->buyer_id, "alice");
  ExpectUsageError({"admin", "create-buyer"},
                   "dpq admin create-buyer expects NAME");
  ExpectUsageError({"admin", "revoke-buyer", "a", "b"},
                   "unexpected argument 'b'");
}

TEST(ParseAdminTest, GrantSetBudgetSetCap) {
  absl::StatusOr<Invocation> g = Parse({"admin", "grant", "alice", "h", "2.5"});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->command, Command::kAdminGrant);
  EXPECT_EQ(g->buyer_id, "alice");
  EXPECT_EQ(g->dataset_id, "h");
  EXPECT_DOUBLE_EQ(g->epsilon, 2.5);
  absl::StatusOr<Invocation> s =
      Parse({"admin", "set-budget", "bob", "tax", "0"});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->command, Command::kAdminSetBudget);
  EXPECT_EQ(s->buyer_id, "bob");
  EXPECT_DOUBLE_EQ(s->epsilon, 0);
  absl::StatusOr<Invocation> c = Parse({"admin", "set-cap", "tax", "10"});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->command, Command::kAdminSetCap);
  EXPECT_EQ(c->dataset_id, "tax");
  EXPECT_DOUBLE_EQ(c->epsilon, 10);
  ExpectUsageError({"admin", "grant", "alice", "h"},
                   "dpq admin grant expects BUYER ID EPS, but alice h was "
                   "given");
  ExpectUsageError({"admin", "grant", "alice", "h", "x"},
                   "EPS expects a finite number, got 'x'");
  ExpectUsageError({"admin", "set-budget", "a", "h", "1", "2"},
                   "unexpected argument '2'");
  ExpectUsageError({"admin", "set-cap", "tax"},
                   "dpq admin set-cap expects ID EPS");
  ExpectUsageError({"admin", "set-cap", "tax", "1e999"},
                   "EPS expects a finite number");
}

TEST(ParseAdminTest, LedgerAndAudit) {
  absl::StatusOr<Invocation> l = Parse(
      {"admin", "ledger", "--buyer", "alice", "--dataset=h", "--limit", "20"});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->command, Command::kAdminLedger);
  EXPECT_EQ(l->buyer_filter, "alice");
  EXPECT_EQ(l->dataset_filter, "h");
  EXPECT_EQ(l->limit, 20u);
  absl::StatusOr<Invocation> all = Parse({"admin", "ledger"});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->buyer_filter, "");
  EXPECT_EQ(all->limit, 0u);
  absl::StatusOr<Invocation> a = Parse({"admin", "audit", "--limit=3"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->command, Command::kAdminAudit);
  EXPECT_EQ(a->limit, 3u);
  ExpectUsageError({"admin", "ledger", "alice"}, "unexpected argument 'alice'");
  ExpectUsageError({"admin", "audit", "--buyer", "x"},
                   "Unknown flag '--buyer' for 'dpq admin audit'");
  ExpectUsageError({"admin", "audit", "--limit", "1.5"},
                   "--limit expects a non-negative integer, got '1.5'");
}

TEST(CommandUsageTest, EveryCommandHasANameAndSynopsis) {
  for (Command c : {Command::kHealth,           Command::kDatasets,
                    Command::kDescribe,         Command::kBudget,
                    Command::kMeasure,          Command::kReport,
                    Command::kCuboids,          Command::kTree,
                    Command::kTopNodes,         Command::kAdminRegister,
                    Command::kAdminReplace,     Command::kAdminDelete,
                    Command::kAdminDatasets,    Command::kAdminCreateBuyer,
                    Command::kAdminRevokeBuyer, Command::kAdminBuyers,
                    Command::kAdminGrant,       Command::kAdminSetBudget,
                    Command::kAdminSetCap,      Command::kAdminLedger,
                    Command::kAdminAudit}) {
    const std::string name = CommandName(c);
    ASSERT_FALSE(name.empty());
    EXPECT_THAT(CommandUsage(c),
                HasSubstr("usage: dpq [global flags] " + name));
    EXPECT_THAT(GeneralUsage(), HasSubstr("dpq " + name));
  }
}

}  // namespace
}  // namespace dpq::client
