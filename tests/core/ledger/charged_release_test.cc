#include "core/ledger/charged_release.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"
#include "core/ledger/settling_ledger_store.h"
#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::ledger {
namespace {

using ::dpq::core::ledger::testing::ChargedReleaseTest;
using ::dpq::testing::StatusIs;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::SizeIs;

// Forwards to a real store, failing Commit, ChargeWithoutAnswer or Refund
// on demand.
class FaultyLedger final : public LedgerStore {
 public:
  explicit FaultyLedger(LedgerStore* inner) : inner_(inner) {}

  absl::Status commit_error = absl::OkStatus();
  absl::Status refund_error = absl::OkStatus();
  absl::Status charge_error = absl::OkStatus();
  int commits = 0;
  int refunds = 0;
  int charges = 0;

  absl::StatusOr<BudgetState> Grant(const std::string& b, const std::string& d,
                                    double e) override {
    return inner_->Grant(b, d, e);
  }
  absl::StatusOr<BudgetState> SetGranted(const std::string& b,
                                         const std::string& d,
                                         double g) override {
    return inner_->SetGranted(b, d, g);
  }
  absl::Status SetDatasetCap(const std::string& d, double c) override {
    return inner_->SetDatasetCap(d, c);
  }
  absl::StatusOr<DatasetTotals> GetDatasetTotals(
      const std::string& d) override {
    return inner_->GetDatasetTotals(d);
  }
  absl::StatusOr<BudgetState> GetBudget(const std::string& b,
                                        const std::string& d) override {
    return inner_->GetBudget(b, d);
  }
  absl::StatusOr<std::vector<BudgetState>> ListBudgets(
      const LedgerFilter& f) override {
    return inner_->ListBudgets(f);
  }
  absl::StatusOr<Reservation> Reserve(const ReserveRequest& r) override {
    return inner_->Reserve(r);
  }
  absl::Status Commit(int64_t id, const std::string& answer) override {
    ++commits;
    if (!commit_error.ok()) return commit_error;
    return inner_->Commit(id, answer);
  }
  absl::Status ChargeWithoutAnswer(int64_t id) override {
    ++charges;
    if (!charge_error.ok()) return charge_error;
    return inner_->ChargeWithoutAnswer(id);
  }
  absl::Status Refund(int64_t id) override {
    ++refunds;
    if (!refund_error.ok()) return refund_error;
    return inner_->Refund(id);
  }
  absl::StatusOr<int64_t> RecoverPending() override {
    return inner_->RecoverPending();
  }
  absl::StatusOr<std::vector<LedgerEntry>> ListEntries(
      const LedgerFilter& f) override {
    return inner_->ListEntries(f);
  }

 private:
  LedgerStore* inner_;
};

ReserveRequest Request(const std::string& request_id, double epsilon) {
  ReserveRequest request;
  request.buyer_id = "alice";
  request.dataset_id = "hospital";
  request.request_id = request_id;
  request.fingerprint = "MI optimized " + std::to_string(epsilon);
  request.operation = "MeasureInconsistency MI optimized";
  request.neighbouring = "tuple";
  request.epsilon = epsilon;
  return request;
}

}  // namespace

void testing::ChargedReleaseTest::SetUp() {
  LedgerStoreFixture::SetUp();
  if (HasFatalFailure()) return;
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
}

BudgetState testing::ChargedReleaseTest::Budget() {
  absl::StatusOr<BudgetState> budget = store_->GetBudget("alice", "hospital");
  EXPECT_TRUE(budget.ok()) << budget.status();
  return budget.ok() ? *budget : BudgetState{};
}

namespace {

TEST_P(ChargedReleaseTest, ChargesComputesCommitsAndReturnsTheAnswer) {
  int computed = 0;
  ASSERT_OK_AND_ASSIGN(const ReleaseOutcome outcome,
                       RunChargedRelease(*store_, Request("r1", 0.25),
                                         [&]() -> absl::StatusOr<std::string> {
                                           ++computed;
                                           // The charge is held before any
                                           // noise is drawn.
                                           const BudgetState during = Budget();
                                           EXPECT_EQ(during.reserved, 0.25);
                                           return std::string("value 7");
                                         }));
  EXPECT_EQ(computed, 1);
  EXPECT_EQ(outcome.answer, "value 7");
  EXPECT_FALSE(outcome.replayed);
  EXPECT_EQ(outcome.epsilon_charged, 0.25);
  EXPECT_EQ(outcome.remaining, 0.75);
  const BudgetState after = Budget();
  EXPECT_EQ(after.spent, 0.25);
  EXPECT_EQ(after.reserved, 0);
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCommitted);
  EXPECT_EQ(entries[0].answer, "value 7");
}

TEST_P(ChargedReleaseTest, RetryReplaysTheRecordedAnswerWithoutComputing) {
  ASSERT_OK(RunChargedRelease(*store_, Request("r1", 0.5), [] {
              return absl::StatusOr<std::string>("first");
            }).status());
  int computed = 0;
  ASSERT_OK_AND_ASSIGN(const ReleaseOutcome replay,
                       RunChargedRelease(*store_, Request("r1", 0.5),
                                         [&]() -> absl::StatusOr<std::string> {
                                           ++computed;
                                           return std::string("fresh noise");
                                         }));
  EXPECT_EQ(computed, 0);
  EXPECT_EQ(replay.answer, "first");
  EXPECT_TRUE(replay.replayed);
  EXPECT_EQ(replay.epsilon_charged, 0);
  EXPECT_EQ(replay.remaining, 0.5);
  EXPECT_EQ(Budget().spent, 0.5);
}

// Once reserved, the charge stands (docs/privacy.md, section 3): whether the
// computation finished in time may depend on the data. A retry with the same
// request id resumes it: computes once more, records and returns the answer,
// and charges nothing new.
// An internal failure's message is replaced by an incident id at the server
// edge; the details keep what the caller must still learn.
TEST_P(ChargedReleaseTest, AFailureAfterTheChargeSaysSoInItsDetails) {
  const absl::Status failed =
      RunChargedRelease(*store_, Request("r9", 0.25),
                        []() -> absl::StatusOr<std::string> {
                          return absl::InternalError("solver");
                        })
          .status();
  ASSERT_EQ(failed.code(), absl::StatusCode::kInternal);
  const std::optional<util::ErrorDetails> d = util::GetErrorDetails(failed);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->metadata.at("charge_stands"), "true");
  EXPECT_EQ(d->metadata.at("request_id"), "r9");
  EXPECT_EQ(d->metadata.at("charged_epsilon"), "0.25");
}

TEST_P(ChargedReleaseTest, ComputeFailureChargesAndTheRetryResumesForFree) {
  EXPECT_THAT(RunChargedRelease(*store_, Request("r1", 0.5),
                                []() -> absl::StatusOr<std::string> {
                                  return absl::DeadlineExceededError(
                                      "The call's deadline passed.");
                                }),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("The charge of epsilon 0.5 for request_id "
                                 "'r1' stands: retry with the same "
                                 "request_id")));
  EXPECT_EQ(Budget().spent, 0.5);
  EXPECT_EQ(Budget().reserved, 0);
  ASSERT_OK_AND_ASSIGN(std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCharged);

  ASSERT_OK_AND_ASSIGN(const ReleaseOutcome outcome,
                       RunChargedRelease(*store_, Request("r1", 0.5), [] {
                         return absl::StatusOr<std::string>("ok now");
                       }));
  EXPECT_EQ(outcome.answer, "ok now");
  EXPECT_TRUE(outcome.replayed);
  EXPECT_EQ(outcome.epsilon_charged, 0);
  EXPECT_EQ(outcome.remaining, 0.5);
  EXPECT_EQ(Budget().spent, 0.5);
  // From now on the recorded answer is replayed without computing.
  int computed = 0;
  ASSERT_OK_AND_ASSIGN(const ReleaseOutcome again,
                       RunChargedRelease(*store_, Request("r1", 0.5),
                                         [&]() -> absl::StatusOr<std::string> {
                                           ++computed;
                                           return std::string("fresh noise");
                                         }));
  EXPECT_EQ(computed, 0);
  EXPECT_EQ(again.answer, "ok now");
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCommitted);
  EXPECT_EQ(entries[0].answer, "ok now");
}

// Two resumes of the same charged request race: the first recorded answer
// stands, the other computation is dropped (never returned).
TEST_P(ChargedReleaseTest, ConcurrentResumesReturnOneAnswer) {
  ASSERT_FALSE(RunChargedRelease(*store_, Request("r1", 0.5), [] {
                 return absl::StatusOr<std::string>(
                     absl::CancelledError("gone"));
               }).ok());
  ASSERT_OK_AND_ASSIGN(
      const ReleaseOutcome outer,
      RunChargedRelease(
          *store_, Request("r1", 0.5), [&]() -> absl::StatusOr<std::string> {
            // Another retry finishes first.
            EXPECT_OK(RunChargedRelease(*store_, Request("r1", 0.5), [] {
                        return absl::StatusOr<std::string>("first");
                      }).status());
            return std::string("second");
          }));
  EXPECT_EQ(outer.answer, "first");
  EXPECT_TRUE(outer.replayed);
  EXPECT_EQ(Budget().spent, 0.5);
}

TEST_P(ChargedReleaseTest, ReserveErrorsAreReturnedWithoutComputing) {
  int computed = 0;
  auto compute = [&]() -> absl::StatusOr<std::string> {
    ++computed;
    return std::string("x");
  };
  EXPECT_THAT(RunChargedRelease(*store_, Request("big", 2), compute),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("requested epsilon 2, remaining 1.")));
  EXPECT_THAT(
      RunChargedRelease(*store_, Request("bad", -1), compute),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  EXPECT_EQ(computed, 0);
  EXPECT_THAT(store_->ListEntries({}), ::dpq::testing::IsOkAndHolds(SizeIs(0)));
}

TEST_P(ChargedReleaseTest, CommitFailureNeverReturnsTheAnswer) {
  FaultyLedger ledger(store_.get());
  ledger.commit_error = absl::InternalError("disk I/O error");
  const absl::StatusOr<ReleaseOutcome> outcome = RunChargedRelease(
      ledger, Request("r1", 0.5),
      [] { return absl::StatusOr<std::string>("secret-free but uncharged"); });
  EXPECT_THAT(outcome, StatusIs(absl::StatusCode::kInternal,
                                HasSubstr("so it was not released: disk I/O")));
  // Nothing was released, so the reservation was refunded.
  EXPECT_EQ(ledger.refunds, 1);
  EXPECT_EQ(Budget().spent, 0);
  EXPECT_EQ(Budget().reserved, 0);
}

TEST_P(ChargedReleaseTest, FailedChargeLeavesTheReservationForRecovery) {
  FaultyLedger ledger(store_.get());
  ledger.charge_error = absl::UnavailableError("database is locked");
  EXPECT_THAT(
      RunChargedRelease(ledger, Request("r1", 0.5),
                        []() -> absl::StatusOr<std::string> {
                          return absl::InternalError("bug");
                        }),
      StatusIs(absl::StatusCode::kInternal,
               HasSubstr("bug (Recording the charge of request_id 'r1'")));
  EXPECT_EQ(ledger.refunds, 0);
  EXPECT_EQ(Budget().reserved, 0.5);
  // The next start-up charges it: the computation may have read the data.
  EXPECT_THAT(store_->RecoverPending(), ::dpq::testing::IsOkAndHolds(1));
  EXPECT_EQ(Budget().reserved, 0);
  EXPECT_EQ(Budget().spent, 0.5);
}

// A store whose disk is full until `full` is cleared: SettlingLedgerStore
// over a FaultyLedger, probing with `full`.
struct FullDisk {
  explicit FullDisk(LedgerStore* store)
      : disk(new FaultyLedger(store)),
        ledger(std::unique_ptr<LedgerStore>(disk), [this] {
          return full ? absl::UnavailableError("No space left on device")
                      : absl::OkStatus();
        }) {}
  FaultyLedger* disk;  // owned by `ledger`
  bool full = true;
  SettlingLedgerStore ledger;
};

// A full disk while a release computes: its answer cannot be recorded and
// its refund cannot be written either, so the entry stays reserved and a
// retry is refused ABORTED (REQUEST_IN_PROGRESS). SettlingLedgerStore
// remembers it, reports the ledger unhealthy, and once the store can write
// again charges it without an answer; the retry then returns an answer
// without a further charge.
TEST_P(ChargedReleaseTest, StuckReservationsAreSettledOnceTheStoreCanWrite) {
  FullDisk full_disk(store_.get());
  FaultyLedger* disk = full_disk.disk;
  bool& full = full_disk.full;
  SettlingLedgerStore& ledger = full_disk.ledger;
  EXPECT_OK(ledger.WriteHealth());
  disk->commit_error = absl::UnavailableError("database or disk is full");
  disk->refund_error = absl::UnavailableError("database or disk is full");
  EXPECT_THAT(
      RunChargedRelease(ledger, Request("r1", 0.5),
                        [] { return absl::StatusOr<std::string>("a"); }),
      StatusIs(absl::StatusCode::kUnavailable,
               HasSubstr("charges it as soon as its ledger can write")));
  EXPECT_EQ(ledger.unsettled(), 1);
  EXPECT_EQ(Budget().reserved, 0.5);
  EXPECT_THAT(
      RunChargedRelease(ledger, Request("r1", 0.5),
                        [] { return absl::StatusOr<std::string>("b"); }),
      StatusIs(absl::StatusCode::kAborted, ::testing::_));
  // Still full: unhealthy, nothing settled.
  EXPECT_THAT(ledger.WriteHealth(),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("1 reservation(s) wait")));
  EXPECT_EQ(ledger.unsettled(), 1);
  // Space is back: the health check settles it (charged, resumable).
  full = false;
  disk->commit_error = absl::OkStatus();
  disk->refund_error = absl::OkStatus();
  EXPECT_OK(ledger.WriteHealth());
  EXPECT_EQ(ledger.unsettled(), 0);
  EXPECT_EQ(Budget().reserved, 0);
  EXPECT_EQ(Budget().spent, 0.5);
  absl::StatusOr<ReleaseOutcome> retry =
      RunChargedRelease(ledger, Request("r1", 0.5),
                        [] { return absl::StatusOr<std::string>("c"); });
  ASSERT_OK(retry.status());
  EXPECT_EQ(retry->answer, "c");
  EXPECT_EQ(retry->epsilon_charged_units, 0);
  EXPECT_EQ(Budget().spent, 0.5);
}

// A write that failed (a reservation refused for a full disk) makes the
// ledger unhealthy until a probe write succeeds, with nothing to settle.
TEST_P(ChargedReleaseTest, AFailedWriteIsUnhealthyUntilAProbeWrites) {
  FullDisk full_disk(store_.get());
  FaultyLedger* disk = full_disk.disk;
  bool& full = full_disk.full;
  SettlingLedgerStore& ledger = full_disk.ledger;
  disk->charge_error = absl::InternalError("disk I/O error");
  (void)RunChargedRelease(ledger, Request("r2", 0.25),
                          []() -> absl::StatusOr<std::string> {
                            return absl::InternalError("bug");
                          });
  EXPECT_EQ(ledger.unsettled(), 1);
  EXPECT_FALSE(ledger.WriteHealth().ok());
  full = false;
  disk->charge_error = absl::OkStatus();
  EXPECT_OK(ledger.WriteHealth());
  EXPECT_EQ(Budget().spent, 0.25);
  // Refusals are answers of a working store, not faults.
  EXPECT_THAT(ledger.Reserve(Request("big", 5)).status(),
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
  EXPECT_OK(ledger.WriteHealth());
}

}  // namespace
}  // namespace dpq::core::ledger
