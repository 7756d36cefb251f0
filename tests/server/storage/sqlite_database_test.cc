#include "server/storage/sqlite_database.h"

#include <sqlite3.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

SqliteDatabase::Options TestOptions() {
  SqliteDatabase::Options options;
  options.name = "test database";
  options.busy_timeout = absl::Milliseconds(50);
  return options;
}

std::unique_ptr<SqliteDatabase> OpenOrDie(const std::string& path) {
  absl::StatusOr<std::unique_ptr<SqliteDatabase>> db =
      SqliteDatabase::Open(path, TestOptions());
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? *std::move(db) : nullptr;
}

int Mode(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 ? info.st_mode & 0777 : -1;
}

// The first column of the first row of `sql`, as an integer.
absl::StatusOr<int64_t> QueryInt(SqliteDatabase& db, const std::string& sql) {
  absl::StatusOr<std::unique_ptr<SqliteStatement>> s = db.Prepare(sql);
  if (!s.ok()) return s.status();
  absl::StatusOr<bool> row = (*s)->Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::NotFoundError("no row");
  return (*s)->Int64(0);
}

// Sets the umask for the scope, restoring the old one after.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }

 private:
  const mode_t old_;
};

// A file holding token hashes or a ledger must never be readable by others,
// not even between its creation and a chmod: it is created 0600, so no
// umask widens it and nothing changes its mode afterwards (inotify reports
// any chmod as IN_ATTRIB).
TEST(SqliteDatabaseTest, NewFileIsCreatedOwnerOnlyWithNoChmodAfter) {
  TempDir dir;
  const int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (watch < 0) GTEST_SKIP() << "inotify unavailable: " << errno;
  ASSERT_GE(inotify_add_watch(watch, dir.path().c_str(), IN_CREATE | IN_ATTRIB),
            0);
  const std::string path = dir.Sub("x.db");
  {
    ScopedUmask umask(0);  // SQLite alone would create the file 0644
    std::unique_ptr<SqliteDatabase> db = OpenOrDie(path);
    ASSERT_NE(db, nullptr);
    ASSERT_OK(
        db->Exec("CREATE TABLE t (x); INSERT INTO t VALUES (1);", "writing"));
    EXPECT_EQ(Mode(path), 0600);
    // SQLite gives its -wal and -shm files the database file's mode.
    EXPECT_EQ(Mode(path + "-wal"), 0600);
    EXPECT_EQ(Mode(path + "-shm"), 0600);
  }
  std::vector<std::string> attrib_changes;
  bool created = false;
  alignas(inotify_event) char buffer[4096];
  ssize_t n;
  while ((n = ::read(watch, buffer, sizeof(buffer))) > 0) {
    for (char* p = buffer; p < buffer + n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(p);
      const std::string name = event->len > 0 ? event->name : "";
      if (name == "x.db" && (event->mask & IN_CREATE)) created = true;
      if (name == "x.db" && (event->mask & IN_ATTRIB)) {
        attrib_changes.push_back(name);
      }
      p += sizeof(inotify_event) + event->len;
    }
  }
  ::close(watch);
  EXPECT_TRUE(created);
  EXPECT_THAT(attrib_changes, ::testing::IsEmpty());
}

TEST(SqliteDatabaseTest, ExistingFileKeepsItsMode) {
  TempDir dir;
  const std::string path = dir.Sub("x.db");
  { ASSERT_NE(OpenOrDie(path), nullptr); }
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_NE(OpenOrDie(path), nullptr);
  EXPECT_EQ(Mode(path), 0640);
}

TEST(SqliteDatabaseTest, UsesWalAndFullSync) {
  TempDir dir;
  std::unique_ptr<SqliteDatabase> db = OpenOrDie(dir.Sub("x.db"));
  ASSERT_NE(db, nullptr);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> mode,
                       db->Prepare("PRAGMA journal_mode"));
  ASSERT_THAT(mode->Step(), IsOkAndHolds(true));
  EXPECT_EQ(mode->Text(0), "wal");
  EXPECT_THAT(QueryInt(*db, "PRAGMA synchronous"), IsOkAndHolds(2));  // FULL
  EXPECT_EQ(db->path(), dir.Sub("x.db"));
}

TEST(SqliteDatabaseTest, OpenErrorsNameThePath) {
  TempDir dir;
  EXPECT_THAT(SqliteDatabase::Open("", TestOptions()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The test database path must not be empty")));
  const std::string missing = dir.Sub("no/such/dir/x.db");
  EXPECT_THAT(
      SqliteDatabase::Open(missing, TestOptions()),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("Cannot create the test database '" + missing + "'")));
  const std::string text = dir.Sub("text.db");
  std::ofstream(text) << "this is not a SQLite database, just some text that "
                         "is long enough to have a header\n";
  EXPECT_THAT(
      SqliteDatabase::Open(text, TestOptions()),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("Cannot use '" + text + "' as the test database")));
}

TEST(SqliteDatabaseTest, BindErrorsAreReported) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteDatabase> db,
                       SqliteDatabase::Open(":memory:", TestOptions()));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> s,
                       db->Prepare("SELECT ?1"));
  EXPECT_OK(s->BindInt64(1, 7));
  // SQLITE_RANGE: the statement has no parameter 2 (or 0).
  EXPECT_THAT(s->BindInt64(2, 7),
              StatusIs(absl::StatusCode::kInternal,
                       AllOf(HasSubstr("Test database error while binding "
                                       "integer parameter 2"),
                             HasSubstr("(SQLite code 25)"))));
  EXPECT_THAT(s->BindText(0, "x"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("binding text parameter 0")));
  EXPECT_THAT(s->BindBlob(3, "x"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("binding blob parameter 3")));
  EXPECT_THAT(s->BindDouble(4, 1.5),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("binding real parameter 4")));
  // The good binding stands.
  ASSERT_THAT(s->Step(), IsOkAndHolds(true));
  EXPECT_EQ(s->Int64(0), 7);
}

TEST(SqliteDatabaseTest, StepAndPrepareErrorsAreReported) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteDatabase> db,
                       SqliteDatabase::Open(":memory:", TestOptions()));
  EXPECT_THAT(db->Prepare("SELEKT 1"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("while preparing a statement")));
  EXPECT_THAT(db->Cached("SELEKT 1"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("while preparing a statement")));
  ASSERT_OK(db->Exec("CREATE TABLE t (x INTEGER NOT NULL)", "creating"));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> s,
                       db->Prepare("INSERT INTO t VALUES (?1)"));
  // ?1 left unbound: NULL violates NOT NULL.
  EXPECT_THAT(s->Run(), StatusIs(absl::StatusCode::kInternal,
                                 HasSubstr("NOT NULL constraint failed")));
  EXPECT_THAT(db->Exec("INSERT INTO nope VALUES (1)", "inserting"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("while inserting: no such table")));
}

// Another connection holding the write lock for longer than the busy
// timeout: kUnavailable (retry later), for every way of writing.
TEST(SqliteDatabaseTest, BusyIsUnavailable) {
  TempDir dir;
  const std::string path = dir.Sub("x.db");
  std::unique_ptr<SqliteDatabase> first = OpenOrDie(path);
  std::unique_ptr<SqliteDatabase> second = OpenOrDie(path);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_OK(first->Exec("CREATE TABLE t (x)", "creating"));
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteTransaction> held,
                         first->Begin(/*immediate=*/true));
    EXPECT_THAT(second->Begin(/*immediate=*/true),
                StatusIs(absl::StatusCode::kUnavailable,
                         AllOf(HasSubstr("Test database error while starting "
                                         "a transaction"),
                               HasSubstr("database is locked"))));
    EXPECT_THAT(second->Exec("INSERT INTO t VALUES (1)", "inserting"),
                StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> insert,
                         second->Cached("INSERT INTO t VALUES (?1)"));
    ASSERT_OK(insert->BindInt64(1, 2));
    EXPECT_THAT(insert->Run(),
                StatusIs(absl::StatusCode::kUnavailable,
                         HasSubstr("while executing a statement")));
    ASSERT_OK(held->Commit());
  }
  // Once the lock is released, the same statement goes through.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> insert,
                       second->Cached("INSERT INTO t VALUES (?1)"));
  ASSERT_OK(insert->BindInt64(1, 2));
  EXPECT_OK(insert->Run());
}

TEST(SqliteDatabaseTest, SqliteErrorMapsBusyLockedAndFullToUnavailable) {
  EXPECT_THAT(SqliteError(nullptr, SQLITE_BUSY, "ledger database", "x"),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("Ledger database error while x: ")));
  EXPECT_THAT(SqliteError(nullptr, SQLITE_BUSY_SNAPSHOT, "db", "x"),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  EXPECT_THAT(SqliteError(nullptr, SQLITE_LOCKED, "db", "x"),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  EXPECT_THAT(SqliteError(nullptr, SQLITE_LOCKED_SHAREDCACHE, "db", "x"),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  EXPECT_THAT(
      SqliteError(nullptr, SQLITE_IOERR_FSYNC, "db", "x"),
      StatusIs(absl::StatusCode::kInternal, HasSubstr("(SQLite code 1034)")));
  // A full disk passes once space is freed: retryable, and it says so.
  EXPECT_THAT(SqliteError(nullptr, SQLITE_FULL, "db", "x"),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("The server's disk is full.")));
}

TEST(SqliteDatabaseTest, TransactionRollsBackUnlessCommitted) {
  TempDir dir;
  std::unique_ptr<SqliteDatabase> db = OpenOrDie(dir.Sub("x.db"));
  ASSERT_NE(db, nullptr);
  ASSERT_OK(db->Exec("CREATE TABLE t (x)", "creating"));
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteTransaction> tx,
                         db->Begin(/*immediate=*/true));
    EXPECT_TRUE(db->InTransaction());
    ASSERT_OK(db->Exec("INSERT INTO t VALUES (1)", "inserting"));
    EXPECT_EQ(db->Changes(), 1);
  }  // an early return on error: rolled back
  EXPECT_FALSE(db->InTransaction());
  EXPECT_THAT(QueryInt(*db, "SELECT COUNT(*) FROM t"), IsOkAndHolds(0));
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteTransaction> tx,
                         db->Begin(/*immediate=*/false));
    ASSERT_OK(db->Exec("INSERT INTO t VALUES (1)", "inserting"));
    EXPECT_EQ(db->LastInsertRowId(), 1);
    ASSERT_OK(tx->Commit());
  }
  EXPECT_FALSE(db->InTransaction());
  // Committed means on disk: a new connection reads it.
  db.reset();
  db = OpenOrDie(dir.Sub("x.db"));
  ASSERT_NE(db, nullptr);
  EXPECT_THAT(QueryInt(*db, "SELECT COUNT(*) FROM t"), IsOkAndHolds(1));
}

TEST(SqliteDatabaseTest, CachedStatementsAreResetForTheNextUse) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteDatabase> db,
                       SqliteDatabase::Open(":memory:", TestOptions()));
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> s,
                         db->Cached("SELECT ?1, ?2"));
    ASSERT_OK(s->BindText(1, ""));
    ASSERT_OK(s->BindBlob(2, std::string("a\0b", 3)));
    ASSERT_THAT(s->Step(), IsOkAndHolds(true));
    EXPECT_FALSE(s->IsNull(0));  // "" is bound as '', not NULL
    EXPECT_EQ(s->Text(0), "");
    EXPECT_EQ(s->Blob(1), std::string("a\0b", 3));
  }
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteStatement> s,
                       db->Cached("SELECT ?1, ?2"));
  // Reset, with the bindings cleared: a fresh run sees NULLs.
  ASSERT_THAT(s->Step(), IsOkAndHolds(true));
  EXPECT_TRUE(s->IsNull(0));
  EXPECT_EQ(s->Text(0), "");
  EXPECT_EQ(s->Double(1), 0);
  EXPECT_THAT(s->Step(), IsOkAndHolds(false));
}

}  // namespace
}  // namespace dpq::server::storage
