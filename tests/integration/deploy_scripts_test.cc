// deploy/make-certs.sh: the dev CA and certificates every TLS test, the demo
// and the README rely on. Runs the script and inspects its output with the
// openssl CLI.
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

const char* const kFiles[] = {"ca.pem",     "ca.key",     "server.pem",
                              "server.key", "client.pem", "client.key"};

std::string Script() {
  return absl::StrCat(kSourceDir, "/deploy/make-certs.sh");
}

CommandResult Openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv);
}

int Mode(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : -1;
}

TEST(MakeCertsTest, MakesACaServerAndClientCertificate) {
  TempDir dir;
  const std::string out = dir.Sub("certs");
  const CommandResult r = RunCommand({"/bin/bash", Script(), out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : kFiles) {
    const std::string path = out + "/" + f;
    ASSERT_TRUE(std::filesystem::exists(path)) << f;
    if (absl::EndsWith(f, ".key")) {
      EXPECT_EQ(Mode(path), 0600) << f << " must be private";
      const CommandResult key =
          Openssl({"pkey", "-in", path, "-noout", "-text"});
      EXPECT_THAT(key.out, AnyOf(HasSubstr("P-256"), HasSubstr("prime256v1")))
          << f;
    }
  }
  const CommandResult verify =
      Openssl({"verify", "-CAfile", out + "/ca.pem", out + "/server.pem",
               out + "/client.pem"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;

  const CommandResult server =
      Openssl({"x509", "-in", out + "/server.pem", "-noout", "-ext",
               "subjectAltName,extendedKeyUsage"});
  EXPECT_THAT(server.out, HasSubstr("DNS:localhost"));
  EXPECT_THAT(server.out, HasSubstr("IP Address:127.0.0.1"));
  EXPECT_THAT(server.out, HasSubstr("IP Address:0:0:0:0:0:0:0:1"));
  EXPECT_THAT(server.out, HasSubstr("TLS Web Server Authentication"));
  const CommandResult client = Openssl({"x509", "-in", out + "/client.pem",
                                        "-noout", "-ext", "extendedKeyUsage"});
  EXPECT_THAT(client.out, HasSubstr("TLS Web Client Authentication"));

  // At most 825 days: expires within 826 days, not within 824.
  for (const char* cert : {"ca.pem", "server.pem", "client.pem"}) {
    const std::string path = out + "/" + cert;
    EXPECT_EQ(Openssl({"x509", "-in", path, "-noout", "-checkend",
                       std::to_string(826 * 86400)})
                  .exit_code,
              1)
        << cert << " is valid for more than 825 days";
    EXPECT_EQ(Openssl({"x509", "-in", path, "-noout", "-checkend",
                       std::to_string(824 * 86400)})
                  .exit_code,
              0)
        << cert;
  }
}

TEST(MakeCertsTest, IsIdempotentUnlessForced) {
  TempDir dir;
  const std::string out = dir.Sub("certs");
  ASSERT_EQ(RunCommand({"/bin/bash", Script(), out}).exit_code, 0);
  std::map<std::string, std::string> first;
  for (const char* f : kFiles) first[f] = ReadFileOrEmpty(out + "/" + f);

  const CommandResult again = RunCommand({"/bin/bash", Script(), out});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("already"));
  for (const char* f : kFiles) {
    EXPECT_EQ(ReadFileOrEmpty(out + "/" + f), first[f]) << f << " changed";
  }

  // A missing leaf is re-issued by the same CA; the rest is kept.
  std::filesystem::remove(out + "/client.pem");
  ASSERT_EQ(RunCommand({"/bin/bash", Script(), out}).exit_code, 0);
  EXPECT_EQ(ReadFileOrEmpty(out + "/ca.pem"), first["ca.pem"]);
  EXPECT_EQ(ReadFileOrEmpty(out + "/server.pem"), first["server.pem"]);
  EXPECT_NE(ReadFileOrEmpty(out + "/client.key"), first["client.key"]);
  EXPECT_EQ(Openssl({"verify", "-CAfile", out + "/ca.pem", out + "/client.pem"})
                .exit_code,
            0);

  const CommandResult forced = RunCommand(
      {"/bin/bash", Script(), out, "--force", "--server-name", "dpq.example"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  for (const char* f : kFiles) {
    EXPECT_NE(ReadFileOrEmpty(out + "/" + f), first[f]) << f << " kept";
  }
  EXPECT_THAT(Openssl({"x509", "-in", out + "/server.pem", "-noout", "-ext",
                       "subjectAltName"})
                  .out,
              HasSubstr("DNS:dpq.example"));
}

TEST(MakeCertsTest, UsageErrorWithoutAnOutputDirectory) {
  const CommandResult r = RunCommand({"/bin/bash", Script()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("usage"));
}

}  // namespace
}  // namespace dpq::integration
