#include "server/storage/sqlite_accounts_store.h"

#include <sys/stat.h>

#include <memory>
#include <string>

#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "tests/server/auth/accounts_store_suites.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

using ::dpq::server::auth::AccountsStore;
using ::dpq::server::auth::Role;
using ::dpq::server::auth::testing::AccountsStoreHarness;
using ::dpq::server::auth::testing::AccountsStoreParam;
using ::dpq::server::auth::testing::AccountsStoreTest;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::HasSubstr;

// ---------------------------------------------------------------------------
// The store-agnostic suite (tests/server/auth), on an accounts file.

// An accounts file in a fresh directory; every Open is a new store on it.
class SqliteAccountsStoreHarness final : public AccountsStoreHarness {
 public:
  absl::StatusOr<std::unique_ptr<AccountsStore>> Open() override {
    return SqliteAccountsStore::Open(dir_.Sub("accounts.db"));
  }

 private:
  TempDir dir_;
};

std::unique_ptr<AccountsStoreHarness> MakeSqliteHarness() {
  return std::make_unique<SqliteAccountsStoreHarness>();
}

INSTANTIATE_TEST_SUITE_P(Sqlite, AccountsStoreTest,
                         ::testing::Values(AccountsStoreParam{
                             "SqliteAccountsStore", &MakeSqliteHarness}));

// ---------------------------------------------------------------------------
// What only the SQLite store does: its file.

TEST(SqliteAccountsStoreTest, FileIsPrivateAndHoldsOnlyHashes) {
  TempDir dir;
  const std::string db = dir.Sub("accounts.db");
  {
    ASSERT_OK_AND_ASSIGN(auto store, SqliteAccountsStore::Open(db));
    ASSERT_OK(
        store->Create("bob", Role::kBuyer, core::util::Sha256Hex("dpq_secret"))
            .status());
  }
  const std::string bytes = ReadFileOrEmpty(db) + ReadFileOrEmpty(db + "-wal");
  EXPECT_EQ(bytes.find("dpq_secret"), std::string::npos);
  EXPECT_NE(bytes.find(core::util::Sha256Hex("dpq_secret")), std::string::npos);
  struct stat info;
  ASSERT_EQ(stat(db.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
}

TEST(SqliteAccountsStoreTest, OpenNamesAPathItCannotCreate) {
  TempDir dir;
  EXPECT_THAT(SqliteAccountsStore::Open(dir.Sub("no/such/dir/accounts.db")),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Cannot create the accounts database")));
}

}  // namespace
}  // namespace dpq::server::storage
