// Transport and configuration of the real server: TLS by default, plaintext
// only with --insecure, mutual TLS with --client-ca, the config file (the
// shipped example, with local paths) and its message and upload limits.
#include <signal.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::_;
using ::testing::AnyOf;
using ::testing::HasSubstr;

class TransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Certs> certs = MakeCerts(dir_.Sub("certs"));
    ASSERT_TRUE(certs.ok()) << certs.status();
    certs_ = *certs;
  }

  std::unique_ptr<ServerProcess> Start(const std::vector<std::string>& args) {
    absl::StatusOr<std::unique_ptr<ServerProcess>> server =
        ServerProcess::Start(args, dir_.Sub("server.log"));
    EXPECT_TRUE(server.ok()) << server.status();
    return server.ok() ? *std::move(server) : nullptr;
  }

  std::string AdminToken() {
    return std::string(absl::StripAsciiWhitespace(
        ReadFileOrEmpty(dir_.Sub("data/admin.token"))));
  }

  static grpc::Status ListDatasets(Client& client, const std::string& token) {
    v1::AdminListDatasetsResponse response;
    auto context = Context(token, std::chrono::milliseconds(5000));
    return client.admin(token).ListDatasets(context.get(), {}, &response);
  }

  // The shipped config example with this test's paths and `overrides`.
  std::string ConfigFromExample(
      const std::vector<std::pair<std::string, std::string>>& overrides) {
    std::string out;
    const std::string example = ReadFileOrEmpty(
        absl::StrCat(kSourceDir, "/deploy/dpq-server.conf.example"));
    EXPECT_FALSE(example.empty());
    for (absl::string_view line : absl::StrSplit(example, '\n')) {
      std::string replaced(line);
      for (const auto& [key, value] : overrides) {
        if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(line),
                             key + " ")) {
          replaced = absl::StrCat(key, " = ", value);
        }
      }
      absl::StrAppend(&out, replaced, "\n");
    }
    return out;
  }

  TempDir dir_;
  Certs certs_;
};

TEST_F(TransportTest, RefusesToStartWithoutTlsOrInsecure) {
  const CommandResult r =
      RunCommand({kServerBinary, "--data-dir", dir_.Sub("data"), "--listen",
                  "127.0.0.1:0"},
                 {}, std::chrono::seconds(20));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, -1) << "it must exit, not serve: " << r.err;
  EXPECT_THAT(r.err, AnyOf(HasSubstr("--tls-cert"), HasSubstr("--insecure")));
}

TEST_F(TransportTest, RefusesAMissingCertificateFile) {
  const CommandResult r = RunCommand(
      {kServerBinary, "--data-dir", dir_.Sub("data"), "--listen", "127.0.0.1:0",
       "--tls-cert", dir_.Sub("nope.pem"), "--tls-key", certs_.server_key()},
      {}, std::chrono::seconds(20));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, -1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("nope.pem"));
}

TEST_F(TransportTest, TlsServerRejectsPlaintextAndUntrustedClients) {
  auto server = Start({"--data-dir", dir_.Sub("data"), "--listen",
                       "127.0.0.1:0", "--tls-cert", certs_.server_cert(),
                       "--tls-key", certs_.server_key()});
  ASSERT_NE(server, nullptr);
  {
    Client tls(TlsChannel(server->address(), certs_.ca()));
    EXPECT_THAT(ListDatasets(tls, AdminToken()), GrpcOk());
    Client plaintext(InsecureChannel(server->address()));
    EXPECT_THAT(ListDatasets(plaintext, AdminToken()),
                GrpcIs(StatusCode::UNAVAILABLE, _));
    // A client that trusts another CA does not accept the server.
    TempDir other;
    absl::StatusOr<Certs> other_certs = MakeCerts(other.Sub("certs"));
    ASSERT_TRUE(other_certs.ok());
    Client untrusting(TlsChannel(server->address(), other_certs->ca()));
    EXPECT_THAT(ListDatasets(untrusting, AdminToken()),
                GrpcIs(StatusCode::UNAVAILABLE, _));
  }  // closes the clients' connections before the SIGTERM
  EXPECT_EQ(server->Terminate(), 0);
}

TEST_F(TransportTest, InsecureOnlyWhenAskedForAndSaysSo) {
  auto server = Start({"--data-dir", dir_.Sub("data"), "--listen",
                       "127.0.0.1:0", "--insecure"});
  ASSERT_NE(server, nullptr);
  {
    Client plaintext(InsecureChannel(server->address()));
    EXPECT_THAT(ListDatasets(plaintext, AdminToken()), GrpcOk());
    // Tokens are still required.
    EXPECT_THAT(ListDatasets(plaintext, ""),
                GrpcIs(StatusCode::UNAUTHENTICATED, _));
    EXPECT_THAT(server->Log(),
                ::testing::ContainsRegex("[Ii]nsecure|plaintext"));
  }  // closes the clients' connections before the SIGTERM
  EXPECT_EQ(server->Terminate(), 0);
}

TEST_F(TransportTest, MutualTlsNeedsAClientCertificate) {
  auto server =
      Start({"--data-dir", dir_.Sub("data"), "--listen", "127.0.0.1:0",
             "--tls-cert", certs_.server_cert(), "--tls-key",
             certs_.server_key(), "--client-ca", certs_.ca()});
  ASSERT_NE(server, nullptr);
  {
    Client without(TlsChannel(server->address(), certs_.ca()));
    EXPECT_THAT(ListDatasets(without, AdminToken()),
                GrpcIs(StatusCode::UNAVAILABLE, _));
    Client with(TlsChannel(server->address(), certs_.ca(), certs_.client_cert(),
                           certs_.client_key()));
    EXPECT_THAT(ListDatasets(with, AdminToken()), GrpcOk());
    // The certificate authenticates the connection, the token the caller.
    EXPECT_THAT(ListDatasets(with, ""), GrpcIs(StatusCode::UNAUTHENTICATED, _));
  }  // closes the clients' connections before the SIGTERM
  EXPECT_EQ(server->Terminate(), 0);
}

// The shipped example, pointed at this test's directory, starts a server on
// its own (no other flags) and its limits hold.
TEST_F(TransportTest, ConfigFileExampleStartsTheServerAndSetsLimits) {
  const std::string config = dir_.Sub("dpq-server.conf");
  WriteFileOrDie(config, ConfigFromExample({{"listen", "127.0.0.1:0"},
                                            {"data_dir", dir_.Sub("data")},
                                            {"tls_cert", certs_.server_cert()},
                                            {"tls_key", certs_.server_key()},
                                            {"max_message_bytes", "65536"},
                                            {"max_upload_bytes", "100000"},
                                            {"graph_threads", "2"},
                                            {"drain_seconds", "5"}}));
  auto server = Start({"--config", config});
  ASSERT_NE(server, nullptr);
  {
    Client client(TlsChannel(server->address(), certs_.ca()));
    const std::string token = AdminToken();
    ASSERT_FALSE(token.empty());
    const std::string csv = ReadFileOrEmpty(HospitalCsvPath());
    ASSERT_GT(csv.size(), 100000u);

    // 300 KB in 16 KB messages: above the upload limit.
    v1::RegisterDatasetResponse response;
    EXPECT_THAT(client.Register(token, HospitalManifest("big"), csv, &response,
                                16 * 1024),
                GrpcIs(StatusCode::RESOURCE_EXHAUSTED, _));
    // One message above max_message_bytes.
    EXPECT_THAT(client.Register(token, HospitalManifest("big2"),
                                csv.substr(0, 90000), &response, 90000),
                GrpcIs(StatusCode::RESOURCE_EXHAUSTED, _));
    // Under both limits: accepted (the first 200 rows).
    size_t pos = 0;
    for (int line = 0; line <= 200; ++line) pos = csv.find('\n', pos) + 1;
    ASSERT_LT(pos, 100000u);
    ASSERT_THAT(client.Register(token, HospitalManifest("small"),
                                csv.substr(0, pos), &response, 16 * 1024),
                GrpcOk());
    EXPECT_EQ(response.stats().rows(), 200u);
    // Nothing of the refused uploads was kept.
    v1::AdminListDatasetsResponse list;
    auto context = Context(token);
    ASSERT_THAT(client.admin(token).ListDatasets(context.get(), {}, &list),
                GrpcOk());
    ASSERT_EQ(list.datasets_size(), 1);
    EXPECT_EQ(list.datasets(0).dataset().dataset_id(), "small");
  }  // closes the clients' connections before the SIGTERM
  EXPECT_EQ(server->Terminate(), 0);
}

TEST_F(TransportTest, FlagsOverrideTheConfigFile) {
  const std::string config = dir_.Sub("dpq-server.conf");
  WriteFileOrDie(config, ConfigFromExample({{"listen", "127.0.0.1:1"},
                                            {"data_dir", dir_.Sub("data")},
                                            {"tls_cert", certs_.server_cert()},
                                            {"tls_key", certs_.server_key()}}));
  auto server = Start({"--config", config, "--listen", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  {
    EXPECT_NE(server->address(), "127.0.0.1:1");
  }  // closes the clients' connections before the SIGTERM
  EXPECT_EQ(server->Terminate(), 0);
}

TEST_F(TransportTest, BadConfigFileNamesTheLine) {
  const std::string config = dir_.Sub("bad.conf");
  WriteFileOrDie(config,
                 absl::StrCat("listen = 127.0.0.1:0\n", "no_such_key = 1\n"));
  const CommandResult r =
      RunCommand({kServerBinary, "--config", config, "--data-dir",
                  dir_.Sub("data"), "--insecure"},
                 {}, std::chrono::seconds(20));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, -1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no_such_key"));
}

// A health Watch (as load balancers use) sees NOT_SERVING once SIGTERM
// arrives, and the server still exits 0.
TEST_F(TransportTest, HealthWatchSeesNotServingOnSigterm) {
  auto server = Start({"--data-dir", dir_.Sub("data"), "--listen",
                       "127.0.0.1:0", "--tls-cert", certs_.server_cert(),
                       "--tls-key", certs_.server_key()});
  ASSERT_NE(server, nullptr);
  {
    auto health = grpc::health::v1::Health::NewStub(
        TlsChannel(server->address(), certs_.ca()));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service("dpq.v1.BuyerService");
    auto context = Context("", std::chrono::milliseconds(30000));
    auto reader = health->Watch(context.get(), request);
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(reader->Read(&response));
    EXPECT_EQ(response.status(),
              grpc::health::v1::HealthCheckResponse::SERVING);
    server->Signal(SIGTERM);
    bool not_serving = false;
    while (reader->Read(&response)) {
      if (response.status() ==
          grpc::health::v1::HealthCheckResponse::NOT_SERVING) {
        not_serving = true;
        break;
      }
    }
    EXPECT_TRUE(not_serving);
    context->TryCancel();
    reader->Finish();
  }
  EXPECT_EQ(server->Terminate(), 0);
  EXPECT_THAT(server->Log(), HasSubstr("SIGTERM"));
}

}  // namespace
}  // namespace dpq::integration
