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

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"

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

// The contents of the file at `path` ("" if it cannot be read).
inline std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// store_ is open on fresh storage in every test; dir_ is a fresh directory
// for the files of the test (admin.token).
class AccountsStoreTest : public ::testing::TestWithParam<AccountsStoreParam> {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "dpq-accounts-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr) << pattern;
    dir_ = pattern;
    harness_ = GetParam().make_harness();
    ASSERT_NE(harness_, nullptr);
    Reopen();
  }
  void TearDown() override {
    store_.reset();
    harness_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // Closes store_ and opens the storage again (a server restart).
  void Reopen() {
    store_.reset();
    absl::StatusOr<std::unique_ptr<AccountsStore>> store = harness_->Open();
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  std::string dir_;
  std::unique_ptr<AccountsStoreHarness> harness_;
  std::unique_ptr<AccountsStore> store_;  // closed before harness_ goes
};

}  // namespace dpq::server::auth::testing

#endif  // DPQ_TESTS_SERVER_AUTH_ACCOUNTS_STORE_SUITES_H_
