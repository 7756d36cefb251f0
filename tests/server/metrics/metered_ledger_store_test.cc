#include "server/metrics/metered_ledger_store.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/ledger/ledger.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/core/ledger/test_util.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::metrics {
namespace {

using ::dpq::core::ledger::LedgerStore;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::testing::ChargedReleaseTest;
using ::dpq::core::ledger::testing::LedgerConcurrencyTest;
using ::dpq::core::ledger::testing::LedgerStoreHarness;
using ::dpq::core::ledger::testing::LedgerStoreParam;
using ::dpq::core::ledger::testing::LedgerStoreTest;
using ::dpq::core::ledger::testing::Request;
using ::dpq::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

ServerMetrics& SuiteMetrics() {
  static ServerMetrics* const metrics =
      new ServerMetrics("test", absl::UnixEpoch());
  return *metrics;
}

// The wrapper changes no answer of the store: the store-agnostic suites
// pass through it.
class MeteredSqliteHarness final : public LedgerStoreHarness {
 public:
  absl::StatusOr<std::unique_ptr<LedgerStore>> Open() override {
    absl::StatusOr<std::unique_ptr<storage::SqliteLedgerStore>> inner =
        storage::SqliteLedgerStore::Open(dir_.Sub("ledger.db"));
    if (!inner.ok()) return inner.status();
    return std::make_unique<MeteredLedgerStore>(std::move(*inner), "sqlite",
                                                &SuiteMetrics());
  }

 private:
  TempDir dir_;
};

std::unique_ptr<LedgerStoreHarness> MakeHarness() {
  return std::make_unique<MeteredSqliteHarness>();
}
LedgerStoreParam MeteredParam() { return {"MeteredSqlite", &MakeHarness}; }

INSTANTIATE_TEST_SUITE_P(Metered, LedgerStoreTest,
                         ::testing::Values(MeteredParam()));
INSTANTIATE_TEST_SUITE_P(Metered, ChargedReleaseTest,
                         ::testing::Values(MeteredParam()));
INSTANTIATE_TEST_SUITE_P(Metered, LedgerConcurrencyTest,
                         ::testing::Values(MeteredParam()));

class MeteredLedgerStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<storage::SqliteLedgerStore>> inner =
        storage::SqliteLedgerStore::Open(dir_.Sub("ledger.db"));
    ASSERT_TRUE(inner.ok()) << inner.status();
    store_ = std::make_unique<MeteredLedgerStore>(std::move(*inner), "sqlite",
                                                  &metrics_);
    ASSERT_TRUE(store_->Grant("alice", "hospital", 10).ok());
    ASSERT_TRUE(store_->Grant("bob", "hospital", 10).ok());
    ASSERT_TRUE(store_->Grant("alice", "stock", 10).ok());
  }

  TempDir dir_;
  ServerMetrics metrics_{"test", absl::UnixEpoch()};
  std::unique_ptr<MeteredLedgerStore> store_;
};

TEST_F(MeteredLedgerStoreTest, CountsFreshChargesPerDatasetExactly) {
  // Two buyers on one dataset add up; 0.1 + 0.2 is 0.3 exactly.
  absl::StatusOr<Reservation> a = store_->Reserve(Request("r1", 0.1));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(store_->Commit(*a->entry_id, "answer").ok());
  absl::StatusOr<Reservation> b =
      store_->Reserve(Request("r1", 0.2, "bob", "hospital"));
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_TRUE(store_->ChargeWithoutAnswer(*b->entry_id).ok());
  absl::StatusOr<Reservation> c =
      store_->Reserve(Request("r2", 1.5, "alice", "stock"));
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(store_->Commit(*c->entry_id, "answer").ok());

  // A replay of a committed request and a resumed retry charge nothing.
  absl::StatusOr<Reservation> replay = store_->Reserve(Request("r1", 0.1));
  ASSERT_TRUE(replay.ok());
  ASSERT_TRUE(replay->recorded_answer.has_value());
  absl::StatusOr<Reservation> resumed =
      store_->Reserve(Request("r1", 0.2, "bob", "hospital"));
  ASSERT_TRUE(resumed.ok());
  ASSERT_TRUE(resumed->resumed);
  ASSERT_TRUE(store_->Commit(*resumed->entry_id, "late answer").ok());
  // A refused reservation charges nothing.
  EXPECT_FALSE(store_->Reserve(Request("r9", 20)).ok());

  const std::string text = metrics_.Render();
  EXPECT_THAT(
      text, HasSubstr("dpq_epsilon_charged_total{dataset=\"hospital\"} 0.3\n"));
  EXPECT_THAT(text,
              HasSubstr("dpq_epsilon_charged_total{dataset=\"stock\"} 1.5\n"));
  EXPECT_THAT(text, Not(HasSubstr("dpq_epsilon_refunded_total{")));
  EXPECT_THAT(text, Not(HasSubstr("alice")));
  EXPECT_THAT(text, Not(HasSubstr("bob")));
  // Reserve: 3 fresh + 2 retries + 1 refused; commit: 3; charge: 1.
  EXPECT_THAT(text, HasSubstr("dpq_ledger_commit_duration_seconds_count{"
                              "operation=\"reserve\",store=\"sqlite\"} 6\n"));
  EXPECT_THAT(text, HasSubstr("dpq_ledger_commit_duration_seconds_count{"
                              "operation=\"commit\",store=\"sqlite\"} 3\n"));
  EXPECT_THAT(text,
              HasSubstr("dpq_ledger_commit_duration_seconds_count{operation="
                        "\"charge_without_answer\",store=\"sqlite\"} 1\n"));
  EXPECT_EQ(store_->pending(), 0u);
}

TEST_F(MeteredLedgerStoreTest, CountsRefundsOnTheirDataset) {
  absl::StatusOr<Reservation> a = store_->Reserve(Request("r1", 0.25));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(store_->pending(), 1u);
  ASSERT_TRUE(store_->Refund(*a->entry_id).ok());
  EXPECT_EQ(store_->pending(), 0u);
  const std::string text = metrics_.Render();
  EXPECT_THAT(
      text,
      HasSubstr("dpq_epsilon_charged_total{dataset=\"hospital\"} 0.25\n"));
  EXPECT_THAT(
      text,
      HasSubstr("dpq_epsilon_refunded_total{dataset=\"hospital\"} 0.25\n"));
  EXPECT_THAT(text, HasSubstr("dpq_ledger_commit_duration_seconds_count{"
                              "operation=\"refund\",store=\"sqlite\"} 1\n"));
}

}  // namespace
}  // namespace dpq::server::metrics
