// The behaviour every LedgerStore promises (core/ledger/ledger.h), run
// against each store by its own test (ledger_store_suites.h).
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/core/ledger/test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::ledger {
namespace {

using ::dpq::core::ledger::testing::Filter;
using ::dpq::core::ledger::testing::LedgerStoreTest;
using ::dpq::core::ledger::testing::Request;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::Optional;
using ::testing::Pair;
using ::testing::SizeIs;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

int64_t testing::LedgerStoreTest::Charge(const std::string& request_id,
                                         double epsilon,
                                         const std::string& buyer,
                                         const std::string& dataset) {
  absl::StatusOr<Reservation> reservation =
      store_->Reserve(Request(request_id, epsilon, buyer, dataset));
  EXPECT_TRUE(reservation.ok()) << reservation.status();
  if (!reservation.ok() || !reservation->entry_id.has_value()) return -1;
  EXPECT_OK(store_->Commit(*reservation->entry_id, "answer " + request_id));
  return *reservation->entry_id;
}

namespace {

// ---------------------------------------------------------------------------
// Grants, budgets, caps.

TEST_P(LedgerStoreTest, UnknownBudgetIsAllZero) {
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.buyer_id, "alice");
  EXPECT_EQ(budget.dataset_id, "hospital");
  EXPECT_EQ(budget.granted, 0);
  EXPECT_EQ(budget.spent, 0);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_EQ(budget.remaining(), 0);
  EXPECT_THAT(store_->ListBudgets({}), IsOkAndHolds(SizeIs(0)));
}

// Every amount the store hands out carries its exact units (what the API's
// *_units fields show), and the doubles are their nearest doubles.
TEST_P(LedgerStoreTest, AmountsCarryTheirExactUnits) {
  constexpr int64_t kUnit = kUnitsPerEpsilon;
  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->Grant("alice", "hospital", 20));
  EXPECT_EQ(budget.granted_units, 20 * kUnit);
  EXPECT_EQ(budget.remaining_units(), 20 * kUnit);
  ASSERT_OK(store_->SetDatasetCap("hospital", 100));
  int n = 0;
  for (const double epsilon : {1.0, 1.0, 1.0, 0.9}) {
    Charge("u" + std::to_string(++n), epsilon);
  }
  ASSERT_OK_AND_ASSIGN(const Reservation last,
                       store_->Reserve(Request("u5", 0.5)));
  EXPECT_EQ(last.remaining_units, 15'600'000'000'000);
  EXPECT_EQ(last.remaining, 15.6);
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent_units, 3'900'000'000'000);
  EXPECT_EQ(budget.reserved_units, kUnit / 2);
  EXPECT_EQ(budget.remaining_units(), 15'600'000'000'000);
  EXPECT_EQ(budget.remaining(), 15.6);
  ASSERT_OK(store_->Commit(*last.entry_id, "answer"));
  // A replay reports the remaining budget exactly too.
  ASSERT_OK_AND_ASSIGN(const Reservation replay,
                       store_->Reserve(Request("u5", 0.5)));
  EXPECT_EQ(replay.remaining_units, 15'600'000'000'000);
  ASSERT_OK_AND_ASSIGN(std::vector<BudgetState> budgets,
                       store_->ListBudgets({}));
  ASSERT_THAT(budgets, SizeIs(1));
  EXPECT_EQ(budgets[0].spent_units, 4'400'000'000'000);
  EXPECT_EQ(budgets[0].spent, 4.4);
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries(Filter("alice")));
  ASSERT_THAT(entries, SizeIs(5));
  EXPECT_EQ(entries[1].epsilon_units, 900'000'000'000);  // newest first
  EXPECT_EQ(entries[1].epsilon, 0.9);
  ASSERT_OK_AND_ASSIGN(const DatasetTotals totals,
                       store_->GetDatasetTotals("hospital"));
  EXPECT_EQ(totals.cap_units, 100 * kUnit);
  EXPECT_EQ(totals.spent_units, 4'400'000'000'000);
  ASSERT_OK_AND_ASSIGN(budget, store_->SetGranted("alice", "hospital", 4.4));
  EXPECT_EQ(budget.granted_units, 4'400'000'000'000);
  EXPECT_EQ(budget.remaining_units(), 0);
}

TEST_P(LedgerStoreTest, GrantCreatesTheBudgetAndThenAddsToIt) {
  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->Grant("alice", "hospital", 1.5));
  EXPECT_EQ(budget.granted, 1.5);
  EXPECT_EQ(budget.remaining(), 1.5);
  ASSERT_OK_AND_ASSIGN(budget, store_->Grant("alice", "hospital", 0.25));
  EXPECT_EQ(budget.granted, 1.75);
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.granted, 1.75);
  // Other pairs are untouched.
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "tax"));
  EXPECT_EQ(budget.granted, 0);
}

TEST_P(LedgerStoreTest, GrantRejectsBadEpsilonAndEmptyIds) {
  for (const double bad : {0.0, -1.0, kNaN, kInf, 2e6}) {
    EXPECT_THAT(
        store_->Grant("alice", "hospital", bad),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")))
        << bad;
  }
  EXPECT_THAT(store_->Grant("alice", "hospital", -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("epsilon must be finite and positive, but is -1.")));
  EXPECT_THAT(store_->Grant("", "hospital", 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("buyer_id must not be empty.")));
  EXPECT_THAT(store_->Grant("alice", "", 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("dataset_id must not be empty.")));
  EXPECT_THAT(store_->ListBudgets({}), IsOkAndHolds(SizeIs(0)));
}

TEST_P(LedgerStoreTest, SetGrantedSetsTheTotalAndAcceptsZero) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->SetGranted("alice", "hospital", 2));
  EXPECT_EQ(budget.granted, 2);
  ASSERT_OK_AND_ASSIGN(budget, store_->SetGranted("alice", "hospital", 0));
  EXPECT_EQ(budget.granted, 0);
  ASSERT_OK_AND_ASSIGN(budget, store_->SetGranted("bob", "hospital", 3));
  EXPECT_EQ(budget.granted, 3);
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("bob", "hospital"));
  EXPECT_EQ(budget.granted, 3);
}

TEST_P(LedgerStoreTest, SetGrantedRejectsNegativeNaNAndInfinity) {
  for (const double bad : {-0.5, kNaN, kInf}) {
    EXPECT_THAT(store_->SetGranted("alice", "hospital", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("granted must be finite and at least 0")))
        << bad;
  }
}

TEST_P(LedgerStoreTest, SetGrantedRefusesLessThanSpentPlusReserved) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  Charge("r1", 1);
  ASSERT_OK(store_->Reserve(Request("r2", 0.5)).status());
  EXPECT_THAT(
      store_->SetGranted("alice", "hospital", 1.25),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               Eq("Cannot set the budget of buyer 'alice' on dataset "
                  "'hospital' to 1.25: spent 1 and reserved 0.5 already "
                  "exceed it.")));
  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->SetGranted("alice", "hospital", 1.5));
  EXPECT_EQ(budget.remaining(), 0);
  EXPECT_THAT(
      store_->Reserve(Request("r3", 0.01)),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("0.01")));
}

TEST_P(LedgerStoreTest, DatasetCapLimitsAllBuyersTogether) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 5).status());
  ASSERT_OK(store_->SetDatasetCap("hospital", 2));
  EXPECT_THAT(store_->DatasetCapAndSpent("hospital"),
              IsOkAndHolds(Pair(2.0, 0.0)));

  Charge("a1", 1.5, "alice");
  EXPECT_THAT(
      store_->Reserve(Request("b1", 1, "bob")),
      StatusIs(absl::StatusCode::kResourceExhausted,
               Eq("Dataset cap reached on dataset 'hospital': requested "
                  "epsilon 1, cap 2 over all buyers, of which 0.5 remains "
                  "(buyer 'bob' has remaining budget 5).")));
  // A reservation counts against the cap too.
  ASSERT_OK_AND_ASSIGN(const Reservation held,
                       store_->Reserve(Request("b2", 0.5, "bob")));
  EXPECT_THAT(
      store_->Reserve(Request("a2", 0.01, "alice")),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("cap 2")));
  // DatasetCapAndSpent reports committed epsilon only.
  EXPECT_THAT(store_->DatasetCapAndSpent("hospital"),
              IsOkAndHolds(Pair(2.0, 1.5)));
  ASSERT_OK(store_->Commit(*held.entry_id, "x"));
  EXPECT_THAT(store_->DatasetCapAndSpent("hospital"),
              IsOkAndHolds(Pair(2.0, 2.0)));

  // Other datasets are not capped.
  ASSERT_OK(store_->Grant("bob", "tax", 5).status());
  Charge("b3", 4, "bob", "tax");

  // 0 removes the cap.
  ASSERT_OK(store_->SetDatasetCap("hospital", 0));
  EXPECT_THAT(store_->DatasetCapAndSpent("hospital"),
              IsOkAndHolds(Pair(0.0, 2.0)));
  Charge("b4", 1, "bob");
  // A cap below what is used is accepted and refuses what follows.
  ASSERT_OK(store_->SetDatasetCap("hospital", 1));
  EXPECT_THAT(store_->Reserve(Request("b5", 0.1, "bob")),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("of which 0 remains")));
}

TEST_P(LedgerStoreTest, SetDatasetCapValidatesArguments) {
  EXPECT_THAT(store_->SetDatasetCap("hospital", -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("cap must be finite and at least 0, but is -1.")));
  EXPECT_THAT(store_->SetDatasetCap("hospital", kNaN),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cap")));
  EXPECT_THAT(
      store_->SetDatasetCap("", 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  EXPECT_THAT(
      store_->DatasetCapAndSpent(""),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  // Removing a cap that does not exist is fine.
  EXPECT_OK(store_->SetDatasetCap("hospital", 0));
}

// ---------------------------------------------------------------------------
// Reserve, commit, refund.

TEST_P(LedgerStoreTest, ReserveHoldsEpsilonAndCommitChargesIt) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  const absl::Time before = absl::Now() - absl::Seconds(1);
  ASSERT_OK_AND_ASSIGN(const Reservation reservation,
                       store_->Reserve(Request("r1", 0.375)));
  ASSERT_TRUE(reservation.entry_id.has_value());
  EXPECT_FALSE(reservation.recorded_answer.has_value());
  EXPECT_EQ(reservation.remaining, 0.625);

  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0);
  EXPECT_EQ(budget.reserved, 0.375);
  EXPECT_EQ(budget.remaining(), 0.625);
  ASSERT_OK_AND_ASSIGN(std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].entry_id, *reservation.entry_id);
  EXPECT_EQ(entries[0].state, EntryState::kReserved);
  EXPECT_EQ(entries[0].request_id, "r1");
  EXPECT_EQ(entries[0].fingerprint, Request("r1", 0.375).fingerprint);
  EXPECT_EQ(entries[0].operation, "MeasureInconsistency MI optimized");
  EXPECT_EQ(entries[0].neighbouring, "tuple");
  EXPECT_EQ(entries[0].epsilon, 0.375);
  EXPECT_GT(entries[0].created_at, before);
  EXPECT_FALSE(entries[0].settled_at.has_value());

  const std::string answer("value=42\0bytes", 14);
  ASSERT_OK(store_->Commit(*reservation.entry_id, answer));
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0.375);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_EQ(budget.remaining(), 0.625);
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCommitted);
  EXPECT_EQ(entries[0].answer, answer);
  ASSERT_TRUE(entries[0].settled_at.has_value());
  EXPECT_GE(*entries[0].settled_at, entries[0].created_at);
}

// A buyer's entries in pages: before_buyer_seq is the cursor (the
// buyer_seq of the page before's last entry); another buyer's entries never
// count, and without buyer_id the cursor is ignored.
TEST_P(LedgerStoreTest, BuyerEntriesPageByTheirSequenceNumbers) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  for (int i = 1; i <= 5; ++i) {
    Charge("a" + std::to_string(i), 1, "alice");
    Charge("b" + std::to_string(i), 1, "bob");
  }
  LedgerFilter filter = Filter("alice", "hospital");
  filter.limit = 2;
  std::vector<std::string> seen;
  for (int page = 0; page < 4; ++page) {
    ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                         store_->ListEntries(filter));
    if (entries.empty()) break;
    for (const LedgerEntry& e : entries) {
      EXPECT_EQ(e.buyer_id, "alice");
      seen.push_back(absl::StrCat(e.buyer_seq, ":", e.request_id));
    }
    filter.before_buyer_seq = entries.back().buyer_seq;
  }
  EXPECT_THAT(seen, ElementsAre("5:a5", "4:a4", "3:a3", "2:a2", "1:a1"));
  LedgerFilter everyone;
  everyone.before_buyer_seq = 2;
  EXPECT_THAT(store_->ListEntries(everyone), IsOkAndHolds(SizeIs(10)));
}

// The admin's pages over every buyer: by the store's handle, newest first,
// with the filters, and stable while entries are added.
TEST_P(LedgerStoreTest, AllEntriesPageByTheirHandles) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  for (int i = 1; i <= 3; ++i) {
    Charge("a" + std::to_string(i), 1, "alice");
    Charge("b" + std::to_string(i), 1, "bob");
  }
  LedgerFilter filter;
  filter.limit = 4;
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> first,
                       store_->ListEntries(filter));
  ASSERT_THAT(first, SizeIs(4));
  Charge("a4", 1, "alice");  // newer than every page: never on a later one
  filter.before_entry_id = first.back().entry_id;
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> second,
                       store_->ListEntries(filter));
  std::vector<std::string> seen;
  for (const auto* page : {&first, &second}) {
    for (const LedgerEntry& e : *page) seen.push_back(e.request_id);
  }
  EXPECT_THAT(seen, ElementsAre("b3", "a3", "b2", "a2", "b1", "a1"));
  LedgerFilter bob = Filter("bob", "hospital");
  bob.before_entry_id = first[0].entry_id;  // b3's handle
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> older,
                       store_->ListEntries(bob));
  ASSERT_THAT(older, SizeIs(2));
  EXPECT_EQ(older[0].request_id, "b2");
}

TEST_P(LedgerStoreTest, RefundReturnsTheEpsilon) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  ASSERT_OK_AND_ASSIGN(const Reservation reservation,
                       store_->Reserve(Request("r1", 1)));
  EXPECT_EQ(reservation.remaining, 0);
  ASSERT_OK(store_->Refund(*reservation.entry_id));
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_EQ(budget.remaining(), 1);
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kRefunded);
  EXPECT_TRUE(entries[0].settled_at.has_value());
  EXPECT_EQ(entries[0].answer, "");
}

TEST_P(LedgerStoreTest, OnlyAReservedEntryCanBeCommittedOrRefunded) {
  ASSERT_OK(store_->Grant("alice", "hospital", 2).status());
  const int64_t committed = Charge("r1", 1);
  // An answered entry keeps its answer (a resume that lost the race).
  EXPECT_THAT(
      store_->Commit(committed, "again"),
      StatusIs(absl::StatusCode::kAborted, HasSubstr("already has an answer")));
  EXPECT_THAT(store_->Refund(committed),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("it is committed, not reserved")));
  ASSERT_OK_AND_ASSIGN(const Reservation r2, store_->Reserve(Request("r2", 1)));
  ASSERT_OK(store_->Refund(*r2.entry_id));
  // Messages name the entry by its per-buyer number, never by the global
  // handle (they can reach the buyer).
  EXPECT_THAT(store_->Commit(*r2.entry_id, "late"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       Eq("Cannot commit ledger entry 2 of buyer 'alice': it "
                          "is refunded, not reserved.")));
  EXPECT_THAT(
      store_->Refund(*r2.entry_id),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("refunded")));
  EXPECT_THAT(store_->Commit(12345, "x"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       Eq("Cannot commit an unknown ledger entry.")));
  // The failed calls changed nothing.
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 1);
  EXPECT_EQ(budget.reserved, 0);
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(2));
  EXPECT_EQ(entries[1].answer, "answer r1");
}

TEST_P(LedgerStoreTest, OverBudgetIsResourceExhaustedNamingRemaining) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  Charge("r1", 0.75);
  EXPECT_THAT(
      store_->Reserve(Request("r2", 0.5)),
      StatusIs(absl::StatusCode::kResourceExhausted,
               Eq("Budget exhausted for buyer 'alice' on dataset 'hospital': "
                  "requested epsilon 0.5, remaining 0.25.")));
  // Nothing was recorded for the refused request.
  EXPECT_THAT(store_->ListEntries({}), IsOkAndHolds(SizeIs(1)));
  // What fits still fits.
  ASSERT_OK_AND_ASSIGN(const Reservation r3,
                       store_->Reserve(Request("r3", 0.25)));
  EXPECT_EQ(r3.remaining, 0);
}

TEST_P(LedgerStoreTest, ReserveWithoutAGrantIsFailedPrecondition) {
  EXPECT_THAT(store_->Reserve(Request("r1", 0.1)),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       Eq("Buyer 'alice' has no budget on dataset 'hospital': "
                          "nothing was granted (an admin grants it with "
                          "GrantBudget); requested epsilon 0.1.")));
  // Another buyer's budget does not help.
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  EXPECT_THAT(store_->Reserve(Request("r1", 0.1)),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Buyer 'alice'")));
}

TEST_P(LedgerStoreTest, ReserveValidatesItsArguments) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  EXPECT_THAT(store_->Reserve(Request("", 1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("request_id must not be empty.")));
  EXPECT_THAT(
      store_->Reserve(Request("r", 1, "")),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("buyer_id")));
  EXPECT_THAT(
      store_->Reserve(Request("r", 1, "alice", "")),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  for (const double bad : {0.0, -0.1, kNaN, kInf, -kInf}) {
    EXPECT_THAT(store_->Reserve(Request("r", bad)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("epsilon must be finite and positive")))
        << bad;
  }
  EXPECT_THAT(store_->ListEntries({}), IsOkAndHolds(SizeIs(0)));
}

TEST_P(LedgerStoreTest, TenthsAddUpExactlyAndNoRealExcessFits) {
  // In doubles 0.3 - 0.1 - 0.1 = 0.09999999999999998 < 0.1; in exact ledger
  // units the third request fits exactly, a fourth does not.
  ASSERT_OK(store_->Grant("alice", "hospital", 0.3).status());
  Charge("a", 0.1);
  Charge("b", 0.1);
  Charge("c", 0.1);
  EXPECT_THAT(store_->Reserve(Request("d", 0.1)),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("requested epsilon 0.1, remaining 0.")));
  // Ten times 0.1 fit in 1, not eleven.
  ASSERT_OK(store_->Grant("bob", "hospital", 1).status());
  for (int i = 0; i < 10; ++i) Charge("b" + std::to_string(i), 0.1, "bob");
  EXPECT_THAT(store_->Reserve(Request("b10", 0.1, "bob")),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("bob")));
  // A real excess, however small against the budget, is refused: even one
  // unit (10^-12), and an unquantised 1 + 2^-52 rounds its charge up.
  ASSERT_OK(store_->Grant("carol", "hospital", 1).status());
  EXPECT_THAT(
      store_->Reserve(Request("c1", 1 + 1e-12, "carol")),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("requested epsilon 1.000000000001, remaining 1.")));
  ReserveRequest tiny_excess = Request("c2", 1, "carol");
  tiny_excess.epsilon = std::nextafter(1.0, 2.0);
  EXPECT_THAT(
      store_->Reserve(tiny_excess),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("requested epsilon 1.000000000001, remaining 1.")));
  ASSERT_OK_AND_ASSIGN(const std::vector<BudgetState> budgets,
                       store_->ListBudgets({}));
  for (const BudgetState& budget : budgets) {
    EXPECT_LE(budget.spent, budget.granted) << budget.buyer_id;
    EXPECT_GE(budget.remaining(), 0);
  }
}

// ---------------------------------------------------------------------------
// Retries (docs/privacy.md 3.2).

TEST_P(LedgerStoreTest, RetryOfACommittedRequestReplaysAndChargesNothing) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  Charge("r1", 0.5);
  ASSERT_OK_AND_ASSIGN(const Reservation replay,
                       store_->Reserve(Request("r1", 0.5)));
  EXPECT_FALSE(replay.entry_id.has_value());
  EXPECT_THAT(replay.recorded_answer, Optional(Eq("answer r1")));
  EXPECT_EQ(replay.remaining, 0.5);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0.5);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_THAT(store_->ListEntries({}), IsOkAndHolds(SizeIs(1)));
}

TEST_P(LedgerStoreTest, RetryIsReplayedEvenWhenTheBudgetIsSpent) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  Charge("r1", 1);
  ASSERT_OK_AND_ASSIGN(const Reservation replay,
                       store_->Reserve(Request("r1", 1)));
  EXPECT_THAT(replay.recorded_answer, Optional(Eq("answer r1")));
  EXPECT_EQ(replay.remaining, 0);
}

TEST_P(LedgerStoreTest, RetryOfAnEmptyAnswerReplaysTheEmptyAnswer) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  ASSERT_OK_AND_ASSIGN(const Reservation first,
                       store_->Reserve(Request("r1", 0.5)));
  ASSERT_OK(store_->Commit(*first.entry_id, ""));
  ASSERT_OK_AND_ASSIGN(const Reservation replay,
                       store_->Reserve(Request("r1", 0.5)));
  EXPECT_THAT(replay.recorded_answer, Optional(Eq("")));
}

TEST_P(LedgerStoreTest, ReusedRequestIdForAnotherRequestIsAlreadyExists) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK(store_->Grant("alice", "tax", 5).status());
  Charge("r1", 0.5);
  ReserveRequest other = Request("r1", 0.5);
  other.fingerprint = "something else";
  EXPECT_THAT(
      store_->Reserve(other),
      StatusIs(absl::StatusCode::kAlreadyExists,
               Eq("request_id 'r1' was already used by buyer 'alice' for a "
                  "different request; use a new request_id.")));
  // Another epsilon or dataset is another request, whatever the fingerprint.
  ReserveRequest other_epsilon = Request("r1", 0.5);
  other_epsilon.epsilon = 0.25;
  EXPECT_THAT(store_->Reserve(other_epsilon),
              StatusIs(absl::StatusCode::kAlreadyExists, ::testing::_));
  ReserveRequest other_dataset = Request("r1", 0.5);
  other_dataset.dataset_id = "tax";
  EXPECT_THAT(store_->Reserve(other_dataset),
              StatusIs(absl::StatusCode::kAlreadyExists, ::testing::_));
  // Also while the first request is still reserved.
  ASSERT_OK(store_->Reserve(Request("r2", 0.5)).status());
  ReserveRequest other2 = Request("r2", 0.5);
  other2.fingerprint = "x";
  EXPECT_THAT(store_->Reserve(other2),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("'r2'")));
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0.5);
  EXPECT_EQ(budget.reserved, 0.5);
}

TEST_P(LedgerStoreTest, RetryWhileStillReservedIsAborted) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(const Reservation first,
                       store_->Reserve(Request("r1", 1)));
  EXPECT_THAT(store_->Reserve(Request("r1", 1)),
              StatusIs(absl::StatusCode::kAborted,
                       Eq("The request with request_id 'r1' of buyer 'alice' "
                          "is still in progress; retry later with the same "
                          "request_id.")));
  ASSERT_OK(store_->Commit(*first.entry_id, "done"));
  EXPECT_THAT(store_->Reserve(Request("r1", 1)),
              IsOkAndHolds(::testing::Field(&Reservation::recorded_answer,
                                            Optional(Eq("done")))));
}

TEST_P(LedgerStoreTest, RefundedRequestIdIsReservedAnew) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(const Reservation first,
                       store_->Reserve(Request("r1", 1)));
  ASSERT_OK(store_->Refund(*first.entry_id));
  // Even with other parameters: nothing was released under r1.
  ReserveRequest again = Request("r1", 2);
  ASSERT_OK_AND_ASSIGN(const Reservation second, store_->Reserve(again));
  ASSERT_TRUE(second.entry_id.has_value());
  EXPECT_NE(*second.entry_id, *first.entry_id);
  EXPECT_EQ(second.remaining, 3);
  ASSERT_OK(store_->Commit(*second.entry_id, "second"));
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(2));  // the refunded one stays as history
  EXPECT_EQ(entries[0].state, EntryState::kCommitted);
  EXPECT_EQ(entries[0].epsilon, 2);
  EXPECT_EQ(entries[1].state, EntryState::kRefunded);
  EXPECT_EQ(entries[1].request_id, "r1");
  EXPECT_THAT(store_->Reserve(again),
              IsOkAndHolds(::testing::Field(&Reservation::recorded_answer,
                                            Optional(Eq("second")))));
}

TEST_P(LedgerStoreTest, RequestIdsArePerBuyer) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 5).status());
  Charge("same", 1, "alice");
  ReserveRequest bob = Request("same", 1, "bob");
  bob.fingerprint = "bob's own request";
  ASSERT_OK_AND_ASSIGN(const Reservation reservation, store_->Reserve(bob));
  EXPECT_TRUE(reservation.entry_id.has_value());
}

// ---------------------------------------------------------------------------
// Listing.

TEST_P(LedgerStoreTest, ListEntriesIsNewestFirstFilteredAndLimited) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  ASSERT_OK(store_->Grant("alice", "tax", 10).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  const int64_t a1 = Charge("a1", 1, "alice", "hospital");
  const int64_t a2 = Charge("a2", 1, "alice", "tax");
  const int64_t b1 = Charge("b1", 1, "bob", "hospital");
  const int64_t a3 = Charge("a3", 1, "alice", "hospital");

  auto ids = [](const std::vector<LedgerEntry>& entries) {
    std::vector<int64_t> result;
    for (const LedgerEntry& e : entries) result.push_back(e.entry_id);
    return result;
  };
  ASSERT_OK_AND_ASSIGN(std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  EXPECT_THAT(ids(entries), ElementsAre(a3, b1, a2, a1));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("alice")));
  EXPECT_THAT(ids(entries), ElementsAre(a3, a2, a1));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("", "hospital")));
  EXPECT_THAT(ids(entries), ElementsAre(a3, b1, a1));
  ASSERT_OK_AND_ASSIGN(entries,
                       store_->ListEntries(Filter("alice", "hospital")));
  EXPECT_THAT(ids(entries), ElementsAre(a3, a1));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("", "", 2)));
  EXPECT_THAT(ids(entries), ElementsAre(a3, b1));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("", "", 0)));
  EXPECT_THAT(entries, SizeIs(0));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("nobody")));
  EXPECT_THAT(entries, SizeIs(0));
}

// docs/security.md, item 8: a global handle counts every buyer's entries, so a
// buyer's history (22, 24) would show that someone else made entry 23. Each
// buyer's entries are numbered 1, 2, 3, ... on their own.
TEST_P(LedgerStoreTest, EntriesAreNumberedPerBuyerAcrossDatasets) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  ASSERT_OK(store_->Grant("alice", "tax", 10).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  Charge("a1", 1, "alice", "hospital");
  Charge("b1", 1, "bob", "hospital");
  Charge("a2", 1, "alice", "tax");
  // A refunded reservation keeps its number; reserving its request id anew
  // is a new entry with the next number.
  ASSERT_OK_AND_ASSIGN(const Reservation refunded,
                       store_->Reserve(Request("a3", 1, "alice", "hospital")));
  ASSERT_OK(store_->Refund(*refunded.entry_id));
  Charge("b2", 1, "bob", "hospital");
  Charge("a3", 1, "alice", "hospital");
  // A replayed retry is not a new entry.
  ASSERT_OK(store_->Reserve(Request("a1", 1, "alice", "hospital")).status());

  auto numbers = [](const std::vector<LedgerEntry>& entries) {
    std::vector<std::string> result;
    for (const LedgerEntry& e : entries) {
      result.push_back(e.buyer_id + "#" + std::to_string(e.buyer_seq) + " " +
                       e.request_id);
    }
    return result;
  };
  ASSERT_OK_AND_ASSIGN(std::vector<LedgerEntry> entries,
                       store_->ListEntries(Filter("alice")));
  EXPECT_THAT(numbers(entries), ElementsAre("alice#4 a3", "alice#3 a3",
                                            "alice#2 a2", "alice#1 a1"));
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries(Filter("bob")));
  EXPECT_THAT(numbers(entries), ElementsAre("bob#2 b2", "bob#1 b1"));
  // Filtered by dataset, alice's numbers skip her entry on tax.
  ASSERT_OK_AND_ASSIGN(entries,
                       store_->ListEntries(Filter("alice", "hospital")));
  EXPECT_THAT(numbers(entries),
              ElementsAre("alice#4 a3", "alice#3 a3", "alice#1 a1"));

  // Numbering goes on after a reopen. (Within one write batch too: each
  // store checks that where it batches, e.g.
  // SqliteLedgerStoreTest.EntriesAreNumberedWithinOneBatch.)
  Reopen();
  for (const ReserveRequest& request :
       {Request("b3", 1, "bob", "hospital"), Request("a4", 1, "alice", "tax"),
        Request("b4", 1, "bob", "hospital")}) {
    ASSERT_OK(store_->Reserve(request).status());
  }
  ASSERT_OK_AND_ASSIGN(entries, store_->ListEntries({}));
  EXPECT_THAT(numbers(entries),
              ElementsAre("bob#4 b4", "alice#5 a4", "bob#3 b3", "alice#4 a3",
                          "bob#2 b2", "alice#3 a3", "alice#2 a2", "bob#1 b1",
                          "alice#1 a1"));
}

TEST_P(LedgerStoreTest, ListBudgetsIsSortedFilteredAndSummed) {
  ASSERT_OK(store_->Grant("bob", "tax", 3).status());
  ASSERT_OK(store_->Grant("alice", "tax", 2).status());
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  Charge("a1", 0.5, "alice", "tax");
  ASSERT_OK(store_->Reserve(Request("a2", 0.25, "alice", "tax")).status());
  ASSERT_OK_AND_ASSIGN(const Reservation refunded,
                       store_->Reserve(Request("a3", 1, "alice", "tax")));
  ASSERT_OK(store_->Refund(*refunded.entry_id));

  auto keys = [](const std::vector<BudgetState>& budgets) {
    std::vector<std::string> result;
    for (const BudgetState& b : budgets) {
      result.push_back(b.buyer_id + "/" + b.dataset_id);
    }
    return result;
  };
  ASSERT_OK_AND_ASSIGN(std::vector<BudgetState> budgets,
                       store_->ListBudgets({}));
  EXPECT_THAT(keys(budgets),
              ElementsAre("alice/hospital", "alice/tax", "bob/tax"));
  EXPECT_EQ(budgets[1].granted, 2);
  EXPECT_EQ(budgets[1].spent, 0.5);
  EXPECT_EQ(budgets[1].reserved, 0.25);
  EXPECT_EQ(budgets[1].remaining(), 1.25);
  EXPECT_EQ(budgets[2].spent, 0);
  ASSERT_OK_AND_ASSIGN(budgets, store_->ListBudgets(Filter("alice")));
  EXPECT_THAT(keys(budgets), ElementsAre("alice/hospital", "alice/tax"));
  ASSERT_OK_AND_ASSIGN(budgets, store_->ListBudgets(Filter("", "tax")));
  EXPECT_THAT(keys(budgets), ElementsAre("alice/tax", "bob/tax"));
  ASSERT_OK_AND_ASSIGN(budgets, store_->ListBudgets(Filter("bob", "tax")));
  EXPECT_THAT(keys(budgets), ElementsAre("bob/tax"));
}

// ---------------------------------------------------------------------------
// Durability and recovery.

TEST_P(LedgerStoreTest, EverythingSurvivesCloseAndReopen) {
  ASSERT_OK(store_->Grant("alice", "hospital", 3).status());
  ASSERT_OK(store_->SetDatasetCap("hospital", 10));
  Charge("r1", 1);
  ASSERT_OK_AND_ASSIGN(const Reservation pending,
                       store_->Reserve(Request("r2", 0.5)));
  Reopen();
  ASSERT_OK_AND_ASSIGN(BudgetState budget,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.granted, 3);
  EXPECT_EQ(budget.spent, 1);
  EXPECT_EQ(budget.reserved, 0.5);
  EXPECT_THAT(store_->DatasetCapAndSpent("hospital"),
              IsOkAndHolds(Pair(10.0, 1.0)));
  // The recorded answer is still replayed.
  EXPECT_THAT(store_->Reserve(Request("r1", 1)),
              IsOkAndHolds(::testing::Field(&Reservation::recorded_answer,
                                            Optional(Eq("answer r1")))));
  // The reservation left open is still held until recovered.
  EXPECT_THAT(store_->Reserve(Request("r2", 0.5)),
              StatusIs(absl::StatusCode::kAborted, ::testing::_));
  // Recovery charges it (the computation may have read the data) ...
  EXPECT_THAT(store_->RecoverPending(), IsOkAndHolds(1));
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_EQ(budget.remaining(), 1.5);
  // ... and a retry resumes it without a new charge.
  ASSERT_OK_AND_ASSIGN(const Reservation resumed,
                       store_->Reserve(Request("r2", 0.5)));
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.entry_id, pending.entry_id);
  ASSERT_OK(store_->Commit(*pending.entry_id, "answer r2"));
  ASSERT_OK_AND_ASSIGN(budget, store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 1.5);
  // New entry ids never reuse old ones.
  ASSERT_OK_AND_ASSIGN(const Reservation next,
                       store_->Reserve(Request("r3", 0.5)));
  EXPECT_GT(*next.entry_id, *pending.entry_id);
}

TEST_P(LedgerStoreTest, RecoverPendingChargesOnlyReservations) {
  ASSERT_OK(store_->Grant("alice", "hospital", 5).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 5).status());
  Charge("c1", 1);
  ASSERT_OK(store_->Reserve(Request("p1", 1)).status());
  ASSERT_OK(store_->Reserve(Request("p2", 1, "bob")).status());
  EXPECT_THAT(store_->RecoverPending(), IsOkAndHolds(2));
  EXPECT_THAT(store_->RecoverPending(), IsOkAndHolds(0));
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries({}));
  ASSERT_THAT(entries, SizeIs(3));
  EXPECT_EQ(entries[0].state, EntryState::kCharged);
  EXPECT_EQ(entries[1].state, EntryState::kCharged);
  EXPECT_EQ(entries[2].state, EntryState::kCommitted);
  ASSERT_OK_AND_ASSIGN(const BudgetState alice,
                       store_->GetBudget("alice", "hospital"));
  EXPECT_EQ(alice.spent, 2);
  EXPECT_EQ(alice.reserved, 0);
  // A recovered request is resumed by its retry, charged once.
  ASSERT_OK_AND_ASSIGN(const Reservation again,
                       store_->Reserve(Request("p1", 1)));
  EXPECT_TRUE(again.resumed);
  EXPECT_EQ(again.remaining, 3);
}

}  // namespace
}  // namespace dpq::core::ledger

namespace dpq::core::ledger {
namespace {

using ::dpq::core::util::ErrorDetails;
using ::dpq::core::util::GetErrorDetails;

// The details of a refusal, or an empty ErrorDetails with reason
// "(none)" (so that a missing one fails the comparison visibly).
ErrorDetails DetailsOf(const absl::Status& status) {
  ErrorDetails none;
  none.reason = "(none)";
  return GetErrorDetails(status).value_or(none);
}

// Every store attaches the same details to the same refusal
// (docs/errors.md): the reasons and amounts a client acts on.
TEST_P(LedgerStoreTest, RefusalsCarryTheSameDetailsInEveryStore) {
  ErrorDetails no_grant;
  no_grant.reason = "NO_BUDGET_GRANTED";
  no_grant.metadata = {
      {"dataset_id", "hospital"},   {"request_id", "r1"},
      {"requested_epsilon", "0.1"}, {"requested_epsilon_units", "100000000000"},
      {"granted_epsilon", "0"},     {"granted_epsilon_units", "0"}};
  no_grant.precondition_violations.push_back(
      {"BUDGET_GRANT", "buyer:alice/dataset:hospital",
       "Nothing was granted to this buyer on this dataset; an admin grants "
       "budget with GrantBudget."});
  EXPECT_EQ(DetailsOf(store_->Reserve(Request("r1", 0.1)).status()), no_grant);

  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  Charge("r2", 0.7);
  ErrorDetails exhausted;
  exhausted.reason = "BUDGET_EXHAUSTED";
  exhausted.metadata = {{"dataset_id", "hospital"},
                        {"request_id", "r3"},
                        {"requested_epsilon", "0.5"},
                        {"requested_epsilon_units", "500000000000"},
                        {"remaining_epsilon", "0.3"},
                        {"remaining_epsilon_units", "300000000000"}};
  exhausted.quota_violations.push_back(
      {"buyer:alice/dataset:hospital", "requested epsilon 0.5, remaining 0.3"});
  EXPECT_EQ(DetailsOf(store_->Reserve(Request("r3", 0.5)).status()), exhausted);

  // A charge that is not the request's epsilon (k_Q x epsilon): both.
  ReserveRequest doubled = Request("r4", 1);
  doubled.requested_units = 500'000'000'000;
  doubled.charge_basis = "2 x 0.5: the dataset publishes an exact cuboid";
  const absl::Status refused = store_->Reserve(doubled).status();
  EXPECT_THAT(refused,
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("requested epsilon 0.5 (charged 1 = 2 x 0.5: "
                                 "the dataset publishes an exact cuboid), "
                                 "remaining 0.3.")));
  EXPECT_EQ(DetailsOf(refused).metadata.at("requested_epsilon"), "0.5");
  EXPECT_EQ(DetailsOf(refused).metadata.at("charged_epsilon"), "1");
  EXPECT_EQ(DetailsOf(refused).metadata.at("charged_epsilon_units"),
            "1000000000000");

  ASSERT_OK(store_->SetDatasetCap("hospital", 0.8));
  ErrorDetails cap;
  cap.reason = "DATASET_CAP_REACHED";
  cap.metadata = {{"dataset_id", "hospital"},
                  {"request_id", "r5"},
                  {"requested_epsilon", "0.2"},
                  {"requested_epsilon_units", "200000000000"},
                  {"cap_epsilon", "0.8"},
                  {"cap_epsilon_units", "800000000000"},
                  {"cap_remaining_epsilon", "0.1"},
                  {"cap_remaining_epsilon_units", "100000000000"},
                  {"remaining_epsilon", "0.3"},
                  {"remaining_epsilon_units", "300000000000"}};
  cap.quota_violations.push_back(
      {"dataset:hospital",
       "requested epsilon 0.2, cap 0.8 over all buyers, of which 0.1 "
       "remains"});
  EXPECT_EQ(DetailsOf(store_->Reserve(Request("r5", 0.2)).status()), cap);

  ReserveRequest reused = Request("r2", 0.7);
  reused.fingerprint = "another request";
  ErrorDetails reused_details;
  reused_details.reason = "REQUEST_ID_REUSED";
  reused_details.metadata = {{"dataset_id", "hospital"}, {"request_id", "r2"}};
  EXPECT_EQ(DetailsOf(store_->Reserve(reused).status()), reused_details);

  ASSERT_OK(store_->SetDatasetCap("hospital", 0));
  ASSERT_OK(store_->Reserve(Request("r6", 0.1)).status());
  ErrorDetails in_progress;
  in_progress.reason = "REQUEST_IN_PROGRESS";
  in_progress.metadata = {{"dataset_id", "hospital"}, {"request_id", "r6"}};
  in_progress.retry_delay_ms = 1000;
  EXPECT_EQ(DetailsOf(store_->Reserve(Request("r6", 0.1)).status()),
            in_progress);
}

}  // namespace
}  // namespace dpq::core::ledger
