// Transport security and authentication end to end, parameterised over
// {insecure, tls, mtls} (docs/security.md, threat model): tokens, health and
// reflection without a token, TLS and mTLS handshakes, and the drain on
// shutdown.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "tests/testing/files.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server {
namespace {

using ::dpq::testing::GetTestCerts;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TestServer;
using ::dpq::testing::Transport;
using ::grpc::health::v1::Health;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::testing::HasSubstr;

absl::Status ToAbsl(const grpc::Status& status) {
  return TestServer::ToAbsl(status);
}

std::shared_ptr<grpc::Channel> ChannelWith(
    const TestServer& server, std::shared_ptr<grpc::ChannelCredentials> creds) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(server.address(), creds, args);
}

absl::Status ListBuyers(const std::shared_ptr<grpc::Channel>& channel,
                        const std::string* token) {
  grpc::ClientContext context;
  if (token != nullptr) {
    TestServer::Authorize(context, *token, absl::Seconds(10));
  } else {
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
  }
  v1::ListBuyersResponse response;
  return ToAbsl(
      v1::AdminService::NewStub(channel)->ListBuyers(&context, {}, &response));
}

absl::StatusOr<HealthCheckResponse::ServingStatus> CheckHealth(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  HealthCheckRequest request;
  request.set_service(service);
  HealthCheckResponse response;
  grpc::Status status =
      Health::NewStub(channel)->Check(&context, request, &response);
  if (!status.ok()) return ToAbsl(status);
  return response.status();
}

class TransportTest : public ::testing::TestWithParam<Transport> {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(server_, TestServer::Start(GetParam()));
  }
  std::unique_ptr<TestServer> server_;
};

INSTANTIATE_TEST_SUITE_P(AllTransports, TransportTest,
                         ::testing::Values(Transport::kInsecure,
                                           Transport::kTls, Transport::kMtls),
                         [](const auto& info) {
                           return dpq::testing::TransportName(info.param);
                         });

TEST_P(TransportTest, AdminTokenIsAccepted) {
  const std::string token = server_->admin_token();
  EXPECT_OK(ListBuyers(server_->Channel(), &token));
}

TEST_P(TransportTest, MissingTokenIsUnauthenticated) {
  EXPECT_THAT(ListBuyers(server_->Channel(), nullptr),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Missing bearer token")));
  grpc::ClientContext context;
  v1::ListDatasetsResponse response;
  EXPECT_THAT(
      ToAbsl(server_->BuyerStub()->ListDatasets(&context, {}, &response)),
      StatusIs(absl::StatusCode::kUnauthenticated,
               HasSubstr("Missing bearer token")));
}

TEST_P(TransportTest, WrongTokenIsUnauthenticated) {
  const std::string wrong = "dpq_" + std::string(64, '0');
  EXPECT_THAT(ListBuyers(server_->Channel(), &wrong),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Unknown or revoked")));
  const std::string garbage = "hunter2";
  EXPECT_THAT(ListBuyers(server_->Channel(), &garbage),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Malformed bearer token")));
}

TEST_P(TransportTest, BuyerTokenIsPermissionDeniedOnAdminRpcs) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  EXPECT_THAT(ListBuyers(server_->Channel(), &token),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("Buyer 'alice'")));
}

TEST_P(TransportTest, RevokedTokenIsUnauthenticated) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  auto channel = server_->Channel();
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  v1::GetBudgetResponse budget;
  ASSERT_OK(ToAbsl(
      v1::BuyerService::NewStub(channel)->GetBudget(&context, {}, &budget)));
  ASSERT_OK(server_->server().accounts().Revoke("alice"));
  grpc::ClientContext again;
  TestServer::Authorize(again, token);
  EXPECT_THAT(
      ToAbsl(
          v1::BuyerService::NewStub(channel)->GetBudget(&again, {}, &budget)),
      StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("revoked")));
}

TEST_P(TransportTest, OneConnectionServesEveryPrincipal) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  const std::string admin = server_->admin_token();
  auto channel = server_->Channel();  // one connection for every call below
  ASSERT_OK(ListBuyers(channel, &admin));
  // A buyer token after the admin's runs as the buyer, never as the admin...
  EXPECT_THAT(ListBuyers(channel, &token),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("Buyer 'alice'")));
  // ...a call without a token is not let in on an earlier call's identity...
  EXPECT_THAT(ListBuyers(channel, nullptr),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Missing bearer token")));
  // ...and each token keeps working on the shared connection.
  EXPECT_OK(ListBuyers(channel, &admin));
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  v1::GetBudgetResponse budget;
  EXPECT_OK(ToAbsl(
      v1::BuyerService::NewStub(channel)->GetBudget(&context, {}, &budget)));
}

TEST_P(TransportTest, TwoAuthorizationValuesAreUnauthenticated) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  context.AddMetadata("authorization", "Bearer " + server_->admin_token());
  v1::ListBuyersResponse response;
  EXPECT_THAT(ToAbsl(server_->AdminStub()->ListBuyers(&context, {}, &response)),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("expected exactly one")));
}

TEST_P(TransportTest, HealthNeedsNoToken) {
  auto channel = server_->Channel();
  for (const char* service :
       {"", "dpq.v1.BuyerService", "dpq.v1.AdminService"}) {
    EXPECT_THAT(CheckHealth(channel, service),
                dpq::testing::IsOkAndHolds(HealthCheckResponse::SERVING))
        << service;
  }
  EXPECT_THAT(CheckHealth(channel, "no.such.Service"),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));
}

// Lists the services through server reflection, without a token. Returns
// the raw response bytes (the service names appear in them verbatim).
absl::StatusOr<std::string> ReflectionListServices(
    const std::shared_ptr<grpc::Channel>& channel) {
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  auto call = stub.PrepareCall(
      &context,
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", &cq);
  void* tag = nullptr;
  bool ok = false;
  auto step = [&](intptr_t expected) {
    return cq.Next(&tag, &ok) && ok &&
           reinterpret_cast<intptr_t>(tag) == expected;
  };
  call->StartCall(reinterpret_cast<void*>(1));
  if (!step(1)) return absl::UnavailableError("StartCall failed");
  // ServerReflectionRequest{list_services: "*"}: field 7, length 1.
  const std::string request("\x3a\x01*", 3);
  grpc::Slice slice(request);
  grpc::ByteBuffer buffer(&slice, 1);
  call->Write(buffer, reinterpret_cast<void*>(2));
  if (!step(2)) return absl::UnavailableError("Write failed");
  grpc::ByteBuffer reply;
  call->Read(&reply, reinterpret_cast<void*>(3));
  const bool read = step(3);
  call->WritesDone(reinterpret_cast<void*>(4));
  step(4);
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(5));
  step(5);
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  if (!status.ok()) return ToAbsl(status);
  if (!read) return absl::UnavailableError("no reflection response");
  std::vector<grpc::Slice> slices;
  if (!reply.Dump(&slices).ok()) return absl::InternalError("Dump failed");
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return bytes;
}

TEST_P(TransportTest, ReflectionNeedsNoTokenAndListsTheServices) {
  ASSERT_OK_AND_ASSIGN(const std::string bytes,
                       ReflectionListServices(server_->Channel()));
  EXPECT_THAT(bytes, HasSubstr("dpq.v1.BuyerService"));
  EXPECT_THAT(bytes, HasSubstr("dpq.v1.AdminService"));
}

TEST(TlsTest, PlaintextClientCannotTalkToATlsServer) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start(Transport::kTls));
  const std::string token = server->admin_token();
  EXPECT_THAT(
      ListBuyers(ChannelWith(*server, grpc::InsecureChannelCredentials()),
                 &token),
      StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

TEST(TlsTest, ClientRejectsAServerItsCaDidNotSign) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start(Transport::kTls));
  const std::string token = server->admin_token();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs =
      dpq::testing::ReadFileOrEmpty(GetTestCerts().dir + "/rogue-ca.pem");
  EXPECT_THAT(
      ListBuyers(ChannelWith(*server, grpc::SslCredentials(ssl)), &token),
      StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

TEST(TlsTest, MtlsRejectsClientsWithoutAGoodCertificate) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start(Transport::kMtls));
  const std::string token = server->admin_token();
  grpc::SslCredentialsOptions no_cert;
  no_cert.pem_root_certs = GetTestCerts().ca_pem;
  EXPECT_THAT(
      ListBuyers(ChannelWith(*server, grpc::SslCredentials(no_cert)), &token),
      StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  grpc::SslCredentialsOptions rogue = no_cert;
  rogue.pem_cert_chain = GetTestCerts().rogue_client_pem;
  rogue.pem_private_key = GetTestCerts().rogue_client_key;
  EXPECT_THAT(
      ListBuyers(ChannelWith(*server, grpc::SslCredentials(rogue)), &token),
      StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  // The fixture's good certificate works.
  EXPECT_OK(ListBuyers(server->Channel(), &token));
}

TEST(TlsTest, MtlsStillNeedsAToken) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start(Transport::kMtls));
  EXPECT_THAT(ListBuyers(server->Channel(), nullptr),
              StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
}

TEST(ShutdownTest, DrainsInFlightCallsAndRefusesNewOnes) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start());
  // An upload in flight: header sent, CSV not yet.
  grpc::ClientContext context;
  TestServer::Authorize(context, server->admin_token());
  v1::RegisterDatasetResponse response;
  auto stub = server->AdminStub();
  auto writer = stub->RegisterDataset(&context, &response);
  v1::RegisterDatasetRequest header;
  header.mutable_header()->mutable_manifest()->set_dataset_id("late");
  header.mutable_header()->mutable_manifest()->set_public_max_rows(10);
  header.mutable_header()->mutable_manifest()->set_infer_column_types(true);
  header.mutable_header()->mutable_manifest()->set_constraints("a -> b");
  ASSERT_TRUE(writer->Write(header));
  // Let the server start the call (Write returns once the bytes are queued).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  const auto started = std::chrono::steady_clock::now();
  std::thread shutdown([&server] {
    server->server().Shutdown(absl::Now() + absl::Seconds(20));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // New calls are refused while draining.
  const std::string token = server->admin_token();
  EXPECT_FALSE(ListBuyers(server->Channel(), &token).ok());
  // The in-flight call completes.
  v1::RegisterDatasetRequest chunk;
  chunk.set_csv_chunk("a,b\n1,2\n");
  ASSERT_TRUE(writer->Write(chunk));
  writer->WritesDone();
  EXPECT_OK(ToAbsl(writer->Finish()));
  EXPECT_EQ(response.stats().rows(), 1u);
  shutdown.join();
  // Shutdown returned once the call was done, long before its deadline.
  EXPECT_LT(std::chrono::steady_clock::now() - started,
            std::chrono::seconds(15));
}

TEST(ShutdownTest, HealthWatchSeesNotServing) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(20));
  HealthCheckRequest request;
  request.set_service("dpq.v1.BuyerService");
  auto stub = Health::NewStub(server->Channel());
  auto reader = stub->Watch(&context, request);
  HealthCheckResponse update;
  ASSERT_TRUE(reader->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVING);
  std::thread shutdown(
      [&server] { server->server().Shutdown(absl::Now() + absl::Seconds(1)); });
  ASSERT_TRUE(reader->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::NOT_SERVING);
  shutdown.join();
  context.TryCancel();
  reader->Finish().ok();
}

}  // namespace
}  // namespace dpq::server
