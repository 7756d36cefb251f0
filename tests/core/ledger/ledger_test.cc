#include "core/ledger/ledger.h"

#include "gtest/gtest.h"

namespace dpq::core::ledger {
namespace {

TEST(EntryStateNameTest, NamesEveryState) {
  EXPECT_STREQ(EntryStateName(EntryState::kReserved), "reserved");
  EXPECT_STREQ(EntryStateName(EntryState::kCommitted), "committed");
  EXPECT_STREQ(EntryStateName(EntryState::kRefunded), "refunded");
}

}  // namespace
}  // namespace dpq::core::ledger
