#include "server/config.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/server.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

absl::StatusOr<CommandLine> Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "dpq-server");
  return ParseCommandLine(static_cast<int>(args.size()), args.data());
}

Options InsecureOptions() {
  Options options;
  options.data_dir = "/tmp/dpq-unused";
  options.insecure_for_local_dev = true;
  return options;
}

TEST(ConfigTest, ConfigTextSetsEveryKey) {
  Options options;
  ASSERT_OK(
      ApplyConfigText("# a comment\n"
                      "listen = 127.0.0.1:6000\n"
                      "data_dir=/srv/dpq   # trailing comment\n"
                      "tls_cert = /c.pem\n"
                      "tls_key = /k.pem\n"
                      "client_ca = /ca.pem\n"
                      "\n"
                      "insecure = false\n"
                      "reflection = false\n"
                      "max_message_bytes = 2048\n"
                      "max_upload_bytes = 4096\n"
                      "max_rows = 77\n"
                      "max_edges = 1000\n"
                      "graph_threads = 3\n"
                      "graph_build_workers = 2\n"
                      "exact_repair_seconds = 120\n"
                      "max_heavy_jobs = 5\n"
                      "max_heavy_jobs_per_buyer = 3\n"
                      "drain_seconds = 9\n",
                      "dpq.conf", &options));
  EXPECT_EQ(options.listen, "127.0.0.1:6000");
  EXPECT_EQ(options.data_dir, "/srv/dpq");
  EXPECT_EQ(options.tls_cert, "/c.pem");
  EXPECT_EQ(options.tls_key, "/k.pem");
  EXPECT_EQ(options.client_ca, "/ca.pem");
  EXPECT_FALSE(options.insecure_for_local_dev);
  EXPECT_FALSE(options.reflection) << "on by default, off here";
  EXPECT_EQ(options.max_message_bytes, 2048);
  EXPECT_EQ(options.max_upload_bytes, 4096u);
  EXPECT_EQ(options.max_rows, 77u);
  EXPECT_EQ(options.max_edges, 1000u);
  EXPECT_EQ(options.graph_threads, 3);
  EXPECT_EQ(options.graph_build_workers, 2);
  EXPECT_EQ(options.exact_repair_seconds, 120);
  EXPECT_EQ(options.max_heavy_jobs, 5);
  EXPECT_EQ(options.max_heavy_jobs_per_buyer, 3);
  EXPECT_EQ(options.drain_seconds, 9);
}

TEST(ConfigTest, BackgroundWorkersAndHeavyJobsAreBounded) {
  Options options;
  options.data_dir = "/srv/dpq";
  options.insecure_for_local_dev = true;
  EXPECT_OK(ValidateOptions(options));
  options.graph_build_workers = 0;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("graph_build_workers must be in [1, 16]")));
  options.graph_build_workers = 1;
  options.exact_repair_seconds = 0;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("exact_repair_seconds must be in [1, 3600]")));
  options.exact_repair_seconds = 60;
  options.max_heavy_jobs = 65;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_heavy_jobs must be in [1, 64]")));
  // Per buyer: 0 (the default: half of them) up to max_heavy_jobs.
  options.max_heavy_jobs = 4;
  options.max_heavy_jobs_per_buyer = 4;
  EXPECT_OK(ValidateOptions(options));
  options.max_heavy_jobs_per_buyer = 5;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_heavy_jobs_per_buyer must be in [1, "
                                 "max_heavy_jobs = 4]")));
  options.max_heavy_jobs_per_buyer = -1;
  EXPECT_FALSE(ValidateOptions(options).ok());
  options.max_heavy_jobs_per_buyer = 0;
  options.max_heavy_releases = 0;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_heavy_releases must be in [1, 64]")));
  options.max_heavy_releases = 64;
  EXPECT_OK(ValidateOptions(options));
}

TEST(ConfigTest, TheShippedExampleConfigParses) {
  const std::string path =
      std::string(DPQ_SOURCE_DIR) + "/deploy/dpq-server.conf.example";
  if (!std::ifstream(path)) GTEST_SKIP() << path << " does not exist";
  Options options;
  ASSERT_OK(ApplyConfigFile(path, &options));
  EXPECT_FALSE(options.data_dir.empty());
  EXPECT_OK(ValidateOptions(options));
}

// The source text of a file of the repository.
std::string SourceFile(const std::string& relative) {
  return ::dpq::testing::ReadFileOrEmpty(std::string(DPQ_SOURCE_DIR) + "/" +
                                         relative);
}

// max_edges was documented as a server setting and was neither a flag nor
// a key: it is both now, validated, and the default is the core's.
TEST(ConfigTest, MaxEdgesIsAKeyAndAFlag) {
  EXPECT_EQ(Options{}.max_edges, core::graph::kDefaultMaxConflictGraphEdges);
  ASSERT_OK_AND_ASSIGN(CommandLine line, Parse({"--max-edges", "5000"}));
  EXPECT_EQ(line.options.max_edges, 5000u);
  EXPECT_THAT(Parse({"--max-edges=lots"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--max-edges: max_edges must be an integer")));
  Options options = InsecureOptions();
  options.max_edges = 0;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_edges must be > 0")));
  EXPECT_THAT(Usage(), HasSubstr("--max-edges N"));
}

// The config keys listed in docs/operations.md and the shipped example
// config name exactly the keys the server accepts (they had drifted: a
// dozen were missing from the list).
TEST(ConfigTest, OperationsDocAndExampleListEveryKey) {
  const std::string doc = SourceFile("docs/operations.md");
  const size_t from = doc.find("- **Config file**");
  ASSERT_NE(from, std::string::npos);
  const size_t to = doc.find(" (each also a flag", from);
  ASSERT_NE(to, std::string::npos);
  std::vector<std::string> listed;
  const std::string bullet = doc.substr(from, to - from);
  for (size_t at = bullet.find('`'); at != std::string::npos;
       at = bullet.find('`', at)) {
    const size_t end = bullet.find('`', at + 1);
    ASSERT_NE(end, std::string::npos);
    const std::string word = bullet.substr(at + 1, end - at - 1);
    if (word != "--config F" && word != "key = value" && word != "#") {
      listed.push_back(word);
    }
    at = end + 1;
  }
  EXPECT_EQ(listed, SettingKeys()) << "docs/operations.md config bullet";
  const std::string example = SourceFile("deploy/dpq-server.conf.example");
  for (const std::string& key : SettingKeys()) {
    EXPECT_THAT(example, ::testing::AnyOf(HasSubstr("\n" + key + " ="),
                                          HasSubstr("\n# " + key + " =")))
        << key;
  }
}

TEST(ConfigTest, UnknownKeyNamesTheLine) {
  Options options;
  EXPECT_THAT(ApplyConfigText("listen = :1\n\nport = 5\n", "my.conf", &options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("my.conf line 3: Unknown setting 'port'")));
}

TEST(ConfigTest, BadValueNamesTheLineAndValue) {
  Options options;
  EXPECT_THAT(ApplyConfigText("insecure = yes\n", "c", &options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("c line 1: insecure must be true or false, "
                                 "but is 'yes'")));
  EXPECT_THAT(ApplyConfigText("# x\nmax_rows = many\n", "c", &options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("c line 2: max_rows must be an integer")));
  EXPECT_THAT(
      ApplyConfigText("max_rows = -1\n", "c", &options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_rows")));
}

TEST(ConfigTest, LineWithoutEqualsIsAnError) {
  Options options;
  EXPECT_THAT(ApplyConfigText("listen 1.2.3.4:5\n", "c", &options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("c line 1: expected 'key = value'")));
}

TEST(ConfigTest, FlagsOverrideTheConfigFile) {
  const std::string path = ::testing::TempDir() + "/dpq-config-test.conf";
  std::ofstream(path) << "data_dir = /from-file\nlisten = 0.0.0.0:7\n"
                         "drain_seconds = 4\n";
  ASSERT_OK_AND_ASSIGN(
      CommandLine line,
      Parse({"--listen", "127.0.0.1:0", "--config", path.c_str(),
             "--drain-seconds=11", "--insecure"}));
  EXPECT_FALSE(line.help);
  EXPECT_EQ(line.options.data_dir, "/from-file");
  EXPECT_EQ(line.options.listen, "127.0.0.1:0");
  EXPECT_EQ(line.options.drain_seconds, 11);
  EXPECT_TRUE(line.options.insecure_for_local_dev);
  std::remove(path.c_str());
}

TEST(ConfigTest, CommandLineErrorsNameTheFlag) {
  EXPECT_THAT(Parse({"--colour", "red"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown flag --colour")));
  EXPECT_THAT(Parse({"--data-dir"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--data-dir needs a value")));
  EXPECT_THAT(Parse({"--max-rows", "x"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--max-rows: max_rows must be an integer")));
  EXPECT_THAT(Parse({"serve"}), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("Unexpected argument")));
  EXPECT_THAT(Parse({"--config", "/no/such/file.conf"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("/no/such/file.conf")));
}

// docs/security.md, item 3: server_path imports are off unless named.
TEST(ConfigTest, ImportDirIsOffByDefaultAndSetByKeyOrFlag) {
  EXPECT_EQ(Options().import_dir, "");
  Options options;
  ASSERT_OK(
      ApplyConfigText("import_dir = /srv/import\n", "dpq.conf", &options));
  EXPECT_EQ(options.import_dir, "/srv/import");
  ASSERT_OK_AND_ASSIGN(CommandLine line,
                       Parse({"--import-dir", "/srv/in", "--insecure"}));
  EXPECT_EQ(line.options.import_dir, "/srv/in");
  EXPECT_THAT(Usage(), HasSubstr("--import-dir DIR"));
}

TEST(ConfigTest, MetricsAreOffByDefaultAndSetByKeyOrFlag) {
  EXPECT_EQ(Options().metrics_listen, "");
  Options options;
  ASSERT_OK(ApplyConfigText("metrics_listen = 127.0.0.1:9464\n", "dpq.conf",
                            &options));
  EXPECT_EQ(options.metrics_listen, "127.0.0.1:9464");
  ASSERT_OK_AND_ASSIGN(CommandLine line,
                       Parse({"--metrics-listen", "10.0.0.5:0", "--insecure"}));
  EXPECT_EQ(line.options.metrics_listen, "10.0.0.5:0");
  EXPECT_THAT(Usage(), HasSubstr("--metrics-listen HOST:PORT"));
}

TEST(ConfigTest, SharedStateKeysAndFlags) {
  Options options;
  ASSERT_OK(
      ApplyConfigText("database = postgresql://dpq@db/dpq\n"
                      "replica_id = dpq-1\n"
                      "replica_lease_seconds = 30\n"
                      "database_connections = 8\n"
                      "admin_token_file = /run/secrets/admin.token\n",
                      "dpq.conf", &options));
  EXPECT_EQ(options.database, "postgresql://dpq@db/dpq");
  EXPECT_EQ(options.replica_id, "dpq-1");
  EXPECT_EQ(options.replica_lease_seconds, 30);
  EXPECT_EQ(options.database_connections, 8);
  EXPECT_EQ(options.admin_token_file, "/run/secrets/admin.token");
  ASSERT_OK_AND_ASSIGN(CommandLine line,
                       Parse({"--database-file", "/run/secrets/dsn",
                              "--import-sqlite", "/srv/old", "--insecure"}));
  EXPECT_EQ(line.options.database_file, "/run/secrets/dsn");
  EXPECT_EQ(line.import_sqlite_dir, "/srv/old");
  EXPECT_THAT(Usage(), HasSubstr("--database DSN"));
  EXPECT_THAT(Usage(), HasSubstr("--import-sqlite DIR"));
  EXPECT_THAT(Usage(), HasSubstr("--backup NEW_DIR --data-dir DIR"));
  EXPECT_THAT(Usage(), HasSubstr("--max-heavy-releases N"));
}

TEST(ValidateOptionsTest, SharedStateOptionsAreChecked) {
  Options options = InsecureOptions();
  options.database = "dbname=dpq";
  EXPECT_OK(ValidateOptions(options));
  options.database_file = "/dsn";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("give the DSN once")));
  options.database_file.clear();
  options.replica_lease_seconds = 1;
  EXPECT_THAT(
      ValidateOptions(options),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("replica_lease_seconds must be in [2, 3600]")));
  options.replica_lease_seconds = 15;
  options.database_connections = 65;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("database_connections must be in [2, 64]")));
  options.database_connections = 16;
  options.replica_id = "a b";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("replica_id must be")));
  options.replica_id = "dpq-1.zone_a";
  EXPECT_OK(ValidateOptions(options));
}

TEST(ConfigTest, HelpIsRecognised) {
  ASSERT_OK_AND_ASSIGN(CommandLine line, Parse({"--help"}));
  EXPECT_TRUE(line.help);
  EXPECT_THAT(Usage(), HasSubstr("--data-dir"));
  EXPECT_THAT(Usage(), HasSubstr("--insecure"));
  EXPECT_THAT(Usage(), HasSubstr("--max-heavy-jobs-per-buyer N"));
}

TEST(ValidateOptionsTest, AcceptsInsecureAndTls) {
  EXPECT_OK(ValidateOptions(InsecureOptions()));
  Options tls;
  tls.data_dir = "/d";
  tls.tls_cert = "/c";
  tls.tls_key = "/k";
  EXPECT_OK(ValidateOptions(tls));
}

TEST(ValidateOptionsTest, TlsNeedsCertAndKey) {
  Options options;
  options.data_dir = "/d";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("tls_cert is missing")));
  options.tls_cert = "/c";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("tls_key is missing")));
}

TEST(ValidateOptionsTest, InsecureExcludesTlsFiles) {
  Options options = InsecureOptions();
  options.client_ca = "/ca.pem";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("client_ca is set to '/ca.pem'")));
  options = InsecureOptions();
  options.tls_cert = "/c.pem";
  EXPECT_THAT(
      ValidateOptions(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tls_cert")));
}

TEST(ValidateOptionsTest, DataDirIsRequired) {
  Options options = InsecureOptions();
  options.data_dir.clear();
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("data_dir is required")));
}

TEST(ValidateOptionsTest, RejectsBadListenAndLimits) {
  Options options = InsecureOptions();
  options.listen = "localhost";
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("listen must be HOST:PORT")));
  options.listen = "localhost:70000";
  EXPECT_THAT(
      ValidateOptions(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("port 0..65535")));
  options = InsecureOptions();
  options.max_message_bytes = 10;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_message_bytes")));
  options = InsecureOptions();
  options.max_upload_bytes = 0;
  EXPECT_THAT(ValidateOptions(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_upload_bytes")));
  options = InsecureOptions();
  options.drain_seconds = -1;
  EXPECT_THAT(
      ValidateOptions(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("drain_seconds")));
}

TEST(ReadPemFileTest, NamesTheOptionAndFile) {
  EXPECT_THAT(
      ReadPemFile("/no/such/cert.pem", "tls_cert"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("tls_cert '/no/such/cert.pem' cannot be read")));
  const std::string path = ::testing::TempDir() + "/dpq-not-a-pem.txt";
  std::ofstream(path) << "hello\n";
  EXPECT_THAT(ReadPemFile(path, "tls_key"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("is not a PEM file")));
  std::ofstream(path) << "-----BEGIN CERTIFICATE-----\nAAAA\n";
  EXPECT_THAT(ReadPemFile(path, "tls_key"), IsOk());
  std::remove(path.c_str());
}

TEST(BuildAndStartTest, UnreadableCertificateIsInvalidArgument) {
  Options options;
  options.listen = "127.0.0.1:0";
  options.data_dir = ::testing::TempDir() + "/dpq-never-created";
  options.tls_cert = "/no/such/server.pem";
  options.tls_key = "/no/such/server.key";
  EXPECT_THAT(Server::BuildAndStart(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("tls_cert '/no/such/server.pem'")));
}

}  // namespace
}  // namespace dpq::server
