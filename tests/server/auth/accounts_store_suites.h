// The store-agnostic accounts suite: AccountsStoreTest
// (accounts_store_test.cc) tests the AccountsStore contract
// (server/auth/accounts_store.h) and EnsureAdminToken on top of it. Each
// store's test links the suite (the CMake object library
// dpq_accounts_store_suites) and instantiates it with a harness for its
// store:
//
//   INSTANTIATE_TEST_SUITE_P(Sqlite, AccountsStoreTest,
//                            ::testing::Values(SqliteParam()));
//
// (tests/server/storage/sqlite_accounts_store_test.cc and
// postgres_accounts_store_test.cc).
#ifndef DPQ_TESTS_SERVER_AUTH_ACCOUNTS_STORE_SUITES_H_
#define DPQ_TESTS_SERVER_AUTH_ACCOUNTS_STORE_SUITES_H_

#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::auth::testing {

// One test's storage: empty when the harness is made, removed when it is
// destroyed. Every Open is a new store on that same storage, as a
// restarted server would make.
class AccountsStoreHarness {
 public:
  virtual ~AccountsStoreHarness() = default;
  virtual absl::StatusOr<std::unique_ptr<AccountsStore>> Open() = 0;
};

// The suite's parameter: which store, and how to make its harness.
struct AccountsStoreParam {
  const char* name = "";
  std::unique_ptr<AccountsStoreHarness> (*make_harness)() = nullptr;
};

inline void PrintTo(const AccountsStoreParam& param, std::ostream* os) {
  *os << param.name;
}

// store_ is open on fresh storage in every test; dir_ is a fresh directory
// for the files of the test (admin.token).
class AccountsStoreTest : public ::testing::TestWithParam<AccountsStoreParam> {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.empty());
    harness_ = GetParam().make_harness();
    ASSERT_NE(harness_, nullptr);
    Reopen();
  }
  void TearDown() override {
    store_.reset();
    harness_.reset();
  }

  // Closes store_ and opens the storage again (a server restart).
  void Reopen() {
    store_.reset();
    absl::StatusOr<std::unique_ptr<AccountsStore>> store = harness_->Open();
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  ::dpq::testing::TempDir temp_dir_{"dpq-accounts"};
  const std::string dir_ = temp_dir_.path();
  std::unique_ptr<AccountsStoreHarness> harness_;
  std::unique_ptr<AccountsStore> store_;  // closed before harness_ goes
};

}  // namespace dpq::server::auth::testing

#endif  // DPQ_TESTS_SERVER_AUTH_ACCOUNTS_STORE_SUITES_H_
