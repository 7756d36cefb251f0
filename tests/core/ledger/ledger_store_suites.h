// The store-agnostic ledger suites: LedgerStoreTest (ledger_store_test.cc),
// ChargedReleaseTest (charged_release_test.cc) and LedgerConcurrencyTest
// (ledger_concurrency_test.cc) test the LedgerStore contract
// (core/ledger/ledger.h) and the charged-release rule on top of it.
// core/ledger has no store of its own, so each store's test links these
// suites (the CMake object library dpq_ledger_store_suites) and
// instantiates them with a harness for its store:
//
//   INSTANTIATE_TEST_SUITE_P(Sqlite, LedgerStoreTest,
//                            ::testing::Values(SqliteParam()));
//
// (tests/server/storage/sqlite_ledger_store_test.cc). A new store (say
// PostgreSQL) writes a harness and the same line for each suite.
#ifndef DPQ_TESTS_CORE_LEDGER_LEDGER_STORE_SUITES_H_
#define DPQ_TESTS_CORE_LEDGER_LEDGER_STORE_SUITES_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"
#include "gtest/gtest.h"

namespace dpq::core::ledger::testing {

// One test's storage: empty when the harness is made, removed when it is
// destroyed. Every Open is a new connection to that same storage, as a
// restarted server or a second server process sharing it would make.
class LedgerStoreHarness {
 public:
  virtual ~LedgerStoreHarness() = default;
  virtual absl::StatusOr<std::unique_ptr<LedgerStore>> Open() = 0;
};

// The suites' parameter: which store, and how to make its harness.
struct LedgerStoreParam {
  const char* name = "";
  std::unique_ptr<LedgerStoreHarness> (*make_harness)() = nullptr;
};

inline void PrintTo(const LedgerStoreParam& param, std::ostream* os) {
  *os << param.name;
}

// Base of the suites: store_ is open on fresh storage in every test.
class LedgerStoreFixture : public ::testing::TestWithParam<LedgerStoreParam> {
 protected:
  void SetUp() override {
    harness_ = GetParam().make_harness();
    ASSERT_NE(harness_, nullptr);
    Reopen();
  }

  // Closes store_ and opens the storage again (a server restart).
  void Reopen() {
    store_.reset();
    store_ = OpenAnother();
    ASSERT_NE(store_, nullptr);
  }

  // A further connection to the same storage (nullptr on failure, which
  // is reported).
  std::unique_ptr<LedgerStore> OpenAnother() {
    absl::StatusOr<std::unique_ptr<LedgerStore>> store = harness_->Open();
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  std::unique_ptr<LedgerStoreHarness> harness_;
  std::unique_ptr<LedgerStore> store_;  // closed before harness_ goes
};

// The suites.

class LedgerStoreTest : public LedgerStoreFixture {
 protected:
  // Reserves and commits; returns the entry id.
  int64_t Charge(const std::string& request_id, double epsilon,
                 const std::string& buyer = "alice",
                 const std::string& dataset = "hospital");
};

class ChargedReleaseTest : public LedgerStoreFixture {
 protected:
  // Grants alice 1 on hospital.
  void SetUp() override;
  // alice's budget on hospital.
  BudgetState Budget();
};

class LedgerConcurrencyTest : public LedgerStoreFixture {};

}  // namespace dpq::core::ledger::testing

#endif  // DPQ_TESTS_CORE_LEDGER_LEDGER_STORE_SUITES_H_
