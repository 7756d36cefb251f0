// Parsing of `dpq` command lines (client/command_line): the global flags,
// the environment, help, and the errors every command shares. Each
// command's own flags are tested in tests/client/commands/.
#include "client/command_line.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "client/commands/admin_grant.h"
#include "client/commands/budget.h"
#include "client/commands/datasets.h"
#include "client/commands/describe.h"
#include "client/commands/health.h"
#include "client/commands/measure.h"
#include "client/commands/registry.h"
#include "client/usage.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/parse_testing.h"

namespace dpq::client {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- Global flags -----------------------------------------------------------

TEST(ParseGlobalTest, DefaultsWithoutFlagsOrEnvironment) {
  ParsedLine p({"datasets"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NE(p.command<DatasetsCommand>(), nullptr);
  EXPECT_EQ(p.global().server, "localhost:50051");
  EXPECT_EQ(p.global().token, "");
  EXPECT_FALSE(p.global().insecure);
  EXPECT_FALSE(p.global().json);
  EXPECT_FALSE(p.global().timeout.has_value());
}

TEST(ParseGlobalTest, EnvironmentSuppliesServerAndToken) {
  ParsedLine p({"datasets"}, {{"DPQ_SERVER", "h:1"}, {"DPQ_TOKEN", "dpq_t"}});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.global().server, "h:1");
  EXPECT_EQ(p.global().token, "dpq_t");
}

TEST(ParseGlobalTest, FlagsOverrideEnvironmentInBothSpellings) {
  ParsedLine p({"--server=a:2", "--token", "dpq_flag", "datasets"},
               {{"DPQ_SERVER", "h:1"}, {"DPQ_TOKEN", "dpq_env"}});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.global().server, "a:2");
  EXPECT_EQ(p.global().token, "dpq_flag");
}

TEST(ParseGlobalTest, GlobalFlagsAreAcceptedAfterTheCommand) {
  ParsedLine p(
      {"budget", "--json", "--insecure", "--timeout=2.5", "--server", "x:3"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p.global().json);
  EXPECT_TRUE(p.global().insecure);
  EXPECT_EQ(p.global().timeout, absl::Milliseconds(2500));
  EXPECT_EQ(p.global().server, "x:3");
}

TEST(ParseGlobalTest, TlsFlags) {
  ParsedLine p({"--ca", "ca.pem", "--client-cert", "c.pem",
                "--client-key=k.pem", "--tls-server-name", "dpq.local",
                "health"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.global().ca_file, "ca.pem");
  EXPECT_EQ(p.global().client_cert_file, "c.pem");
  EXPECT_EQ(p.global().client_key_file, "k.pem");
  EXPECT_EQ(p.global().tls_server_name, "dpq.local");
}

TEST(ParseGlobalTest, TokenFileReplacesEnvironmentToken) {
  ParsedLine p({"--token-file", "/d/admin.token", "admin", "buyers"},
               {{"DPQ_TOKEN", "dpq_env"}});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.global().token_file, "/d/admin.token");
  EXPECT_EQ(p.global().token, "");
}

// `dpq health` sends no token, so a bad DPQ_TOKEN cannot break the probe.
TEST(ParseGlobalTest, HealthIgnoresTheTokenInTheEnvironment) {
  ParsedLine p({"health"}, {{"DPQ_TOKEN", "dpq_\x01"}});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.global().token, "");
  EXPECT_FALSE(ParsedLine({"datasets"}, {{"DPQ_TOKEN", "dpq_\x01"}}).ok());
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
  // `--flag=` is an empty value, never "take the next argument".
  ExpectUsageError({"--token=", "datasets"}, "--token must not be empty");
  ExpectUsageError({"--server=", "datasets"}, "--server must not be empty");
  ExpectUsageError({"--token-file=", "datasets"},
                   "--token-file must not be empty");
  ExpectUsageError({"--json=yes", "datasets"}, "--json takes no value");
  ExpectUsageError({"--json", "--json", "datasets"},
                   "--json is given more than once");
  ExpectUsageError({"--server", "a", "datasets", "--server", "b"},
                   "--server is given more than once");
  ExpectUsageError({"datasets", "--server"}, "--server needs a value");
  ExpectUsageError({"--verbose", "datasets"},
                   "Unknown flag '--verbose' for 'dpq datasets'");
  ExpectUsageError({"--verbose=3"}, "Unknown flag '--verbose'");
  ExpectUsageError({"-v", "datasets"},
                   "Unknown flag '-v' (flags are spelled --name)");
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
                                             {"help", "measure"},
                                             {"measure", "--help"},
                                             {"admin", "grant", "--help"},
                                             {"admin", "--help"}}) {
    ParsedLine p(args);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_TRUE(p.line().help());
    EXPECT_EQ(p.line().command(), nullptr);
  }
  // A command's --help is its usage, even without its required flags.
  EXPECT_THAT(ParsedLine({"measure", "--help"}).line().HelpText(),
              StartsWith("usage: dpq [global flags] measure ID"));
  EXPECT_THAT(ParsedLine({"admin", "grant", "-h"}).line().HelpText(),
              StartsWith("usage: dpq [global flags] admin grant BUYER ID EPS"));
  EXPECT_THAT(ParsedLine({"admin", "--help"}).line().HelpText(),
              StartsWith("usage: dpq [global flags] <command>"));
}

TEST(ParseGlobalTest, UsageHintFollowsTheCommand) {
  ParsedLine measure({"measure", "h"});
  EXPECT_FALSE(measure.ok());
  EXPECT_THAT(measure.line().usage_hint(),
              HasSubstr("usage: dpq [global flags] measure ID "
                        "--measure mi|p|r --epsilon E"));
  ParsedLine bogus({"bogus"});
  EXPECT_FALSE(bogus.ok());
  EXPECT_THAT(bogus.line().usage_hint(), HasSubstr("dpq --help"));
  ParsedLine admin({"admin"});
  EXPECT_FALSE(admin.ok());
  EXPECT_THAT(admin.line().usage_hint(),
              HasSubstr("dpq admin grant BUYER ID EPS"));
}

// --- What every command shares -----------------------------------------------

TEST(ParseBuyerTest, HealthDatasetsDescribe) {
  EXPECT_NE(ParsedLine({"health"}).command<HealthCommand>(), nullptr);
  EXPECT_NE(ParsedLine({"datasets"}).command<DatasetsCommand>(), nullptr);
  ParsedLine d({"describe", "hospital"});
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_NE(d.command<DescribeCommand>(), nullptr);
  EXPECT_EQ(d.command<DescribeCommand>()->request().dataset_id(), "hospital");
  ExpectUsageError({"health", "x"}, "dpq health got unexpected argument 'x'.");
  ExpectUsageError({"datasets", "--history"},
                   "Unknown flag '--history' for 'dpq datasets'");
  ExpectUsageError({"describe"}, "dpq describe expects ID, but nothing");
  ExpectUsageError({"describe", "a", "b"},
                   "dpq describe got unexpected argument 'b' (it takes ID).");
}

// After the command, its words are arguments: a dataset may be called
// "datasets" or "admin".
TEST(ParseBuyerTest, CommandWordsAfterTheCommandAreArguments) {
  ParsedLine d({"describe", "datasets"});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d.command<DescribeCommand>()->request().dataset_id(), "datasets");
  ParsedLine b({"budget", "admin"});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b.command<BudgetCommand>()->request().dataset_id(), "admin");
  ParsedLine g({"admin", "grant", "alice", "budget", "1"});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g.command<AdminGrantCommand>()->request().dataset_id(), "budget");
}

TEST(ParseBuyerTest, DoubleDashEndsFlags) {
  ParsedLine p({"describe", "--", "--odd-id"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p.command<DescribeCommand>()->request().dataset_id(), "--odd-id");
  // `--name=` after `--` is an argument like any other.
  ParsedLine q({"describe", "--", "--odd="});
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q.command<DescribeCommand>()->request().dataset_id(), "--odd=");
}

TEST(ParseBuyerTest, RequiredFlagsAreNamedWithTheCommand) {
  ExpectUsageError({"measure", "h", "--epsilon", "1"},
                   "dpq measure: --measure is required.");
  // A missing argument is reported before a missing flag.
  ExpectUsageError({"measure"}, "dpq measure expects ID, but nothing");
}

TEST(CommandUsageTest, EveryCommandHasANameAndSynopsis) {
  const std::vector<std::unique_ptr<Command>> commands = AllCommands();
  EXPECT_EQ(commands.size(), 22u);
  const std::string general = GeneralUsage(commands);
  for (const std::unique_ptr<Command>& c : commands) {
    const std::string& name = c->info().name;
    ASSERT_FALSE(name.empty());
    EXPECT_THAT(CommandUsage(c->info()),
                HasSubstr("usage: dpq [global flags] " + name));
    EXPECT_THAT(general, HasSubstr("dpq " + name));
  }
}

TEST(ParseReleaseUsageTest, SynopsesNameTheNewFlags) {
  auto usage = [](const std::string& name) {
    for (const std::unique_ptr<Command>& c : AllCommands()) {
      if (c->info().name == name) return CommandUsage(c->info());
    }
    return std::string();
  };
  EXPECT_THAT(usage("cuboids"),
              HasSubstr("cuboids ID --dims A,B [--dims C]... --epsilon E "
                        "[--integral]"));
  EXPECT_THAT(usage("tree"), HasSubstr("[--approach aggregation|pareto]"));
  EXPECT_THAT(usage("top-nodes"),
              HasSubstr("[--objectives degree,egocentric_density]"));
  EXPECT_THAT(usage("admin register"), HasSubstr("[--public-cuboid A,B]..."));
  EXPECT_THAT(usage("admin register"),
              HasSubstr("COL=V1|V2|... (declared domain)"));
  EXPECT_THAT(usage("admin register"),
              HasSubstr("--kind graph: F.csv is an edge list"));
}

}  // namespace
}  // namespace dpq::client
