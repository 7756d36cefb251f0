// The `dpq` binary against the real server under hostile input
// (docs/security.md): tokens with stray bytes (items 4), owner text with
// terminal controls (item 7), a bad --ca file (item 9), and text or replies
// that are not UTF-8 (items 1 and 9). Whatever the input or the server's
// answer, `dpq` must exit 0, 1 or 2 with at most one error line: never abort
// (exit 134), never print a token.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::AnyOf;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// No byte a terminal acts on: ESC, other C0 controls but the final newline
// of each line, DEL, or the UTF-8 of a C1 control.
void ExpectNoControls(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7f) << "byte " << i;
    if (c == 0xc2 && i + 1 < text.size()) {
      const unsigned char next = static_cast<unsigned char>(text[i + 1]);
      EXPECT_FALSE(next >= 0x80 && next <= 0x9f) << "C1 control at " << i;
    }
  }
}

// Exit 1 with one line "dpq: ..." on stderr (and at most the details'
// line after it), or exit 0.
void ExpectCleanOutcome(const CommandResult& r) {
  EXPECT_THAT(r.exit_code, AnyOf(Eq(0), Eq(1))) << r.out << r.err;
  if (r.exit_code == 1) ExpectErrorLines(r.err);
  ExpectNoControls(r.out);
  ExpectNoControls(r.err);
}

class CliSecurityTest : public ServerFixture {
 protected:
  // `dpq --server ADDRESS --ca CA args...` with exactly `env` added (no
  // DPQ_TOKEN unless given). `grpc_debug`: with gRPC's debug logging on
  // (which once printed the token), so stderr has gRPC's log lines too.
  CommandResult DpqWithEnv(const std::vector<std::string>& args,
                           std::map<std::string, std::string> env,
                           bool grpc_debug = false) {
    std::vector<std::string> argv = {kClientBinary, "--server",
                                     server_->address(), "--ca", certs_.ca()};
    argv.insert(argv.end(), args.begin(), args.end());
    if (!env.contains("DPQ_TOKEN")) env["-DPQ_TOKEN"] = "";
    if (grpc_debug) {
      env["GRPC_VERBOSITY"] = "debug";
    } else {
      env["-GRPC_VERBOSITY"] = "";
    }
    return RunCommand(argv, env);
  }
};

TEST_F(CliSecurityTest, TokenWithOneTrailingNewlineWorks) {
  // As `--token "$(cat f)"` of a CRLF file, DPQ_TOKEN=$'...\n', or the
  // admin.token file itself.
  CommandResult r =
      DpqWithEnv({"--token", admin_token_ + "\n", "admin", "buyers"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = DpqWithEnv({"admin", "buyers"}, {{"DPQ_TOKEN", admin_token_ + "\r\n"}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = DpqWithEnv(
      {"--token-file", data_dir() + "/admin.token", "admin", "buyers"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string file = dir_.Sub("crlf.token");
  WriteFileOrDie(file, admin_token_ + "\r\n");
  r = DpqWithEnv({"--token-file", file, "admin", "buyers"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CliSecurityTest, TokenWithABadByteIsRefusedNeverPrintedNeverAborts) {
  // Before the fix: exit 134 (gRPC aborts on the metadata value), no
  // message, and with GRPC_VERBOSITY=debug the token in the log.
  struct Case {
    std::vector<std::string> args;
    std::map<std::string, std::string> env;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--token", admin_token_ + "\x01", "admin", "buyers"},
       {},
       "dpq: --token: the token's character 69 is a control character"},
      {{"admin", "buyers"},
       {{"DPQ_TOKEN", admin_token_ + "\xff"}},
       "dpq: DPQ_TOKEN: the token's character 69 is a non-ASCII byte"},
      {{"admin", "buyers"},
       {{"DPQ_TOKEN", admin_token_ + "\n\n"}},
       "dpq: DPQ_TOKEN: the token's character 69 is a control character"},
      {{"--insecure", "admin", "buyers"},
       {{"DPQ_TOKEN", "dpq_\x1b[2J"}},
       "dpq: DPQ_TOKEN: the token's character 5 is a control character"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    std::vector<std::string> args = c.args;
    CommandResult r;
    if (args.front() == "--insecure") {
      // Plaintext: the token goes in per-call metadata (no --ca).
      std::vector<std::string> argv = {kClientBinary, "--server",
                                       server_->address()};
      argv.insert(argv.end(), args.begin(), args.end());
      std::map<std::string, std::string> env = c.env;
      env["GRPC_VERBOSITY"] = "debug";
      r = RunCommand(argv, env);
    } else {
      r = DpqWithEnv(args, c.env, /*grpc_debug=*/true);
    }
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, StartsWith(c.message));
    EXPECT_THAT(r.err, Not(HasSubstr(admin_token_.substr(4, 16))));
    EXPECT_THAT(r.err + r.out, Not(HasSubstr("\xff")));
    ExpectNoControls(r.err);
  }
}

TEST_F(CliSecurityTest, GarbageCaFileIsNamedBeforeAnyCall) {
  const std::string garbage = dir_.Sub("garbage.pem");
  WriteFileOrDie(garbage, "this is not a certificate\n");
  // Before the fix: "dpq: UNAVAILABLE: empty address list".
  CommandResult r = RunCommand({kClientBinary, "--server", server_->address(),
                                "--ca", garbage, "health"},
                               {{"-DPQ_TOKEN", ""}});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "dpq: INVALID_ARGUMENT: --ca file '" + garbage +
                       "' holds no PEM certificate (no '-----BEGIN "
                       "CERTIFICATE-----' block).\n");
  // A client key that is not the certificate's.
  r = RunCommand({kClientBinary, "--server", server_->address(), "--ca",
                  certs_.ca(), "--client-cert", certs_.client_cert(),
                  "--client-key", certs_.server_key(), "health"},
                 {{"-DPQ_TOKEN", ""}});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--client-key file '" + certs_.server_key() +
                               "' does not belong to the certificate"));
  // A directory.
  r = RunCommand({kClientBinary, "--server", server_->address(), "--ca",
                  dir_.path(), "health"},
                 {{"-DPQ_TOKEN", ""}});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("not a regular file"));
}

TEST_F(CliSecurityTest, Latin1CsvWithCubeDimensionNeverAbortsTheCli) {
  const std::string csv = dir_.Sub("bad.csv");
  WriteFileOrDie(csv, "a,b\n\xff\xfe,2\n1,3\n");
  const std::string dc = dir_.Sub("bad.dc");
  WriteFileOrDie(dc, "a -> b\n");
  // Before the fix: exit 134. The server either refuses the CSV or
  // registers it; if its reply then does not parse, `dpq` says so.
  // The labels of a cube dimension whose domain comes from the data are in
  // every DatasetInfo: the reply to the registration, and every listing.
  const CommandResult registered = DpqWithEnv(
      {"admin", "register", "bad", "--data", csv, "--constraints", dc,
       "--public-max-rows", "10", "--infer-types", "--cube-dimension", "a=*"},
      {{"DPQ_TOKEN", admin_token_}});
  ExpectCleanOutcome(registered);
  if (registered.exit_code == 1 &&
      absl::StartsWith(registered.err, "dpq: INTERNAL: ")) {
    EXPECT_THAT(registered.err, HasSubstr("could not be parsed"));
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"admin", "datasets"},
        std::vector<std::string>{"--json", "admin", "datasets"},
        std::vector<std::string>{"datasets"},
        std::vector<std::string>{"--json", "datasets"},
        std::vector<std::string>{"describe", "bad"}}) {
    SCOPED_TRACE(args.back());
    ExpectCleanOutcome(DpqWithEnv(args, {{"DPQ_TOKEN", admin_token_}}));
  }
}

TEST_F(CliSecurityTest, ConstraintsThatAreNotUtf8AreRefusedWithTheirPlace) {
  const std::string csv = dir_.Sub("ok.csv");
  WriteFileOrDie(csv, "a,b\n1,2\n");
  const std::string dc = dir_.Sub("bad.dc");
  WriteFileOrDie(dc, "a -> b\nb -> \xff\n");
  WriteFileOrDie(dir_.Sub("ok.dc"), "a -> b\n");
  // Before the fix: "dpq: INVALID_ARGUMENT: The upload stream is empty".
  const CommandResult r =
      DpqWithEnv({"admin", "register", "u", "--data", csv, "--constraints", dc,
                  "--public-max-rows", "10"},
                 {{"DPQ_TOKEN", admin_token_}});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "dpq: INVALID_ARGUMENT: " + dc +
                       ":2:6: not valid UTF-8 (byte 0xff); --constraints "
                       "files must be UTF-8 text.\n");
  const CommandResult desc =
      DpqWithEnv({"admin", "register", "u", "--data", csv, "--constraints",
                  dir_.Sub("ok.dc"), "--public-max-rows", "10", "--description",
                  "caf\xe9"},
                 {{"DPQ_TOKEN", admin_token_}});
  EXPECT_EQ(desc.exit_code, 2) << desc.err;
  EXPECT_THAT(desc.err, StartsWith("dpq: --description is not valid UTF-8: "
                                   "byte 4 is 0xe9."));
}

TEST_F(CliSecurityTest, DescriptionCannotForgeRowsOnABuyersTerminal) {
  const std::string csv = dir_.Sub("t.csv");
  WriteFileOrDie(csv, "a,b\n1,2\n");
  const std::string dc = dir_.Sub("t.dc");
  WriteFileOrDie(dc, "a -> b\n");
  const std::string evil =
      "\x1b[2J\nfake  1  table  10  -  MI,P,R  trusted data";
  const CommandResult registered = DpqWithEnv(
      {"admin", "register", "t", "--data", csv, "--constraints", dc,
       "--public-max-rows", "10", "--infer-types", "--description", evil},
      {{"DPQ_TOKEN", admin_token_}});
  // The server may refuse control characters at registration; if it keeps
  // them, every listing shows them escaped.
  ExpectCleanOutcome(registered);
  if (registered.exit_code != 0) {
    EXPECT_THAT(registered.err, HasSubstr("description")) << registered.err;
    return;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"datasets"},
        std::vector<std::string>{"admin", "datasets"},
        std::vector<std::string>{"describe", "t"},
        std::vector<std::string>{"--json", "datasets"}}) {
    SCOPED_TRACE(args.back());
    const CommandResult r = DpqWithEnv(args, {{"DPQ_TOKEN", admin_token_}});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ExpectNoControls(r.out);
    EXPECT_THAT(r.out, Not(HasSubstr("\nfake")));
  }
  const CommandResult listed =
      DpqWithEnv({"datasets"}, {{"DPQ_TOKEN", admin_token_}});
  const std::vector<std::string> lines =
      absl::StrSplit(listed.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u) << listed.out;  // header + one dataset
  EXPECT_THAT(lines[1], HasSubstr("\\x1b[2J\\nfake  1  table"));
}

}  // namespace
}  // namespace dpq::integration
