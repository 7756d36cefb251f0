// Races on the ledger: no overspend however many threads (or connections)
// charge one budget at once, and different buyers never wait for each
// other's computations. Runs against every store (ledger_store_suites.h).
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "core/ledger/charged_release.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/core/ledger/test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::ledger {
namespace {

using ::dpq::core::ledger::testing::Filter;
using ::dpq::core::ledger::testing::LedgerConcurrencyTest;

ReserveRequest Request(const std::string& buyer, const std::string& request_id,
                       double epsilon) {
  ReserveRequest request;
  request.buyer_id = buyer;
  request.dataset_id = "hospital";
  request.request_id = request_id;
  request.fingerprint = "fp " + request_id;
  request.operation = "MeasureInconsistency MI optimized";
  request.neighbouring = "tuple";
  // Quantised to whole ledger units, as the service does.
  request.epsilon = QuantizedEpsilon(epsilon);
  return request;
}

// Exact units of an amount the store reported.
int64_t Units(double amount) { return *AmountUnits(amount, "amount"); }

struct RaceResult {
  int commits = 0;
  int exhausted = 0;
  int other_errors = 0;
};

// `threads` threads charge `epsilon` to (buyer, "hospital") through the
// stores (round robin) until refused, while one more thread watches that
// spent + reserved never exceeds granted.
RaceResult Race(const std::vector<LedgerStore*>& stores,
                const std::string& buyer, int threads, double epsilon,
                double granted) {
  std::atomic<int> commits{0}, exhausted{0}, other_errors{0};
  std::atomic<bool> done{false};
  std::atomic<int> violations{0};
  std::thread watcher([&] {
    while (!done.load()) {
      absl::StatusOr<BudgetState> budget =
          stores[0]->GetBudget(buyer, "hospital");
      // Exact: no tolerance.
      if (!budget.ok() ||
          Units(budget->spent) + Units(budget->reserved) > Units(granted)) {
        ++violations;
      }
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      LedgerStore* store = stores[t % stores.size()];
      for (int i = 0;; ++i) {
        absl::StatusOr<Reservation> r =
            store->Reserve(Request(buyer, absl::StrCat(t, "-", i), epsilon));
        if (!r.ok()) {
          if (r.status().code() == absl::StatusCode::kResourceExhausted) {
            ++exhausted;
          } else {
            ADD_FAILURE() << r.status();
            ++other_errors;
          }
          return;
        }
        const absl::Status commit =
            store->Commit(*r->entry_id, absl::StrCat("answer ", t, "-", i));
        if (commit.ok()) {
          ++commits;
        } else {
          ADD_FAILURE() << commit;
          ++other_errors;
        }
      }
    });
  }
  for (std::thread& w : workers) w.join();
  done = true;
  watcher.join();
  EXPECT_EQ(violations.load(), 0);
  return {commits.load(), exhausted.load(), other_errors.load()};
}

TEST_P(LedgerConcurrencyTest, SixtyFourThreadsNeverOverspendOneBudget) {
  LedgerStore* store = store_.get();
  ASSERT_OK(store->Grant("alice", "hospital", 10).status());
  const RaceResult result = Race({store}, "alice", 64, 1.0, 10);
  EXPECT_EQ(result.commits, 10);
  EXPECT_EQ(result.exhausted, 64);
  EXPECT_EQ(result.other_errors, 0);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 10);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_THAT(store->ListEntries(Filter("", "", 1000)),
              ::dpq::testing::IsOkAndHolds(::testing::SizeIs(10)));
}

TEST_P(LedgerConcurrencyTest, FractionalEpsilonsRaceToExactlyTheBudget) {
  LedgerStore* store = store_.get();
  ASSERT_OK(store->Grant("alice", "hospital", 3).status());
  // 3 / 0.1 = 30 releases; the exact sums neither lose one nor allow a
  // 31st.
  const RaceResult result = Race({store}, "alice", 40, 0.1, 3);
  EXPECT_EQ(result.commits, 30);
  EXPECT_EQ(result.other_errors, 0);
}

TEST_P(LedgerConcurrencyTest, TwoConnectionsToOneFileNeverOverspend) {
  // As two server processes sharing one ledger would.
  LedgerStore* first = store_.get();
  std::unique_ptr<LedgerStore> second = OpenAnother();
  ASSERT_NE(second, nullptr);
  ASSERT_OK(first->Grant("alice", "hospital", 12).status());
  const RaceResult result = Race({first, second.get()}, "alice", 32, 1.0, 12);
  EXPECT_EQ(result.commits, 12);
  EXPECT_EQ(result.other_errors, 0);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       second->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 12);
}

TEST_P(LedgerConcurrencyTest, RacingRetriesOfOneRequestChargeOnce) {
  LedgerStore* store = store_.get();
  ASSERT_OK(store->Grant("alice", "hospital", 100).status());
  std::atomic<int> computed{0}, replayed{0}, aborted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 32; ++t) {
    threads.emplace_back([&] {
      while (true) {
        absl::StatusOr<ReleaseOutcome> outcome =
            RunChargedRelease(*store, Request("alice", "same-id", 1),
                              [&]() -> absl::StatusOr<std::string> {
                                ++computed;
                                absl::SleepFor(absl::Milliseconds(20));
                                return std::string("the one answer");
                              });
        if (outcome.ok()) {
          EXPECT_EQ(outcome->answer, "the one answer");
          if (outcome->replayed) ++replayed;
          return;
        }
        // The first call is still computing: retry later, as a client does.
        EXPECT_EQ(outcome.status().code(), absl::StatusCode::kAborted)
            << outcome.status();
        if (outcome.status().code() != absl::StatusCode::kAborted) return;
        ++aborted;
        absl::SleepFor(absl::Milliseconds(5));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(computed.load(), 1);
  EXPECT_EQ(replayed.load(), 31);
  EXPECT_GT(aborted.load(), 0);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 1);
}

TEST_P(LedgerConcurrencyTest, DifferentBuyersRaceIndependently) {
  LedgerStore* store = store_.get();
  constexpr int kBuyers = 8;
  for (int b = 0; b < kBuyers; ++b) {
    ASSERT_OK(
        store->Grant(absl::StrCat("buyer", b), "hospital", b + 1).status());
  }
  std::vector<RaceResult> results(kBuyers);
  std::vector<std::thread> buyers;
  for (int b = 0; b < kBuyers; ++b) {
    buyers.emplace_back([&, b] {
      results[b] = Race({store}, absl::StrCat("buyer", b), 4, 1.0, b + 1);
    });
  }
  for (std::thread& t : buyers) t.join();
  for (int b = 0; b < kBuyers; ++b) {
    EXPECT_EQ(results[b].commits, b + 1) << "buyer" << b;
    EXPECT_EQ(results[b].other_errors, 0) << "buyer" << b;
  }
}

TEST_P(LedgerConcurrencyTest, ComputationsOfDifferentBuyersRunAtTheSameTime) {
  // Each computation waits until the other has started: this finishes only
  // if no ledger lock is held between Reserve and Commit.
  LedgerStore* store = store_.get();
  ASSERT_OK(store->Grant("alice", "hospital", 1).status());
  ASSERT_OK(store->Grant("bob", "hospital", 1).status());
  absl::Notification alice_computing, bob_computing;
  auto run = [&](const std::string& buyer, absl::Notification& mine,
                 absl::Notification& theirs) {
    return RunChargedRelease(
        *store, Request(buyer, "r", 1), [&]() -> absl::StatusOr<std::string> {
          mine.Notify();
          if (!theirs.WaitForNotificationWithTimeout(absl::Seconds(10))) {
            return absl::DeadlineExceededError("the other buyer waited");
          }
          return std::string("answer");
        });
  };
  absl::StatusOr<ReleaseOutcome> alice, bob;
  std::thread a([&] { alice = run("alice", alice_computing, bob_computing); });
  std::thread b([&] { bob = run("bob", bob_computing, alice_computing); });
  a.join();
  b.join();
  EXPECT_OK(alice.status());
  EXPECT_OK(bob.status());
}

}  // namespace
}  // namespace dpq::core::ledger
