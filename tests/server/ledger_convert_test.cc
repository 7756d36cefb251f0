#include "server/ledger_convert.h"

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

TEST(LedgerConvertTest, BudgetCarriesRemaining) {
  core::ledger::BudgetState budget;
  budget.buyer_id = "alice";
  budget.dataset_id = "hospital";
  budget.SetUnits(3'000'000'000'000, 1'000'000'000'000, 500'000'000'000);
  const v1::Budget proto = ToProto(budget);
  EXPECT_EQ(proto.granted_units(), 3'000'000'000'000);
  EXPECT_EQ(proto.spent_units(), 1'000'000'000'000);
  EXPECT_EQ(proto.reserved_units(), 500'000'000'000);
  EXPECT_EQ(proto.remaining_units(), 1'500'000'000'000);
  EXPECT_EQ(proto.buyer_id(), "alice");
  EXPECT_EQ(proto.dataset_id(), "hospital");
  EXPECT_DOUBLE_EQ(proto.granted(), 3);
  EXPECT_DOUBLE_EQ(proto.spent(), 1);
  EXPECT_DOUBLE_EQ(proto.reserved(), 0.5);
  EXPECT_DOUBLE_EQ(proto.remaining(), 1.5);
}

TEST(LedgerConvertTest, EntryFieldsAndStates) {
  core::ledger::LedgerEntry entry;
  entry.entry_id = 23;  // the store's global handle: never shown
  entry.buyer_seq = 7;
  entry.buyer_id = "bob";
  entry.dataset_id = "tax";
  entry.request_id = "r1";
  entry.fingerprint = "secret-fingerprint";
  entry.operation = "MeasureInconsistency MI optimized";
  entry.neighbouring = "one row";
  entry.epsilon_units = 250'000'000'000;
  entry.epsilon = 0.25;
  entry.state = core::ledger::EntryState::kReserved;
  entry.created_at = absl::FromUnixMillis(1'700'000'000'123);
  entry.answer = "recorded";
  v1::LedgerEntry proto = ToProto(entry);
  EXPECT_EQ(proto.entry_id(), 7);  // the per-buyer number
  EXPECT_EQ(proto.buyer_id(), "bob");
  EXPECT_EQ(proto.dataset_id(), "tax");
  EXPECT_EQ(proto.request_id(), "r1");
  EXPECT_EQ(proto.operation(), "MeasureInconsistency MI optimized");
  EXPECT_EQ(proto.neighbouring(), "one row");
  EXPECT_DOUBLE_EQ(proto.epsilon(), 0.25);
  EXPECT_EQ(proto.epsilon_units(), 250'000'000'000);
  EXPECT_EQ(proto.state(), v1::LEDGER_ENTRY_STATE_RESERVED);
  EXPECT_EQ(proto.created_at().seconds(), 1'700'000'000);
  EXPECT_EQ(proto.created_at().nanos(), 123'000'000);
  EXPECT_FALSE(proto.has_settled_at());

  entry.state = core::ledger::EntryState::kCommitted;
  entry.settled_at = absl::FromUnixSeconds(1'700'000'001);
  proto = ToProto(entry);
  EXPECT_EQ(proto.state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
  EXPECT_EQ(proto.settled_at().seconds(), 1'700'000'001);
  entry.state = core::ledger::EntryState::kRefunded;
  EXPECT_EQ(ToProto(entry).state(), v1::LEDGER_ENTRY_STATE_REFUNDED);
}

TEST(LedgerConvertTest, TimestampsBeforeTheEpochAndClamped) {
  const google::protobuf::Timestamp before =
      ToTimestamp(absl::FromUnixMillis(-1500));
  EXPECT_EQ(before.seconds(), -2);
  EXPECT_EQ(before.nanos(), 500'000'000);
  EXPECT_EQ(ToTimestamp(absl::InfiniteFuture()).seconds(), 253402300799);
  EXPECT_EQ(ToTimestamp(absl::InfinitePast()).seconds(), -62135596800);
}

// Units pass straight through: a budget far above what a double resolves
// per unit still shows its exact units.
TEST(LedgerConvertTest, LargeAmountsStayExact) {
  core::ledger::BudgetState budget;
  const int64_t granted = 8'999'999'999'999'999'999;  // 9 * 10^6 - 10^-12
  budget.SetUnits(granted, 1, 0);
  const v1::Budget proto = ToProto(budget);
  EXPECT_EQ(proto.granted_units(), granted);
  EXPECT_EQ(proto.remaining_units(), granted - 1);
  EXPECT_EQ(proto.remaining(), static_cast<double>(granted - 1) / 1e12);
}

}  // namespace
}  // namespace dpq::server
