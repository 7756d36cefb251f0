// Per-call authentication through the real server (docs/security.md,
// threat model): two buyers and the admin over ONE client connection, as an
// L7 proxy or a service acting for many buyers sends them, each call
// authorised as its own caller, concurrently; a buyer revoked on that
// connection is refused on its next call while the others continue.
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kAliceGrant = 3;
constexpr double kBobGrant = 5;
constexpr double kMeasureEpsilon = 0.05;
constexpr int kThreads = 6;
constexpr int kCallsPerThread = 24;

// ESTABLISHED TCP connections in this network namespace whose remote port
// is `port` (the client ends of connections to a server on it), read from
// /proc/net/tcp and /proc/net/tcp6.
int ConnectionsTo(int port) {
  int count = 0;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      // sl local_address rem_address st ...; addresses are HEX_IP:HEX_PORT.
      std::vector<std::string> fields =
          absl::StrSplit(line, ' ', absl::SkipEmpty());
      if (fields.size() < 4 || fields[3] != "01") continue;  // ESTABLISHED
      const std::string::size_type colon = fields[2].rfind(':');
      int remote_port = 0;
      if (colon != std::string::npos &&
          std::sscanf(fields[2].c_str() + colon + 1, "%x", &remote_port) == 1 &&
          remote_port == port) {
        ++count;
      }
    }
  }
  return count;
}

int PortOf(const std::string& address) {
  int port = 0;
  const std::string::size_type colon = address.rfind(':');
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(address.substr(colon + 1), &port)) {
    return 0;
  }
  return port;
}

class SharedConnectionTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    alice_ = NewBuyer("alice", "hospital", kAliceGrant);
    bob_ = NewBuyer("bob", "hospital", kBobGrant);
    ASSERT_FALSE(alice_.empty());
    ASSERT_FALSE(bob_.empty());
    // Every call below goes over this one channel, which never shares its
    // connection with another channel.
    shared_ = std::make_unique<Client>(TlsChannel(
        server_->address(), certs_.ca(), "", "", /*own_connection=*/true));
    // The fixture's own per-token connections are closed, so that the
    // connection count below is the shared channel's alone.
    client_.reset();
  }

  void TearDown() override {
    shared_.reset();
    ServerFixture::TearDown();
  }

  // The caller's budgets, sorted by dataset; fails the test on an error.
  std::vector<v1::Budget> Budgets(const std::string& token) {
    v1::GetBudgetResponse response;
    auto context = Context(token);
    const grpc::Status s =
        shared_->buyer(token).GetBudget(context.get(), {}, &response);
    EXPECT_THAT(s, GrpcOk());
    return {response.budgets().begin(), response.budgets().end()};
  }

  // Expects `token`'s budgets to be exactly its own grant on hospital.
  void ExpectOwnBudget(const std::string& token, const std::string& buyer,
                       double granted) {
    const std::vector<v1::Budget> budgets = Budgets(token);
    ASSERT_EQ(budgets.size(), 1u) << buyer;
    EXPECT_EQ(budgets[0].buyer_id(), buyer);
    EXPECT_EQ(budgets[0].dataset_id(), "hospital");
    EXPECT_EQ(budgets[0].granted(), granted) << buyer;
  }

  grpc::Status ListBuyers(const std::string& token,
                          v1::ListBuyersResponse* response) {
    auto context = Context(token);
    return shared_->admin(token).ListBuyers(context.get(), {}, response);
  }

  grpc::Status Measure(const std::string& token, const std::string& id) {
    v1::MeasureInconsistencyResponse response;
    return shared_->Measure(token, "hospital", v1::MEASURE_MI, kMeasureEpsilon,
                            id, &response);
  }

  std::string alice_, bob_;
  std::unique_ptr<Client> shared_;
};

TEST_F(SharedConnectionTest, EveryCallIsAuthorisedAsItsOwnCaller) {
  std::atomic<int> alice_measures{0}, bob_measures{0}, calls{0};
  // Each thread cycles through the callers, starting at a different one,
  // so that calls of all three are in flight on the connection at once.
  const std::vector<std::function<void(int, int)>> ops = {
      [&](int, int) { ExpectOwnBudget(alice_, "alice", kAliceGrant); },
      [&](int, int) { ExpectOwnBudget(bob_, "bob", kBobGrant); },
      [&](int, int) {
        v1::ListBuyersResponse response;
        EXPECT_THAT(ListBuyers(admin_token_, &response), GrpcOk());
        EXPECT_EQ(response.buyers_size(), 2);
      },
      [&](int, int) {
        v1::ListBuyersResponse response;
        EXPECT_THAT(ListBuyers(alice_, &response),
                    GrpcIs(StatusCode::PERMISSION_DENIED,
                           HasSubstr("Buyer 'alice' may not call admin")));
        EXPECT_EQ(response.buyers_size(), 0);
      },
      [&](int t, int i) {
        EXPECT_THAT(Measure(alice_, absl::StrCat("a-", t, "-", i)), GrpcOk());
        ++alice_measures;
      },
      [&](int, int) {
        v1::ListBuyersResponse response;
        EXPECT_THAT(ListBuyers(bob_, &response),
                    GrpcIs(StatusCode::PERMISSION_DENIED,
                           HasSubstr("Buyer 'bob' may not call admin")));
      },
      [&](int t, int i) {
        EXPECT_THAT(Measure(bob_, absl::StrCat("b-", t, "-", i)), GrpcOk());
        ++bob_measures;
      },
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCallsPerThread; ++i) {
        ops[(t + i) % ops.size()](t, i);
        ++calls;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(calls.load(), kThreads * kCallsPerThread);
  EXPECT_EQ(ConnectionsTo(PortOf(server_->address())), 1)
      << "the calls did not share one connection";

  // Each measure was charged to its caller, and only to it.
  const std::vector<v1::Budget> alice = Budgets(alice_);
  const std::vector<v1::Budget> bob = Budgets(bob_);
  ASSERT_EQ(alice.size(), 1u);
  ASSERT_EQ(bob.size(), 1u);
  EXPECT_NEAR(alice[0].spent(), alice_measures.load() * kMeasureEpsilon, 1e-9);
  EXPECT_NEAR(bob[0].spent(), bob_measures.load() * kMeasureEpsilon, 1e-9);
  EXPECT_GT(alice_measures.load(), 0);
  EXPECT_GT(bob_measures.load(), 0);
}

TEST_F(SharedConnectionTest, ARevokedBuyerIsRefusedOnItsNextCallOthersGoOn) {
  ExpectOwnBudget(bob_, "bob", kBobGrant);
  v1::RevokeBuyerRequest revoke;
  revoke.set_buyer_id("bob");
  v1::RevokeBuyerResponse revoked;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      shared_->admin(admin_token_).RevokeBuyer(context.get(), revoke, &revoked),
      GrpcOk());

  // Bob's very next call on the shared connection is refused...
  v1::GetBudgetResponse budget;
  auto next = Context(bob_);
  EXPECT_THAT(shared_->buyer(bob_).GetBudget(next.get(), {}, &budget),
              GrpcIs(StatusCode::UNAUTHENTICATED,
                     HasSubstr("Unknown or revoked bearer token")));
  EXPECT_EQ(budget.budgets_size(), 0);

  // ...and so is every later one, interleaved with alice's and the admin's,
  // which go on as before.
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCallsPerThread / 2; ++i) {
        switch ((t + i) % 3) {
          case 0:
            ExpectOwnBudget(alice_, "alice", kAliceGrant);
            break;
          case 1: {
            EXPECT_THAT(Measure(bob_, absl::StrCat("r-", t, "-", i)),
                        GrpcIs(StatusCode::UNAUTHENTICATED,
                               HasSubstr("Unknown or revoked")));
            ++refused;
            break;
          }
          default: {
            v1::ListBuyersResponse response;
            EXPECT_THAT(ListBuyers(admin_token_, &response), GrpcOk());
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_GT(refused.load(), 0);
  EXPECT_EQ(ConnectionsTo(PortOf(server_->address())), 1);
  // Nothing was charged to bob after the revocation.
  v1::ListLedgerRequest request;
  request.set_buyer_id("bob");
  v1::ListLedgerResponse ledger;
  auto list = Context(admin_token_);
  ASSERT_THAT(
      shared_->admin(admin_token_).ListLedger(list.get(), request, &ledger),
      GrpcOk());
  EXPECT_EQ(ledger.entries_size(), 0);

  // The refused calls were logged as calls of nobody ("-"), and no log
  // line holds any token.
  const std::string log = server_->Log();
  EXPECT_THAT(log, HasSubstr("rpc=BuyerService.MeasureInconsistency "
                             "principal=- dataset=hospital"));
  for (const std::string* token : {&alice_, &bob_, &admin_token_}) {
    EXPECT_THAT(log, Not(HasSubstr(token->substr(4, 16))));
  }
}

}  // namespace
}  // namespace dpq::integration
