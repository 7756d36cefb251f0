// The ledger through the real server: retries, deadlines, the 32-client
// race, restart durability, kill -9 during a burst with reconciliation, and
// the SIGTERM drain.
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "google/protobuf/util/message_differencer.h"
#include "tests/integration/burst.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

class LedgerTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  }

  // A new buyer with `epsilon` granted on hospital; returns its token.
  std::string Buyer(const std::string& name, double epsilon) {
    return NewBuyer(name, "hospital", epsilon);
  }

  // Restarts the server on the same data directory (after it stopped).
  void Restart() {
    const std::string token_before = admin_token_;
    ASSERT_NO_FATAL_FAILURE(StartServer());
    EXPECT_EQ(admin_token_, token_before) << "admin token must survive";
    EXPECT_THAT(server_->Log(), Not(HasSubstr("created admin token")));
  }

  // Everything the admin sees of the ledger, for before/after comparisons.
  v1::ListLedgerResponse Snapshot() {
    v1::ListLedgerRequest request;
    request.set_limit(10000);
    v1::ListLedgerResponse response;
    auto context = Context(admin_token_);
    EXPECT_THAT(client_->admin(admin_token_)
                    .ListLedger(context.get(), request, &response),
                GrpcOk());
    return response;
  }
};

TEST_F(LedgerTest, RetryReturnsTheRecordedAnswerAndChargesNothing) {
  const std::string token = Buyer("rita", 2);
  v1::MeasureInconsistencyResponse first;
  ASSERT_THAT(
      client_->Measure(token, "hospital", v1::MEASURE_MI, 1, "retry-1", &first),
      GrpcOk());
  EXPECT_FALSE(first.replayed());
  for (int i = 0; i < 3; ++i) {
    v1::MeasureInconsistencyResponse again;
    ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 1,
                                 "retry-1", &again),
                GrpcOk());
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.result().value(), first.result().value());
    EXPECT_EQ(again.result().theta(), first.result().theta());
    EXPECT_EQ(again.result().bound95(), first.result().bound95());
    EXPECT_DOUBLE_EQ(again.epsilon_charged(), 0);
    EXPECT_DOUBLE_EQ(again.remaining_budget(), 1);
    EXPECT_EQ(again.request_id(), "retry-1");
  }
  // Reports replay too.
  v1::QualityReportRequest report;
  report.set_dataset_id("hospital");
  report.set_epsilon(0.6);
  report.set_request_id("retry-report");
  v1::QualityReportResponse r1, r2;
  auto context = Context(token);
  ASSERT_THAT(client_->buyer(token).QualityReport(context.get(), report, &r1),
              GrpcOk());
  context = Context(token);
  ASSERT_THAT(client_->buyer(token).QualityReport(context.get(), report, &r2),
              GrpcOk());
  EXPECT_TRUE(r2.replayed());
  EXPECT_DOUBLE_EQ(r2.epsilon_charged(), 0);
  ASSERT_THAT(r2.results(), SizeIs(3));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r1.results(i).value(), r2.results(i).value());
  }
  absl::StatusOr<v1::Budget> budget = client_->Budget(token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 1.6);
  EXPECT_NEAR(budget->remaining(), 0.4, 1e-12);
  // A replay works even when the budget is exhausted.
  ASSERT_THAT(client_->Grant(admin_token_, "rita", "hospital", 0.0001),
              GrpcOk());
  v1::MeasureInconsistencyResponse exhausted;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_R, 0.4,
                               "spend-rest", &exhausted),
              GrpcOk());
  v1::MeasureInconsistencyResponse replay;
  EXPECT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 1, "retry-1",
                               &replay),
              GrpcOk());
  EXPECT_EQ(replay.result().value(), first.result().value());
}

TEST_F(LedgerTest, TinyDeadlineIsDeadlineExceededAndLeavesNothingReserved) {
  const std::string token = Buyer("dora", 5);
  // Connect first, so that the deadlines expire at the server, not in the
  // TLS handshake.
  ASSERT_TRUE(client_->Budget(token, "hospital").ok());
  // Deadlines from 50 us (expires before or while the server works) to
  // 2 ms (may be met): each call either is answered or gets
  // DEADLINE_EXCEEDED.
  int exceeded = 0;
  int i = 0;
  for (int micros : {50, 100, 200, 500, 1000, 2000}) {
    v1::MeasureInconsistencyResponse r;
    const grpc::Status s = client_->Measure(
        token, "hospital", v1::MEASURE_R, 0.5, absl::StrCat("deadline-", i++),
        &r, std::chrono::microseconds(micros));
    if (s.error_code() == StatusCode::DEADLINE_EXCEEDED) {
      ++exceeded;
    } else {
      EXPECT_THAT(s, GrpcOk()) << micros << " us";
    }
  }
  EXPECT_GE(exceeded, 1) << "a 50 us deadline should expire";
  // Whatever the server did with them (it may still be working on a call
  // the client gave up on), nothing stays reserved: poll until two looks
  // 100 ms apart find no reservation, then every charge is a committed
  // entry.
  v1::Budget budget;
  std::vector<v1::LedgerEntry> entries;
  int quiet = 0;
  for (int attempt = 0; attempt < 100 && quiet < 2; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    absl::StatusOr<v1::Budget> b = client_->Budget(token, "hospital");
    absl::StatusOr<std::vector<v1::LedgerEntry>> e =
        client_->Ledger(admin_token_, "dora", "hospital");
    ASSERT_TRUE(b.ok() && e.ok());
    budget = *b;
    entries = *e;
    bool reserved = budget.reserved() != 0;
    for (const v1::LedgerEntry& entry : entries) {
      reserved |= entry.state() == v1::LEDGER_ENTRY_STATE_RESERVED;
    }
    quiet = reserved ? 0 : quiet + 1;
  }
  EXPECT_EQ(quiet, 2) << "a reservation stayed for 10 s";
  EXPECT_DOUBLE_EQ(budget.reserved(), 0);
  double committed = 0;
  for (const v1::LedgerEntry& e : entries) {
    EXPECT_NE(e.state(), v1::LEDGER_ENTRY_STATE_RESERVED) << e.request_id();
    if (e.state() == v1::LEDGER_ENTRY_STATE_COMMITTED) committed += e.epsilon();
  }
  EXPECT_DOUBLE_EQ(committed, budget.spent());
  // The buyer can go on: the budget left is usable.
  v1::MeasureInconsistencyResponse after;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 0.5,
                               "after-deadline", &after),
              GrpcOk());
}

// docs/security.md, item 8: entry ids were global, so a buyer's history (22,
// 24) revealed that another buyer had committed entry 23. Two buyers
// interleaving charges each see their own entries numbered 1, 2, 3, in their
// history and in the admin's ledger.
TEST_F(LedgerTest, InterleavedBuyersEachSeeEntriesOneTwoThree) {
  const std::string ann = Buyer("ann", 10);
  const std::string ben = Buyer("ben", 10);
  for (int i = 1; i <= 3; ++i) {
    for (const std::string* token : {&ann, &ben}) {
      v1::MeasureInconsistencyResponse r;
      ASSERT_THAT(client_->Measure(*token, "hospital", v1::MEASURE_R, 0.5,
                                   absl::StrCat("charge-", i), &r),
                  GrpcOk());
    }
  }
  // A refused request (over budget) takes no number.
  v1::MeasureInconsistencyResponse refused;
  ASSERT_THAT(client_->Measure(ann, "hospital", v1::MEASURE_R, 100, "too-much",
                               &refused),
              GrpcIs(StatusCode::RESOURCE_EXHAUSTED, _));

  auto history = [&](const std::string& token) {
    v1::GetBudgetRequest request;
    request.set_include_history(true);
    v1::GetBudgetResponse response;
    auto context = Context(token);
    EXPECT_THAT(
        client_->buyer(token).GetBudget(context.get(), request, &response),
        GrpcOk());
    std::vector<std::string> ids;
    for (const v1::LedgerEntry& e : response.history()) {
      ids.push_back(absl::StrCat(e.entry_id(), " ", e.request_id()));
    }
    return ids;
  };
  EXPECT_THAT(history(ann),
              ::testing::ElementsAre("3 charge-3", "2 charge-2", "1 charge-1"));
  EXPECT_THAT(history(ben),
              ::testing::ElementsAre("3 charge-3", "2 charge-2", "1 charge-1"));

  // The admin sees the same numbers: (buyer_id, entry_id) names an entry.
  std::vector<std::string> all;
  const v1::ListLedgerResponse snapshot = Snapshot();
  for (const v1::LedgerEntry& e : snapshot.entries()) {
    all.push_back(absl::StrCat(e.buyer_id(), "#", e.entry_id()));
  }
  EXPECT_THAT(all, ::testing::ElementsAre("ben#3", "ann#3", "ben#2", "ann#2",
                                          "ben#1", "ann#1"));
}

// 32 clients (separate connections) race for a budget of 5 with epsilon 1
// each: exactly 5 are answered.
TEST_F(LedgerTest, ThirtyTwoClientsRacingNeverOverspend) {
  const std::string token = Buyer("racer", 5);
  constexpr int kClients = 32;
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<Client>(
        TlsChannel(server_->address(), certs_.ca(), "", "",
                   /*own_connection=*/true)));
    // Connect before the race starts.
    ASSERT_TRUE(clients.back()->channel(token).WaitForConnected(
        std::chrono::system_clock::now() + std::chrono::seconds(20)));
  }
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<grpc::Status> statuses(kClients);
  std::vector<v1::MeasureInconsistencyResponse> responses(kClients);
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      ++ready;
      while (!go.load()) std::this_thread::yield();
      statuses[i] = clients[i]->Measure(
          token, "hospital", i % 2 == 0 ? v1::MEASURE_MI : v1::MEASURE_P, 1,
          absl::StrCat("race-", i), &responses[i]);
    });
  }
  while (ready.load() < kClients) std::this_thread::yield();
  go = true;
  for (std::thread& t : threads) t.join();

  int ok = 0;
  for (int i = 0; i < kClients; ++i) {
    if (statuses[i].ok()) {
      ++ok;
      EXPECT_DOUBLE_EQ(responses[i].epsilon_charged(), 1);
      EXPECT_GE(responses[i].remaining_budget(), 0);
    } else {
      EXPECT_THAT(statuses[i],
                  GrpcIs(StatusCode::RESOURCE_EXHAUSTED, HasSubstr("remain")))
          << "client " << i;
    }
  }
  EXPECT_EQ(ok, 5);
  absl::StatusOr<v1::Budget> budget = client_->Budget(token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 5);
  EXPECT_DOUBLE_EQ(budget->reserved(), 0);
  EXPECT_DOUBLE_EQ(budget->remaining(), 0);
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "racer", "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  int committed = 0;
  for (const v1::LedgerEntry& e : *entries) {
    committed += e.state() == v1::LEDGER_ENTRY_STATE_COMMITTED;
  }
  EXPECT_EQ(committed, 5);
}

TEST_F(LedgerTest, LedgerBudgetsAndAnswersSurviveARestart) {
  const std::string token = Buyer("sam", 3);
  v1::MeasureInconsistencyResponse first;
  ASSERT_THAT(
      client_->Measure(token, "hospital", v1::MEASURE_MI, 1, "dur-1", &first),
      GrpcOk());
  v1::MeasureInconsistencyResponse second;
  ASSERT_THAT(
      client_->Measure(token, "hospital", v1::MEASURE_R, 0.5, "dur-2", &second),
      GrpcOk());
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("hospital");
  cap.set_cap(10);
  v1::SetDatasetCapResponse cap_response;
  auto context = Context(admin_token_);
  ASSERT_THAT(client_->admin(admin_token_)
                  .SetDatasetCap(context.get(), cap, &cap_response),
              GrpcOk());
  const v1::ListLedgerResponse before = Snapshot();
  ASSERT_THAT(before.entries(), SizeIs(2));

  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(Restart());

  const v1::ListLedgerResponse after = Snapshot();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(before, after))
      << "before:\n"
      << before.DebugString() << "after:\n"
      << after.DebugString();
  // The buyer's token, the dataset and the cap are still there.
  absl::StatusOr<v1::Budget> budget = client_->Budget(token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 1.5);
  EXPECT_DOUBLE_EQ(budget->remaining(), 1.5);
  // The restart rebuilds the conflict graph in the background: poll until
  // it is ready (a few milliseconds for the demo data).
  v1::AdminListDatasetsResponse datasets;
  for (int attempt = 0; attempt < 600; ++attempt) {
    datasets.Clear();
    context = Context(admin_token_);
    ASSERT_THAT(
        client_->admin(admin_token_).ListDatasets(context.get(), {}, &datasets),
        GrpcOk());
    ASSERT_THAT(datasets.datasets(), SizeIs(1));
    if (datasets.datasets(0).stats().graph_ready()) break;
    absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_TRUE(datasets.datasets(0).stats().graph_ready());
  EXPECT_EQ(datasets.datasets(0).stats().edges(), kHospitalEdges);
  EXPECT_DOUBLE_EQ(datasets.datasets(0).cap(), 10);
  // Retries replay the answers recorded before the restart.
  v1::MeasureInconsistencyResponse replay;
  ASSERT_THAT(
      client_->Measure(token, "hospital", v1::MEASURE_MI, 1, "dur-1", &replay),
      GrpcOk());
  EXPECT_TRUE(replay.replayed());
  EXPECT_EQ(replay.result().value(), first.result().value());
  EXPECT_DOUBLE_EQ(replay.remaining_budget(), 1.5);
  ASSERT_THAT(
      client_->Measure(token, "hospital", v1::MEASURE_R, 0.5, "dur-2", &replay),
      GrpcOk());
  EXPECT_EQ(replay.result().value(), second.result().value());
  // The audit log survived too.
  v1::ListAuditLogResponse audit;
  context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListAuditLog(context.get(), {}, &audit),
      GrpcOk());
  EXPECT_GE(audit.entries_size(), 4);
}

TEST_F(LedgerTest, KillNineDuringABurstNeverLosesOrInventsACharge) {
  const std::string token = Buyer("burst", 100000);
  Burst burst;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads =
      StartBurst(server_->address(), certs_.ca(), token, 16, stop, burst);
  // Let the burst run until some answers are in, then kill -9 mid-flight.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard<std::mutex> lock(burst.mu);
      if (burst.answered.size() >= 40) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  server_->Kill();
  stop = true;
  for (std::thread& t : threads) t.join();
  ASSERT_GE(burst.answered.size(), 1u) << "no answer before the kill";
  EXPECT_GT(burst.sent.load(), static_cast<int>(burst.answered.size()))
      << "some requests should have been in flight at the kill";

  ASSERT_NO_FATAL_FAILURE(Restart());
  ASSERT_NO_FATAL_FAILURE(
      Reconcile(*client_, admin_token_, "burst", token, burst));
}

TEST_F(LedgerTest, SigtermDuringABurstDrainsAndExitsCleanly) {
  const std::string token = Buyer("drain", 100000);
  Burst burst;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads =
      StartBurst(server_->address(), certs_.ca(), token, 8, stop, burst);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard<std::mutex> lock(burst.mu);
      if (burst.answered.size() >= 20) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const int exit_code = server_->Terminate();
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(exit_code, 0) << "SIGTERM must drain and exit 0";

  ASSERT_NO_FATAL_FAILURE(Restart());
  ASSERT_NO_FATAL_FAILURE(
      Reconcile(*client_, admin_token_, "drain", token, burst));
  // A clean drain leaves nothing for recovery to refund... except requests
  // that arrived after the drain began, which were never reserved.
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "drain", "hospital");
  ASSERT_TRUE(entries.ok());
  for (const v1::LedgerEntry& e : *entries) {
    EXPECT_EQ(e.state(), v1::LEDGER_ENTRY_STATE_COMMITTED) << e.request_id();
  }
}

}  // namespace
}  // namespace dpq::integration
