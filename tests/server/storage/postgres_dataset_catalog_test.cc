#include "server/storage/postgres_dataset_catalog.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/time.h"
#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/storage/postgres_database.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::storage {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TestCluster;
using registry::CatalogEntry;
using registry::CatalogRecord;
using registry::CatalogSnapshot;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// One cluster per test process, a database per test
// (tests/testing/postgres_test_environment.h).
const ::testing::Environment* const kPostgres =
    ::dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 50});

// A record of `id` version `version` holding `data`.
CatalogRecord RecordOf(const std::string& id, uint64_t version,
                       const std::string& data) {
  CatalogRecord record;
  record.entry.dataset_id = id;
  record.entry.version = version;
  record.entry.content_sha256 = core::util::Sha256Hex(data);
  record.kind = "table";
  record.manifest_json = absl::StrCat("{\"dataset_id\": \"", id, "\"}");
  record.state_text = absl::StrCat("version ", version, "\n");
  return record;
}

// The entry Publish made: the record's with the returned revision.
CatalogEntry Published(CatalogRecord record, int64_t revision) {
  record.entry.revision = revision;
  return record.entry;
}

// A fresh database per test.
class PostgresDatasetCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(TestCluster(), nullptr);
    ASSERT_OK_AND_ASSIGN(const std::string dsn,
                         TestCluster()->CreateDatabase());
    PgPool::Options options;
    options.size = 4;
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> pool,
                         PgPool::Open(dsn, options));
    pool_ = std::move(pool);
    ASSERT_OK_AND_ASSIGN(catalog_, PostgresDatasetCatalog::Open(pool_));
  }

  // Publishes a new dataset; returns its entry.
  CatalogEntry Register(const std::string& id, const std::string& data) {
    const CatalogRecord record = RecordOf(id, 1, data);
    absl::StatusOr<int64_t> revision =
        catalog_->Publish(record, data, std::nullopt);
    EXPECT_THAT(revision, IsOk());
    return Published(record, revision.value_or(0));
  }

  int64_t Count(const std::string& sql) {
    absl::StatusOr<PgResult> rows = pool_->Exec(sql);
    EXPECT_THAT(rows, IsOk());
    if (!rows.ok()) return -1;
    return rows->GetInt64(0, 0).value_or(-1);
  }

  std::shared_ptr<PgPool> pool_;
  std::unique_ptr<PostgresDatasetCatalog> catalog_;
};

TEST_F(PostgresDatasetCatalogTest, EmptyCatalogHasVersionZero) {
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(0));
  ASSERT_OK_AND_ASSIGN(const CatalogSnapshot snapshot, catalog_->Snapshot());
  EXPECT_EQ(snapshot.catalog_version, 0);
  EXPECT_TRUE(snapshot.datasets.empty());
}

TEST_F(PostgresDatasetCatalogTest, OpenTwiceKeepsTheData) {
  const CatalogEntry entry = Register("zips", "a,b\n1,2\n");
  ASSERT_OK_AND_ASSIGN(auto again, PostgresDatasetCatalog::Open(pool_));
  ASSERT_OK_AND_ASSIGN(const CatalogSnapshot snapshot, again->Snapshot());
  EXPECT_THAT(snapshot.datasets, ElementsAre(entry));
}

TEST_F(PostgresDatasetCatalogTest, PublishedVersionsAreListedAndFetched) {
  const CatalogEntry zips = Register("zips", "Zip,City\n10,a\n");
  const CatalogEntry net = Register("net", "source,target\na,b\n");
  EXPECT_EQ(zips.revision, 1);
  EXPECT_EQ(net.revision, 2);
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(2));
  ASSERT_OK_AND_ASSIGN(const CatalogSnapshot snapshot, catalog_->Snapshot());
  EXPECT_EQ(snapshot.catalog_version, 2);
  EXPECT_THAT(snapshot.datasets, ElementsAre(net, zips));  // sorted by id

  ASSERT_OK_AND_ASSIGN(const CatalogRecord record, catalog_->FetchRecord(zips));
  EXPECT_EQ(record.entry, zips);
  EXPECT_EQ(record.kind, "table");
  EXPECT_EQ(record.manifest_json, "{\"dataset_id\": \"zips\"}");
  EXPECT_EQ(record.state_text, "version 1\n");
  EXPECT_THAT(catalog_->FetchData(zips), IsOkAndHolds("Zip,City\n10,a\n"));
}

TEST_F(PostgresDatasetCatalogTest, BigVersionsAreStoredInChunks) {
  // 2.5 chunks, with every byte value (bytea is binary-safe).
  std::string data;
  for (size_t i = 0; i < kCatalogChunkBytes * 5 / 2; ++i) {
    data.push_back(static_cast<char>((i * 7 + i / 251) % 256));
  }
  const CatalogEntry entry = Register("big", data);
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 3);
  EXPECT_EQ(Count("SELECT max(length(bytes)) FROM catalog_chunks"),
            static_cast<int64_t>(kCatalogChunkBytes));
  EXPECT_EQ(Count("SELECT byte_size FROM catalog_datasets"),
            static_cast<int64_t>(data.size()));
  ASSERT_OK_AND_ASSIGN(const std::string fetched, catalog_->FetchData(entry));
  EXPECT_TRUE(fetched == data);
}

TEST_F(PostgresDatasetCatalogTest, EmptyDataHasNoChunks) {
  const CatalogEntry entry = Register("empty", "");
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 0);
  EXPECT_THAT(catalog_->FetchData(entry), IsOkAndHolds(""));
}

TEST_F(PostgresDatasetCatalogTest, SecondRegistrationOfAnIdIsAlreadyExists) {
  Register("zips", "v1\n");
  const CatalogRecord other = RecordOf("zips", 1, "other\n");
  EXPECT_THAT(catalog_->Publish(other, "other\n", std::nullopt),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("'zips' already exists")));
  // Nothing of the loser was stored; the counter did not move.
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(1));
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 1);
}

TEST_F(PostgresDatasetCatalogTest,
       ConcurrentRegistrationsOfOneIdHaveOneWinner) {
  constexpr int kRacers = 8;
  absl::Barrier start(kRacers);
  std::atomic<int> won = 0;
  std::atomic<int> lost = 0;
  std::vector<std::thread> racers;
  for (int i = 0; i < kRacers; ++i) {
    racers.emplace_back([&, i] {
      const std::string data = absl::StrCat("racer ", i, "\n");
      start.Block();
      absl::StatusOr<int64_t> r =
          catalog_->Publish(RecordOf("zips", 1, data), data, std::nullopt);
      if (r.ok()) {
        ++won;
      } else if (absl::IsAlreadyExists(r.status())) {
        ++lost;
      } else {
        ADD_FAILURE() << r.status();
      }
    });
  }
  for (std::thread& t : racers) t.join();
  EXPECT_EQ(won, 1);
  EXPECT_EQ(lost, kRacers - 1);
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 1);
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(1));
}

TEST_F(PostgresDatasetCatalogTest, ReplaceStoresTheNewVersionOnly) {
  const CatalogEntry v1 = Register("zips", "old\n");
  const CatalogRecord record = RecordOf("zips", 2, "new\n");
  ASSERT_OK_AND_ASSIGN(const int64_t revision,
                       catalog_->Publish(record, "new\n", uint64_t{1}));
  const CatalogEntry v2 = Published(record, revision);
  ASSERT_OK_AND_ASSIGN(const CatalogSnapshot snapshot, catalog_->Snapshot());
  EXPECT_THAT(snapshot.datasets, ElementsAre(v2));
  EXPECT_THAT(catalog_->FetchData(v2), IsOkAndHolds("new\n"));
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 1);
  // The old version is gone for fetches.
  EXPECT_THAT(catalog_->FetchRecord(v1),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no longer")));
  EXPECT_THAT(catalog_->FetchData(v1),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no longer")));
}

TEST_F(PostgresDatasetCatalogTest, ReplacingAReplacedVersionIsAborted) {
  Register("zips", "old\n");
  ASSERT_THAT(catalog_->Publish(RecordOf("zips", 2, "a\n"), "a\n", uint64_t{1}),
              IsOk());
  EXPECT_THAT(catalog_->Publish(RecordOf("zips", 2, "b\n"), "b\n", uint64_t{1}),
              StatusIs(absl::StatusCode::kAborted,
                       HasSubstr("replaced by another call meanwhile")));
  EXPECT_THAT(catalog_->Publish(RecordOf("gone", 2, "b\n"), "b\n", uint64_t{1}),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("'gone' does not exist")));
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(2));
}

TEST_F(PostgresDatasetCatalogTest, RemoveDeletesTheRowsAndBumpsTheVersion) {
  Register("zips", std::string(kCatalogChunkBytes + 1, 'x'));
  ASSERT_THAT(catalog_->Remove("zips"), IsOk());
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(2));
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_datasets"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM catalog_chunks"), 0);
  EXPECT_THAT(catalog_->Remove("zips"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("'zips' does not exist")));
  EXPECT_THAT(catalog_->CatalogVersion(), IsOkAndHolds(2));
}

TEST_F(PostgresDatasetCatalogTest, RegisteredAgainIsAnotherRevision) {
  const CatalogEntry first = Register("zips", "same\n");
  ASSERT_THAT(catalog_->Remove("zips"), IsOk());
  const CatalogEntry second = Register("zips", "same\n");
  EXPECT_EQ(first.version, second.version);
  EXPECT_NE(first, second);
  EXPECT_THAT(catalog_->FetchRecord(first),
              StatusIs(absl::StatusCode::kNotFound, _));
}

TEST_F(PostgresDatasetCatalogTest, ChangedBytesAreDataLoss) {
  const CatalogEntry entry = Register("zips", "Zip,City\n10,a\n");
  ASSERT_THAT(pool_->Exec("UPDATE catalog_chunks SET bytes = $1",
                          {PgParam::Bytes("Zip,City\n10,b\n")}),
              IsOk());
  EXPECT_THAT(catalog_->FetchData(entry),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("do not match its content hash")));
}

TEST_F(PostgresDatasetCatalogTest, MissingChunkIsDataLoss) {
  const CatalogEntry entry =
      Register("zips", std::string(2 * kCatalogChunkBytes, 'x'));
  ASSERT_THAT(pool_->Exec("DELETE FROM catalog_chunks WHERE seq = 1"), IsOk());
  EXPECT_THAT(catalog_->FetchData(entry),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("chunk 1 of 2 is missing")));
}

TEST_F(PostgresDatasetCatalogTest, StoppedDatabaseIsUnavailable) {
  Register("zips", "a\n");
  ASSERT_THAT(TestCluster()->Stop(), IsOk());
  EXPECT_THAT(catalog_->CatalogVersion(),
              StatusIs(absl::StatusCode::kUnavailable, _));
  EXPECT_THAT(catalog_->Snapshot(),
              StatusIs(absl::StatusCode::kUnavailable, _));
  ASSERT_THAT(TestCluster()->Restart(), IsOk());
  // A pooled connection may notice the restart on its first command only.
  absl::StatusOr<int64_t> version = catalog_->CatalogVersion();
  for (int i = 0; i < 4 && !version.ok(); ++i) {
    version = catalog_->CatalogVersion();
  }
  EXPECT_THAT(version, IsOkAndHolds(1));
}

}  // namespace
}  // namespace dpq::server::storage
