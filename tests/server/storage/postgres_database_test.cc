#include "server/storage/postgres_database.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::storage {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TestCluster;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// One cluster per test process, a database per test
// (tests/testing/postgres_test_environment.h).
const ::testing::Environment* const kPostgres =
    ::dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 50});

// A fresh database per test.
class PostgresDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(TestCluster(), nullptr);
    absl::StatusOr<std::string> dsn = TestCluster()->CreateDatabase();
    ASSERT_TRUE(dsn.ok()) << dsn.status();
    dsn_ = *dsn;
  }

  std::unique_ptr<PgPool> OpenPool(int size = 4) {
    PgPool::Options options;
    options.size = size;
    options.acquire_timeout = absl::Seconds(20);
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Open(dsn_, options);
    EXPECT_TRUE(pool.ok()) << pool.status();
    return pool.ok() ? *std::move(pool) : nullptr;
  }

  std::string dsn_;
};

constexpr char kSecret[] = "hunter2-do-not-print";

TEST_F(PostgresDatabaseTest, UnreachableServerIsUnavailableWithoutTheDsn) {
  const std::string dsn = absl::StrCat(
      "host=/tmp/dpq-no-such-socket-dir port=5432 dbname=x "
      "user=dpq password=",
      kSecret);
  absl::StatusOr<std::unique_ptr<PgConnection>> conn =
      PgConnection::Connect(dsn, absl::Seconds(2));
  // Nor the host, socket or user: callers may be buyers (the reason goes
  // to the server's log).
  EXPECT_THAT(conn, StatusIs(absl::StatusCode::kUnavailable,
                             AllOf(HasSubstr("PostgreSQL is unreachable"),
                                   Not(HasSubstr(kSecret)),
                                   Not(HasSubstr("dpq-no-such-socket-dir")))));
  EXPECT_THAT(PgPool::Open(dsn), StatusIs(absl::StatusCode::kUnavailable,
                                          Not(HasSubstr(kSecret))));
}

TEST_F(PostgresDatabaseTest, MalformedDsnIsInvalidArgumentWithoutTheDsn) {
  for (const std::string& dsn :
       {absl::StrCat("host=/tmp password=", kSecret, " ", kSecret),
        absl::StrCat("host=/tmp no_such_option=", kSecret),
        absl::StrCat("postgresql://dpq:", kSecret, "@%zz/db"),
        // libpq quotes these with the password inside or around quotes.
        absl::StrCat("postgresql://u:", kSecret, "@[::1]\"x/db"),
        absl::StrCat("postgresql://u:ab\"", kSecret, "@[::1]x/db")}) {
    EXPECT_THAT(
        PgConnection::Connect(dsn),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 AllOf(HasSubstr("malformed"), Not(HasSubstr(kSecret)))))
        << dsn;
  }
}

TEST_F(PostgresDatabaseTest, ParametersRoundTrip) {
  std::unique_ptr<PgPool> pool = OpenPool();
  ASSERT_NE(pool, nullptr);
  ASSERT_OK(pool->Exec("CREATE TABLE t (id BIGINT, name TEXT, n BIGINT, "
                       "data BYTEA)")
                .status());
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>(b));
  ASSERT_OK_AND_ASSIGN(
      PgResult insert,
      pool->Exec("INSERT INTO t VALUES ($1, $2, $3, $4)",
                 {PgParam::Int(-9007199254740993), PgParam::Text("zoë's 'x'"),
                  PgParam::Null(), PgParam::Bytes(all_bytes)}));
  EXPECT_EQ(insert.affected(), 1);

  ASSERT_OK_AND_ASSIGN(PgResult r, pool->Exec("SELECT id, name, n FROM t"));
  ASSERT_EQ(r.rows(), 1);
  ASSERT_EQ(r.columns(), 3);
  EXPECT_THAT(r.GetInt64(0, 0), IsOkAndHolds(-9007199254740993));
  EXPECT_EQ(r.Get(0, 1), "zoë's 'x'");
  EXPECT_TRUE(r.IsNull(0, 2));
  EXPECT_FALSE(r.IsNull(0, 1));
  EXPECT_THAT(r.GetInt64(0, 2),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("'n'")));

  ASSERT_OK_AND_ASSIGN(PgResult bytes,
                       pool->Exec("SELECT data FROM t", {}, true));
  ASSERT_EQ(bytes.rows(), 1);
  EXPECT_EQ(bytes.Get(0, 0), all_bytes);

  ASSERT_OK_AND_ASSIGN(
      PgResult flags,
      pool->Exec("SELECT $1::bigint > 0, n IS NULL FROM t", {PgParam::Int(5)}));
  EXPECT_THAT(flags.GetBool(0, 0), IsOkAndHolds(true));
  EXPECT_THAT(flags.GetBool(0, 1), IsOkAndHolds(true));
}

TEST_F(PostgresDatabaseTest, UniqueViolationIsFailedPreconditionWithSqlState) {
  std::unique_ptr<PgPool> pool = OpenPool();
  ASSERT_NE(pool, nullptr);
  ASSERT_OK(pool->Exec("CREATE TABLE u (k TEXT PRIMARY KEY)").status());
  ASSERT_OK(
      pool->Exec("INSERT INTO u VALUES ($1)", {PgParam::Text("a")}).status());
  absl::StatusOr<PgResult> again =
      pool->Exec("INSERT INTO u VALUES ($1)", {PgParam::Text("a")});
  EXPECT_THAT(again, StatusIs(absl::StatusCode::kFailedPrecondition,
                              HasSubstr("23505")));
  EXPECT_EQ(SqlStateOf(again.status()), "23505");
  EXPECT_EQ(SqlStateOf(absl::InternalError("x")), "");

  absl::StatusOr<PgResult> syntax = pool->Exec("SELEKT 1");
  EXPECT_THAT(syntax,
              StatusIs(absl::StatusCode::kInternal, HasSubstr("42601")));
  // The failed commands left the connection usable.
  EXPECT_OK(pool->Exec("SELECT 1").status());
}

TEST_F(PostgresDatabaseTest, TransactionRollsBackWhenTheBodyFails) {
  std::unique_ptr<PgPool> pool = OpenPool();
  ASSERT_NE(pool, nullptr);
  ASSERT_OK(pool->Exec("CREATE TABLE r (k INT)").status());
  const absl::Status failed = pool->Transaction([](PgConnection& c) {
    absl::Status s = c.Exec("INSERT INTO r VALUES (1)").status();
    if (!s.ok()) return s;
    return absl::NotFoundError("the body gives up");
  });
  EXPECT_THAT(failed,
              StatusIs(absl::StatusCode::kNotFound, "the body gives up"));
  ASSERT_OK_AND_ASSIGN(PgResult count, pool->Exec("SELECT count(*) FROM r"));
  EXPECT_THAT(count.GetInt64(0, 0), IsOkAndHolds(0));

  EXPECT_OK(pool->Transaction([](PgConnection& c) {
    return c.Exec("INSERT INTO r VALUES (1)").status();
  }));
  ASSERT_OK_AND_ASSIGN(PgResult after, pool->Exec("SELECT count(*) FROM r"));
  EXPECT_THAT(after.GetInt64(0, 0), IsOkAndHolds(1));
}

// Both transactions read the counter before either writes (the barrier),
// so SERIALIZABLE must fail one of them with 40001; Transaction retries it
// and both increments land.
TEST_F(PostgresDatabaseTest, TransactionRetriesASerializationFailure) {
  std::unique_ptr<PgPool> pool = OpenPool(2);
  ASSERT_NE(pool, nullptr);
  ASSERT_OK(
      pool->Exec("CREATE TABLE counter (id INT PRIMARY KEY, v INT)").status());
  ASSERT_OK(pool->Exec("INSERT INTO counter VALUES (1, 0)").status());

  absl::Barrier* both_read = new absl::Barrier(2);  // Block() deletes it
  std::atomic<int> attempts{0};
  auto increment = [&](PgConnection& c) -> absl::Status {
    const bool first = attempts.fetch_add(1) < 2;
    absl::StatusOr<PgResult> r = c.Exec("SELECT v FROM counter WHERE id = 1");
    if (!r.ok()) return r.status();
    absl::StatusOr<int64_t> v = r->GetInt64(0, 0);
    if (!v.ok()) return v.status();
    if (first && both_read->Block()) delete both_read;
    return c
        .Exec("UPDATE counter SET v = $1 WHERE id = 1", {PgParam::Int(*v + 1)})
        .status();
  };
  absl::Status results[2];
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      results[i] = pool->Transaction(increment, PgIsolation::kSerializable);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_OK(results[0]);
  EXPECT_OK(results[1]);
  EXPECT_EQ(attempts.load(), 3);
  ASSERT_OK_AND_ASSIGN(PgResult r, pool->Exec("SELECT v FROM counter"));
  EXPECT_THAT(r.GetInt64(0, 0), IsOkAndHolds(2));
}

TEST_F(PostgresDatabaseTest, TransactionReturnsOtherErrorsWithoutRetrying) {
  std::unique_ptr<PgPool> pool = OpenPool();
  ASSERT_NE(pool, nullptr);
  int calls = 0;
  EXPECT_THAT(pool->Transaction([&](PgConnection& c) {
    ++calls;
    return c.Exec("SELECT 1 / 0").status();
  }),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("22012")));
  EXPECT_EQ(calls, 1);
}

constexpr absl::string_view kSteps[] = {
    "CREATE TABLE m (x INT); SELECT pg_sleep(0.2)",
    "INSERT INTO m VALUES (1)",
};

absl::StatusOr<int64_t> Count(PgPool& pool, absl::string_view sql) {
  absl::StatusOr<PgResult> r = pool.Exec(sql);
  if (!r.ok()) return r.status();
  return r->GetInt64(0, 0);
}

// Without the advisory lock both would create m (one fails) or insert
// twice; the sleep in step 1 makes the two runs overlap.
TEST_F(PostgresDatabaseTest, MigrationsRacingFromTwoPoolsApplyEachStepOnce) {
  std::unique_ptr<PgPool> a = OpenPool();
  std::unique_ptr<PgPool> b = OpenPool();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  absl::Status results[2];
  std::thread ta([&] { results[0] = ApplyMigrations(*a, "test", kSteps); });
  std::thread tb([&] { results[1] = ApplyMigrations(*b, "test", kSteps); });
  ta.join();
  tb.join();
  EXPECT_OK(results[0]);
  EXPECT_OK(results[1]);
  EXPECT_THAT(Count(*a, "SELECT count(*) FROM m"), IsOkAndHolds(1));
  EXPECT_THAT(Count(*a,
                    "SELECT version FROM dpq_schema WHERE "
                    "component = 'test'"),
              IsOkAndHolds(2));

  // Idempotent; a newer step applies alone; other components are apart.
  EXPECT_OK(ApplyMigrations(*a, "test", kSteps));
  EXPECT_THAT(Count(*a, "SELECT count(*) FROM m"), IsOkAndHolds(1));
  constexpr absl::string_view kThree[] = {kSteps[0], kSteps[1],
                                          "INSERT INTO m VALUES (3)"};
  EXPECT_OK(ApplyMigrations(*b, "test", kThree));
  EXPECT_THAT(Count(*a, "SELECT count(*) FROM m"), IsOkAndHolds(2));
  constexpr absl::string_view kOther[] = {"CREATE TABLE o (y INT)"};
  EXPECT_OK(ApplyMigrations(*a, "other", kOther));
  EXPECT_THAT(Count(*a,
                    "SELECT version FROM dpq_schema WHERE "
                    "component = 'other'"),
              IsOkAndHolds(1));

  // An older dpq-server refuses the newer schema.
  EXPECT_THAT(ApplyMigrations(*a, "test", kSteps),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("version 3"), HasSubstr("upgrade"))));
}

TEST_F(PostgresDatabaseTest, AFailedMigrationStepRollsBackAndUnlocks) {
  std::unique_ptr<PgPool> a = OpenPool(1);
  ASSERT_NE(a, nullptr);
  constexpr absl::string_view kBad[] = {
      "CREATE TABLE ok1 (x INT)",
      "CREATE TABLE half (x INT); INSERT INTO nowhere VALUES (1)"};
  EXPECT_THAT(ApplyMigrations(*a, "bad", kBad),
              StatusIs(absl::StatusCode::kInternal,
                       AllOf(HasSubstr("version 2"), HasSubstr("nowhere"))));
  EXPECT_THAT(Count(*a,
                    "SELECT version FROM dpq_schema WHERE "
                    "component = 'bad'"),
              IsOkAndHolds(1));
  EXPECT_THAT(Count(*a,
                    "SELECT count(*) FROM pg_tables WHERE "
                    "tablename = 'half'"),
              IsOkAndHolds(0));
  // The lock was released: another pool (another session) gets it at once.
  std::unique_ptr<PgPool> b = OpenPool(1);
  ASSERT_NE(b, nullptr);
  EXPECT_THAT(Count(*b,
                    "SELECT count(*) FROM pg_locks WHERE "
                    "locktype = 'advisory'"),
              IsOkAndHolds(0));
  constexpr absl::string_view kFixed[] = {kBad[0], "CREATE TABLE half (x INT)"};
  EXPECT_OK(ApplyMigrations(*b, "bad", kFixed));
}

TEST_F(PostgresDatabaseTest, PoolWaitsForAFreeConnectionThenTimesOut) {
  PgPool::Options options;
  options.size = 1;
  options.acquire_timeout = absl::Milliseconds(200);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> pool,
                       PgPool::Open(dsn_, options));
  {
    ASSERT_OK_AND_ASSIGN(PgPool::Lease held, pool->Acquire());
    EXPECT_THAT(pool->Acquire(),
                StatusIs(absl::StatusCode::kUnavailable, HasSubstr("busy")));
  }
  EXPECT_OK(pool->Acquire().status());
}

TEST_F(PostgresDatabaseTest, ServerDownIsUnavailableAndThePoolRecovers) {
  std::unique_ptr<PgPool> pool = OpenPool(2);
  ASSERT_NE(pool, nullptr);
  {
    // Two idle connections, both stale once the server stops.
    ASSERT_OK_AND_ASSIGN(PgPool::Lease one, pool->Acquire());
    ASSERT_OK_AND_ASSIGN(PgPool::Lease two, pool->Acquire());
  }
  ASSERT_OK(TestCluster()->Stop());
  EXPECT_THAT(pool->Exec("SELECT 1"),
              StatusIs(absl::StatusCode::kUnavailable,
                       AllOf(HasSubstr("PostgreSQL is unreachable"),
                             Not(HasSubstr(dsn_)))));
  EXPECT_THAT(
      pool->Transaction(
          [](PgConnection& c) { return c.Exec("SELECT 1").status(); }),
      StatusIs(absl::StatusCode::kUnavailable, HasSubstr("unreachable")));
  ASSERT_OK(TestCluster()->Restart());
  EXPECT_OK(pool->Exec("SELECT 1").status());
  EXPECT_OK(pool->Transaction(
      [](PgConnection& c) { return c.Exec("SELECT 1").status(); }));
}

// A restart while the pool sat idle costs no failed call: the stale
// connections are noticed before use.
TEST_F(PostgresDatabaseTest, RestartWhileIdleCostsNoFailedCall) {
  std::unique_ptr<PgPool> pool = OpenPool(2);
  ASSERT_NE(pool, nullptr);
  {
    ASSERT_OK_AND_ASSIGN(PgPool::Lease one, pool->Acquire());
    ASSERT_OK_AND_ASSIGN(PgPool::Lease two, pool->Acquire());
  }
  ASSERT_OK(TestCluster()->Stop());
  ASSERT_OK(TestCluster()->Restart());
  EXPECT_OK(pool->Exec("SELECT 1").status());
  EXPECT_OK(pool->Exec("SELECT 1").status());
}

}  // namespace
}  // namespace dpq::server::storage
