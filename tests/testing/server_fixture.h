// A real dpq-server for tests (docs/architecture.md 2, tests/): starts
// server::Server on 127.0.0.1:0 with a fresh temporary data directory,
// over plaintext, TLS or mutual TLS with certificates made once per test
// binary by the openssl CLI, and hands out channels, stubs and contexts
// carrying bearer tokens.
//
//   ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start());
//   auto admin = server->AdminStub();
//   grpc::ClientContext context;
//   server->Authorize(context, server->admin_token());
//   ... admin->ListBuyers(&context, request, &response) ...
//   ASSERT_OK_AND_ASSIGN(std::string token, server->CreateBuyer("alice"));
//
// Link target: dpq_server_testing (tests/server/CMakeLists.txt).
#ifndef DPQ_TESTS_TESTING_SERVER_FIXTURE_H_
#define DPQ_TESTS_TESTING_SERVER_FIXTURE_H_

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/security/credentials.h"
#include "server/server.h"
#include "tests/testing/files.h"
#include "tests/testing/temp_dir.h"

namespace dpq::testing {

enum class Transport { kInsecure, kTls, kMtls };

inline const char* TransportName(Transport transport) {
  switch (transport) {
    case Transport::kInsecure:
      return "insecure";
    case Transport::kTls:
      return "tls";
    case Transport::kMtls:
      return "mtls";
  }
  return "?";
}

// Development certificates, made once per process: a CA, a server
// certificate for localhost/127.0.0.1/::1, a client certificate from the
// same CA (mTLS), and a client certificate from another CA (rejected).
struct TestCerts {
  // Never destroyed (the certificates serve the whole process), so this
  // directory is not removed.
  TempDir temp{"dpq-certs"};
  std::string dir = temp.path();
  std::string ca_pem_path, server_pem_path, server_key_path;
  std::string client_pem_path, client_key_path;
  std::string rogue_client_pem_path, rogue_client_key_path;
  // PEM contents of the above.
  std::string ca_pem, client_pem, client_key, rogue_client_pem,
      rogue_client_key;
  bool ok = false;
};

inline const TestCerts& GetTestCerts() {
  static const TestCerts* const certs = [] {
    auto* c = new TestCerts;
    const std::string d = c->dir;
    std::ofstream(d + "/server.ext")
        << "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n"
           "extendedKeyUsage=serverAuth\n";
    std::ofstream(d + "/client.ext") << "extendedKeyUsage=clientAuth\n";
    const std::string key_opts =
        "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
    auto ca = [&](const std::string& name) {
      return absl::StrCat("openssl req -x509 ", key_opts, " -keyout ", d, "/",
                          name, ".key -out ", d, "/", name,
                          ".pem -days 2 -subj /CN=", name);
    };
    auto leaf = [&](const std::string& name, const std::string& issuer,
                    const std::string& ext, const std::string& cn) {
      return absl::StrCat("openssl req ", key_opts, " -keyout ", d, "/", name,
                          ".key -out ", d, "/", name, ".csr -subj /CN=", cn,
                          " && openssl x509 -req -in ", d, "/", name,
                          ".csr -CA ", d, "/", issuer, ".pem -CAkey ", d, "/",
                          issuer, ".key -CAcreateserial -out ", d, "/", name,
                          ".pem -days 2 -extfile ", d, "/", ext);
    };
    const std::string script = absl::StrCat(
        "(", ca("ca"), " && ", ca("rogue-ca"), " && ",
        leaf("server", "ca", "server.ext", "localhost"), " && ",
        leaf("client", "ca", "client.ext", "dpq-test-client"), " && ",
        leaf("rogue-client", "rogue-ca", "client.ext", "rogue"), ") > ", d,
        "/openssl.log 2>&1");
    c->ok = !d.empty() && std::system(script.c_str()) == 0;
    c->ca_pem_path = d + "/ca.pem";
    c->server_pem_path = d + "/server.pem";
    c->server_key_path = d + "/server.key";
    c->client_pem_path = d + "/client.pem";
    c->client_key_path = d + "/client.key";
    c->rogue_client_pem_path = d + "/rogue-client.pem";
    c->rogue_client_key_path = d + "/rogue-client.key";
    c->ca_pem = ReadFileOrEmpty(c->ca_pem_path);
    c->client_pem = ReadFileOrEmpty(c->client_pem_path);
    c->client_key = ReadFileOrEmpty(c->client_key_path);
    c->rogue_client_pem = ReadFileOrEmpty(c->rogue_client_pem_path);
    c->rogue_client_key = ReadFileOrEmpty(c->rogue_client_key_path);
    return c;
  }();
  return *certs;
}

class TestServer {
 public:
  // Starts a server on 127.0.0.1:0 in a new temporary data directory.
  // `customize` may change the options (limits, ...) before the start.
  static absl::StatusOr<std::unique_ptr<TestServer>> Start(
      Transport transport = Transport::kInsecure,
      std::function<void(server::Options&)> customize = {}) {
    std::unique_ptr<TestServer> test(new TestServer);
    test->transport_ = transport;
    if (test->data_dir_.path().empty()) {
      return absl::InternalError("Cannot create a temporary data_dir.");
    }
    test->options_.listen = "127.0.0.1:0";
    test->options_.data_dir = test->data_dir_.Sub("data");
    test->options_.drain_seconds = 5;
    if (transport == Transport::kInsecure) {
      test->options_.insecure_for_local_dev = true;
    } else {
      const TestCerts& certs = GetTestCerts();
      if (!certs.ok) {
        return absl::InternalError(
            absl::StrCat("openssl could not make test certificates; see ",
                         certs.dir, "/openssl.log"));
      }
      test->options_.tls_cert = certs.server_pem_path;
      test->options_.tls_key = certs.server_key_path;
      if (transport == Transport::kMtls) {
        test->options_.client_ca = certs.ca_pem_path;
      }
    }
    if (customize) customize(test->options_);
    absl::Status started = test->Restart();
    if (!started.ok()) return started;
    return test;
  }

  // The server stops before data_dir_ is removed.
  ~TestServer() { server_.reset(); }

  // Stops the server (drain up to `drain`) and starts a new one on the same
  // data directory (a new port). For durability tests.
  absl::Status Restart(absl::Duration drain = absl::ZeroDuration()) {
    if (server_ != nullptr) {
      server_->Shutdown(absl::Now() + drain);
      server_->Wait();
      server_.reset();
    }
    absl::StatusOr<std::unique_ptr<server::Server>> server =
        server::Server::BuildAndStart(options_);
    if (!server.ok()) return server.status();
    server_ = *std::move(server);
    admin_token_ = std::string(absl::StripAsciiWhitespace(
        ReadFileOrEmpty(server_->admin_token_path())));
    return absl::OkStatus();
  }

  server::Server& server() { return *server_; }
  const server::Options& options() const { return options_; }
  const std::string& data_dir() const { return options_.data_dir; }
  Transport transport() const { return transport_; }
  // "127.0.0.1:PORT".
  std::string address() const { return server_->address(); }
  // The token from DATA_DIR/admin.token.
  const std::string& admin_token() const { return admin_token_; }

  // Channel credentials for this server's transport (mTLS: the good client
  // certificate).
  std::shared_ptr<grpc::ChannelCredentials> Credentials() const {
    if (transport_ == Transport::kInsecure) {
      return grpc::InsecureChannelCredentials();
    }
    const TestCerts& certs = GetTestCerts();
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = certs.ca_pem;
    if (transport_ == Transport::kMtls) {
      ssl.pem_cert_chain = certs.client_pem;
      ssl.pem_private_key = certs.client_key;
    }
    return grpc::SslCredentials(ssl);
  }

  // A new channel with its own connection (tokens go per call, see
  // Authorize; calls with different tokens may share the channel).
  std::shared_ptr<grpc::Channel> Channel() const {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, 64 << 20);
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    return grpc::CreateCustomChannel(address(), Credentials(), args);
  }

  std::unique_ptr<v1::AdminService::Stub> AdminStub() const {
    return v1::AdminService::NewStub(Channel());
  }
  std::unique_ptr<v1::BuyerService::Stub> BuyerStub() const {
    return v1::BuyerService::NewStub(Channel());
  }

  // Adds `authorization: Bearer <token>` and a deadline.
  static void Authorize(grpc::ClientContext& context, const std::string& token,
                        absl::Duration timeout = absl::Seconds(60)) {
    context.AddMetadata("authorization", absl::StrCat("Bearer ", token));
    context.set_deadline(std::chrono::system_clock::now() +
                         absl::ToChronoSeconds(timeout));
  }

  // Admin helpers (each one RPC with the admin token); errors as absl.
  absl::StatusOr<std::string> CreateBuyer(const std::string& name) const {
    grpc::ClientContext context;
    Authorize(context, admin_token_);
    v1::CreateBuyerRequest request;
    request.set_name(name);
    v1::CreateBuyerResponse response;
    grpc::Status status =
        AdminStub()->CreateBuyer(&context, request, &response);
    if (!status.ok()) return ToAbsl(status);
    return response.token();
  }

  // Uploads `csv` in chunks of `chunk_bytes` with the given manifest
  // fields.
  absl::StatusOr<v1::RegisterDatasetResponse> RegisterDataset(
      const std::string& dataset_id, const std::string& csv,
      const std::string& constraints, uint64_t public_max_rows,
      size_t chunk_bytes = 1 << 20) const {
    v1::DatasetManifest manifest;
    manifest.set_dataset_id(dataset_id);
    manifest.set_constraints(constraints);
    manifest.set_public_max_rows(public_max_rows);
    manifest.set_infer_column_types(true);
    return RegisterDataset(manifest, csv, chunk_bytes);
  }

  absl::StatusOr<v1::RegisterDatasetResponse> RegisterDataset(
      const v1::DatasetManifest& manifest, const std::string& csv,
      size_t chunk_bytes = 1 << 20) const {
    grpc::ClientContext context;
    Authorize(context, admin_token_);
    v1::RegisterDatasetResponse response;
    auto stub = AdminStub();
    std::unique_ptr<grpc::ClientWriter<v1::RegisterDatasetRequest>> writer =
        stub->RegisterDataset(&context, &response);
    v1::RegisterDatasetRequest header;
    *header.mutable_header()->mutable_manifest() = manifest;
    bool sent = writer->Write(header);
    for (size_t at = 0; sent && at < csv.size(); at += chunk_bytes) {
      v1::RegisterDatasetRequest chunk;
      chunk.set_csv_chunk(csv.substr(at, chunk_bytes));
      sent = writer->Write(chunk);
    }
    writer->WritesDone();
    grpc::Status status = writer->Finish();
    if (!status.ok()) return ToAbsl(status);
    return response;
  }

  absl::StatusOr<v1::Budget> GrantBudget(const std::string& buyer_id,
                                         const std::string& dataset_id,
                                         double epsilon) const {
    grpc::ClientContext context;
    Authorize(context, admin_token_);
    v1::GrantBudgetRequest request;
    request.set_buyer_id(buyer_id);
    request.set_dataset_id(dataset_id);
    request.set_epsilon(epsilon);
    v1::GrantBudgetResponse response;
    grpc::Status status =
        AdminStub()->GrantBudget(&context, request, &response);
    if (!status.ok()) return ToAbsl(status);
    return response.budget();
  }

  static absl::Status ToAbsl(const grpc::Status& status) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        status.error_message());
  }

 private:
  TestServer() = default;

  Transport transport_ = Transport::kInsecure;
  TempDir data_dir_{"dpq-server"};
  server::Options options_;
  std::unique_ptr<server::Server> server_;
  std::string admin_token_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_SERVER_FIXTURE_H_
