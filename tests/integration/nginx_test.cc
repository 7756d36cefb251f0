// dpq-server behind Debian's nginx, configured from deploy/nginx/dpq.conf
// exactly as deploy/compose.yaml runs it (docs/operations.md): TLS from the
// client to nginx, grpcs:// from nginx to the server. nginx multiplexes the
// calls of every client over its own upstream connections, so these tests
// need per-call authentication: two buyers and the admin over one client
// connection, each call authorised as its own caller. Also: a large upload
// (nginx must not cap or buffer the stream) and health checks through nginx.
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "tests/integration/harness.h"
#include "tests/integration/nginx_proxy.h"

namespace dpq::integration {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using ::testing::StartsWith;

class NginxTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    absl::StatusOr<std::unique_ptr<NginxProxy>> proxy =
        NginxProxy::Start({server_->address()}, certs_);
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    nginx_ = *std::move(proxy);
    // ONE channel, hence one HTTP/2 connection to nginx, for every caller.
    channel_ = TlsChannel(nginx_->address(), certs_.ca());
    proxied_ = std::make_unique<Client>(channel_);
  }

  void TearDown() override {
    proxied_.reset();
    channel_.reset();
    // nginx first: its idle upstream connections would otherwise make the
    // server's graceful shutdown wait for them.
    if (nginx_ != nullptr && nginx_->running()) {
      const std::string log = nginx_->Log();
      EXPECT_EQ(nginx_->Stop(), 0) << "nginx did not stop cleanly:\n" << log;
    }
    ServerFixture::TearDown();
  }

  // The caller's own budgets and ledger history, through nginx.
  v1::GetBudgetResponse BudgetWithHistory(const std::string& token) {
    v1::GetBudgetRequest request;
    request.set_include_history(true);
    v1::GetBudgetResponse response;
    auto context = Context(token);
    EXPECT_THAT(
        proxied_->buyer(token).GetBudget(context.get(), request, &response),
        GrpcOk());
    return response;
  }

  // The distinct nginx client connections (conn= in the access log) of the
  // dpq.v1 calls that went through it.
  std::set<std::string> ClientConnectionsOfDpqCalls() const {
    std::set<std::string> connections;
    for (const std::string& line : nginx_->AccessLines("/dpq.v1.")) {
      const size_t at = line.find(" conn=");
      if (at == std::string::npos) continue;
      const size_t end = line.find(' ', at + 1);
      connections.insert(line.substr(at + 6, end - at - 6));
    }
    return connections;
  }

  std::unique_ptr<NginxProxy> nginx_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Client> proxied_;
};

// Two buyers and the admin alternate calls over one client connection to
// nginx (which spreads them over its own upstream connections): every call
// is authorised as its own caller, each buyer sees only her budgets and
// entries, and a buyer never inherits the admin's role.
TEST_F(NginxTest, TwoBuyersAndTheAdminShareOneConnection) {
  ASSERT_THAT(proxied_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  absl::StatusOr<std::string> alice =
      proxied_->CreateBuyer(admin_token_, "alice");
  ASSERT_TRUE(alice.ok()) << alice.status();
  absl::StatusOr<std::string> bob = proxied_->CreateBuyer(admin_token_, "bob");
  ASSERT_TRUE(bob.ok()) << bob.status();
  ASSERT_THAT(proxied_->Grant(admin_token_, "alice", "hospital", 3), GrpcOk());
  ASSERT_THAT(proxied_->Grant(admin_token_, "bob", "hospital", 2), GrpcOk());

  constexpr int kRounds = 4;
  for (int round = 1; round <= kRounds; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    v1::MeasureInconsistencyResponse a;
    ASSERT_THAT(proxied_->Measure(*alice, "hospital", v1::MEASURE_MI, 0.25,
                                  absl::StrCat("alice-", round), &a),
                GrpcOk());
    EXPECT_THAT(a.remaining_budget(), DoubleNear(3 - 0.25 * round, 1e-9));

    // The admin, between the buyers' calls.
    v1::ListBuyersRequest list;
    v1::ListBuyersResponse buyers;
    auto admin_context = Context(admin_token_);
    ASSERT_THAT(proxied_->admin(admin_token_)
                    .ListBuyers(admin_context.get(), list, &buyers),
                GrpcOk());
    EXPECT_THAT(buyers.buyers(), SizeIs(2));

    v1::MeasureInconsistencyResponse b;
    ASSERT_THAT(proxied_->Measure(*bob, "hospital", v1::MEASURE_P, 0.5,
                                  absl::StrCat("bob-", round), &b),
                GrpcOk());
    EXPECT_THAT(b.remaining_budget(), DoubleNear(2 - 0.5 * round, 1e-9));

    // Each buyer sees her own budget and entries only.
    const v1::GetBudgetResponse alice_view = BudgetWithHistory(*alice);
    ASSERT_THAT(alice_view.budgets(), SizeIs(1));
    EXPECT_EQ(alice_view.budgets(0).buyer_id(), "alice");
    EXPECT_THAT(alice_view.budgets(0).spent(), DoubleNear(0.25 * round, 1e-9));
    EXPECT_THAT(alice_view.history(), SizeIs(round));
    for (const v1::LedgerEntry& e : alice_view.history()) {
      EXPECT_EQ(e.buyer_id(), "alice");
      EXPECT_THAT(e.request_id(), StartsWith("alice-"));
    }
    const v1::GetBudgetResponse bob_view = BudgetWithHistory(*bob);
    ASSERT_THAT(bob_view.budgets(), SizeIs(1));
    EXPECT_EQ(bob_view.budgets(0).buyer_id(), "bob");
    EXPECT_THAT(bob_view.budgets(0).granted(), DoubleNear(2, 1e-9));
    EXPECT_THAT(bob_view.budgets(0).spent(), DoubleNear(0.5 * round, 1e-9));
    for (const v1::LedgerEntry& e : bob_view.history()) {
      EXPECT_THAT(e.request_id(), StartsWith("bob-"));
    }

    // Right after the admin's calls, a buyer is still only a buyer, and a
    // call without a token is nobody.
    auto bob_as_admin = Context(*bob);
    v1::ListBuyersResponse refused;
    EXPECT_THAT(
        proxied_->admin(*bob).ListBuyers(bob_as_admin.get(), list, &refused),
        GrpcIs(grpc::StatusCode::PERMISSION_DENIED, ::testing::_));
    v1::GetBudgetRequest anonymous_request;
    v1::GetBudgetResponse anonymous;
    auto no_token = Context("");
    EXPECT_THAT(proxied_->buyer("").GetBudget(no_token.get(), anonymous_request,
                                              &anonymous),
                GrpcIs(grpc::StatusCode::UNAUTHENTICATED, ::testing::_));
  }

  // The admin's view: both buyers' entries, each charged once.
  absl::StatusOr<std::vector<v1::LedgerEntry>> ledger =
      proxied_->Ledger(admin_token_, "", "hospital");
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  int alice_entries = 0;
  int bob_entries = 0;
  for (const v1::LedgerEntry& e : *ledger) {
    if (e.buyer_id() == "alice") ++alice_entries;
    if (e.buyer_id() == "bob") ++bob_entries;
  }
  EXPECT_EQ(alice_entries, kRounds);
  EXPECT_EQ(bob_entries, kRounds);

  // Every dpq.v1 call above went through nginx, on one client connection.
  EXPECT_GE(nginx_->AccessLines("/dpq.v1.").size(), 5u + 7u * kRounds)
      << nginx_->Log();
  EXPECT_THAT(ClientConnectionsOfDpqCalls(), SizeIs(1)) << nginx_->Log();
}

// A CSV upload of several MiB streams through nginx (its default
// client_max_body_size of 1 MiB would refuse it; deploy/nginx/dpq.conf
// leaves the limit to the server).
TEST_F(NginxTest, LargeUploadStreamsThroughNginx) {
  std::string csv = "id,region,value\n";
  constexpr int kRows = 220000;
  for (int i = 0; i < kRows; ++i) {
    absl::StrAppend(&csv, i, ",region-", i % 50, ",", (i * 7919) % 100000,
                    "\n");
  }
  ASSERT_GT(csv.size(), 4u << 20);
  v1::DatasetManifest manifest;
  manifest.set_dataset_id("big");
  manifest.set_description("a large upload through nginx");
  // ids are unique: no conflicts, so the graph build is quick.
  manifest.set_constraints("t1&t2&EQ(t1.id,t2.id)&IQ(t1.value,t2.value)\n");
  manifest.set_public_max_rows(300000);
  manifest.set_infer_column_types(true);
  v1::RegisterDatasetResponse response;
  ASSERT_THAT(proxied_->Register(admin_token_, manifest, csv, &response,
                                 /*chunk_bytes=*/256 * 1024),
              GrpcOk());
  EXPECT_EQ(response.stats().rows(), static_cast<uint64_t>(kRows));
  EXPECT_EQ(response.stats().csv_bytes(), csv.size());
  EXPECT_EQ(response.stats().edges(), 0u);

  const std::vector<std::string> lines =
      nginx_->AccessLines("/dpq.v1.AdminService/RegisterDataset");
  ASSERT_THAT(lines, SizeIs(1)) << nginx_->Log();
  EXPECT_THAT(lines[0], HasSubstr("grpc=0"));
}

// gRPC health through nginx: the standard Check and `dpq health` (the
// image's HEALTHCHECK command) report SERVING; with the server gone,
// nginx answers UNAVAILABLE in gRPC's own terms (deploy/nginx/dpq.conf's
// @dpq_unavailable) and `dpq health` fails.
TEST_F(NginxTest, HealthChecksGoThroughNginx) {
  for (const char* service :
       {"", "dpq.v1.BuyerService", "dpq.v1.AdminService"}) {
    grpc::Status call;
    EXPECT_EQ(CheckHealth(channel_, service, &call),
              grpc::health::v1::HealthCheckResponse::SERVING)
        << "service '" << service << "': " << Describe(call);
  }
  const std::vector<std::string> dpq_health = {kClientBinary,     "--server",
                                               nginx_->address(), "--ca",
                                               certs_.ca(),       "health"};
  const CommandResult up = RunCommand(dpq_health, {{"-DPQ_TOKEN", ""}});
  EXPECT_EQ(up.exit_code, 0) << up.err;
  EXPECT_THAT(up.out, HasSubstr("SERVING"));
  EXPECT_THAT(nginx_->AccessLines("/grpc.health.v1.Health/Check"), SizeIs(4));

  ASSERT_EQ(StopServer(), 0);
  grpc::Status down;
  CheckHealth(channel_, "", &down);
  EXPECT_FALSE(down.ok());
  EXPECT_THAT(down, GrpcIs(grpc::StatusCode::UNAVAILABLE,
                           HasSubstr("no dpq-server replica is reachable")));
  const CommandResult after = RunCommand(dpq_health, {{"-DPQ_TOKEN", ""}});
  EXPECT_NE(after.exit_code, 0) << after.out;
  EXPECT_THAT(after.err, HasSubstr("UNAVAILABLE"));
}

}  // namespace
}  // namespace dpq::integration
