// Two DatasetRegistry instances (two replicas: two data directories) on one
// PostgreSQL catalog: what one registers, replaces or deletes, the other
// serves or refuses within a second.
#include <atomic>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/barrier.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/dataset_registry.h"
#include "server/storage/postgres_database.h"
#include "server/storage/postgres_dataset_catalog.h"
#include "tests/testing/files.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOk;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::TestCluster;
using ::dpq::testing::WriteFileOrDie;
using storage::PgParam;
using storage::PgPool;
using storage::PostgresDatasetCatalog;
using ::testing::_;
using ::testing::AllOf;
using ::testing::HasSubstr;

// The bound the service promises for small datasets.
constexpr absl::Duration kPropagation = absl::Seconds(1);

constexpr char kCsv[] =
    "Zip,City,Score\n"
    "10,a,1\n"
    "10,a,2\n"
    "10,b,3\n"
    "20,c,4\n";
constexpr char kCsv2[] =
    "Zip,City,Score\n"
    "10,a,1\n"
    "10,b,3\n"
    "20,c,4\n"
    "20,d,5\n"
    "30,e,6\n";
constexpr char kEdges[] =
    "source,target\n"
    "a,b\n"
    "b,c\n"
    "c,a\n";

// One cluster per test process, a database per test
// (tests/testing/postgres_test_environment.h).
const ::testing::Environment* const kPostgres =
    ::dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 50});

v1::DatasetManifest TableManifest(const std::string& id = "zips") {
  v1::DatasetManifest m;
  m.set_dataset_id(id);
  m.set_description("zip codes");
  m.set_constraints("Zip -> City\n");
  m.set_public_max_rows(100);
  m.set_infer_column_types(true);
  return m;
}

v1::DatasetManifest GraphManifest(const std::string& id = "net") {
  v1::DatasetManifest m;
  m.set_dataset_id(id);
  m.set_kind(v1::DATASET_KIND_GRAPH);
  for (const char* node : {"a", "b", "c", "d"}) m.add_node_labels(node);
  return m;
}

// Polls `done` until it holds or `limit` passes; returns the time it took
// (InfiniteDuration if it never held).
absl::Duration TimeUntil(const std::function<bool()>& done,
                         absl::Duration limit = absl::Seconds(10)) {
  const absl::Time start = absl::Now();
  while (absl::Now() - start < limit) {
    if (done()) return absl::Now() - start;
    absl::SleepFor(absl::Milliseconds(10));
  }
  return absl::InfiniteDuration();
}

// Each test: a fresh database, replicas A and B with their own data
// directories.
class CatalogSyncTest : public ::testing::Test {
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
    for (const char* replica : {"a", "b", "c"}) {
      fs::create_directories(root_ / replica);
    }
  }

  RegistryOptions OptionsFor(const std::string& replica) const {
    RegistryOptions options;
    options.data_dir = (root_ / replica).string();
    options.graph_threads = 1;
    options.catalog = catalog_;
    return options;
  }

  std::unique_ptr<DatasetRegistry> OpenReplica(
      const std::string& replica,
      absl::Duration poll = absl::Milliseconds(250)) {
    RegistryOptions options = OptionsFor(replica);
    options.catalog_poll_interval = poll;
    absl::StatusOr<std::unique_ptr<DatasetRegistry>> r =
        DatasetRegistry::Open(options);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? *std::move(r) : nullptr;
  }

  fs::path CachedFile(const std::string& replica, const std::string& id,
                      const std::string& file) const {
    return root_ / replica / "datasets" / id / file;
  }

  std::shared_ptr<PgPool> pool_;
  std::shared_ptr<PostgresDatasetCatalog> catalog_;
  TempDir temp_dir_{"dpq-catalog-sync"};
  const fs::path root_{temp_dir_.path()};
};

// The same frozen version on both replicas.
void ExpectSameVersion(const LoadedDataset& a, const LoadedDataset& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.registered_at, b.registered_at);
  EXPECT_EQ(a.csv_bytes, b.csv_bytes);
  EXPECT_EQ(a.manifest.SerializeAsString(), b.manifest.SerializeAsString());
  EXPECT_EQ(a.PublicInfo().SerializeAsString(),
            b.PublicInfo().SerializeAsString());
}

TEST_F(CatalogSyncTest, RegistrationThroughAIsServedByBWithinOneSecond) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  ASSERT_OK_AND_ASSIGN(auto registered, a->Register(TableManifest(), kCsv));
  const absl::Duration took = TimeUntil([&] { return b->Contains("zips"); });
  EXPECT_LT(took, kPropagation);
  ASSERT_OK_AND_ASSIGN(auto served, b->Get("zips"));
  ExpectSameVersion(*registered, *served);
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "zips", "data.csv")), kCsv);
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "zips", "manifest.json")),
            ReadFileOrEmpty(CachedFile("a", "zips", "manifest.json")));
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "zips", "state.txt")),
            ReadFileOrEmpty(CachedFile("a", "zips", "state.txt")));
  // B builds the conflict graph in the background, the same as A's.
  ASSERT_THAT(served->WaitForConflictGraph(absl::InfiniteFuture()), IsOk());
  EXPECT_EQ(served->Stats().edges(), registered->Stats().edges());
  EXPECT_EQ(served->Stats().edges(), 2u);
  std::cout << "propagation of a registration: " << took << "\n";
}

// B's cache cannot hold a new version (its disk is full): B does not serve
// it, says so in dpq_datasets_uncached, retries at every poll although the
// catalog does not change, and serves it once space is back, without a
// restart. (Before, the version was marked failed and never retried.)
TEST_F(CatalogSyncTest, ACacheThatCannotWriteRetriesAndRecovers) {
  std::atomic<bool> full{true};
  std::atomic<int> attempts{0};
  RegistryOptions options = OptionsFor("b");
  options.catalog_poll_interval = absl::Milliseconds(100);
  options.before_cache_write = [&](const std::string&) {
    ++attempts;
    return full ? absl::ResourceExhaustedError("No space left on device")
                : absl::OkStatus();
  };
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> b,
                       DatasetRegistry::Open(options));
  auto a = OpenReplica("a");
  ASSERT_OK(a->Register(TableManifest(), kCsv).status());
  EXPECT_NE(TimeUntil([&] { return attempts.load() >= 3; }),
            absl::InfiniteDuration());
  EXPECT_FALSE(b->Contains("zips"));
  full = false;
  const absl::Duration took = TimeUntil([&] { return b->Contains("zips"); });
  EXPECT_LT(took, kPropagation);
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "zips", "data.csv")), kCsv);
}

TEST_F(CatalogSyncTest, ReplacementThroughAIsServedByB) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  ASSERT_NE(TimeUntil([&] { return b->Contains("zips"); }),
            absl::InfiniteDuration());
  ASSERT_OK_AND_ASSIGN(auto replaced, a->Replace(TableManifest(), kCsv2));
  EXPECT_EQ(replaced->version, 2u);
  const absl::Duration took = TimeUntil([&] {
    absl::StatusOr<std::shared_ptr<const LoadedDataset>> d = b->Get("zips");
    return d.ok() && (*d)->version == 2;
  });
  EXPECT_LT(took, kPropagation);
  ASSERT_OK_AND_ASSIGN(auto served, b->Get("zips"));
  ExpectSameVersion(*replaced, *served);
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "zips", "data.csv")), kCsv2);
  // Replacing through B now builds on version 2.
  ASSERT_OK_AND_ASSIGN(auto third, b->Replace(TableManifest(), kCsv));
  EXPECT_EQ(third->version, 3u);
}

TEST_F(CatalogSyncTest, DeletionThroughAIsRefusedByBWithinOneSecond) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  ASSERT_NE(TimeUntil([&] { return b->Contains("zips"); }),
            absl::InfiniteDuration());
  ASSERT_THAT(a->Delete("zips"), IsOk());
  const absl::Duration took = TimeUntil([&] { return !b->Contains("zips"); });
  EXPECT_LT(took, kPropagation);
  EXPECT_THAT(b->Get("zips"), StatusIs(absl::StatusCode::kNotFound, _));
  // The cached copy goes in the reconciliation that follows the refusal
  // (a step behind it under a slow build such as ASan's).
  EXPECT_LT(TimeUntil([&] {
              return !fs::exists(CachedFile("b", "zips", "data.csv"));
            }),
            kPropagation);
  // Deleting through B once more: the catalog says it does not exist.
  EXPECT_THAT(b->Delete("zips"), StatusIs(absl::StatusCode::kNotFound,
                                          HasSubstr("does not exist")));
}

TEST_F(CatalogSyncTest, DeleteThroughBBeforeItPolledRemovesItEverywhere) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b", absl::Hours(1));  // never polls in this test
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  EXPECT_FALSE(b->Contains("zips"));
  ASSERT_THAT(b->Delete("zips"), IsOk());
  EXPECT_LT(TimeUntil([&] { return !a->Contains("zips"); }), kPropagation);
}

TEST_F(CatalogSyncTest, WritesSeeChangesOfOtherReplicasAtOnce) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b", absl::Hours(1));  // never polls in this test
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  // B catches up before it checks, instead of waiting for its poll.
  EXPECT_THAT(b->Register(TableManifest(), kCsv2),
              StatusIs(absl::StatusCode::kAlreadyExists, _));
  ASSERT_OK_AND_ASSIGN(auto replaced, b->Replace(TableManifest(), kCsv2));
  EXPECT_EQ(replaced->version, 2u);
}

TEST_F(CatalogSyncTest, ConcurrentRegistrationsOfOneIdHaveOneWinner) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  absl::Barrier start(2);
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> through_a, through_b;
  std::thread ta([&] {
    start.Block();
    through_a = a->Register(TableManifest(), kCsv);
  });
  std::thread tb([&] {
    start.Block();
    through_b = b->Register(TableManifest(), kCsv2);
  });
  ta.join();
  tb.join();
  ASSERT_NE(through_a.ok(), through_b.ok())
      << through_a.status() << " / " << through_b.status();
  const auto& loser = through_a.ok() ? through_b : through_a;
  EXPECT_THAT(loser, StatusIs(absl::StatusCode::kAlreadyExists, _));
  const std::shared_ptr<const LoadedDataset> winner =
      through_a.ok() ? *through_a : *through_b;
  // Both serve the winner's version.
  for (DatasetRegistry* r : {a.get(), b.get()}) {
    EXPECT_NE(TimeUntil([&] {
                absl::StatusOr<std::shared_ptr<const LoadedDataset>> d =
                    r->Get("zips");
                return d.ok() && (*d)->registered_at == winner->registered_at;
              }),
              absl::InfiniteDuration());
  }
  ASSERT_OK_AND_ASSIGN(auto on_a, a->Get("zips"));
  ASSERT_OK_AND_ASSIGN(auto on_b, b->Get("zips"));
  ExpectSameVersion(*on_a, *on_b);
}

TEST_F(CatalogSyncTest, GraphDatasetIsServedByB) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  ASSERT_OK_AND_ASSIGN(auto registered, a->Register(GraphManifest(), kEdges));
  EXPECT_LT(TimeUntil([&] { return b->Contains("net"); }), kPropagation);
  ASSERT_OK_AND_ASSIGN(auto served, b->Get("net"));
  EXPECT_TRUE(served->is_graph());
  EXPECT_EQ(served->edge_graph.graph.num_nodes(), 4u);
  EXPECT_EQ(served->edge_graph.graph.num_edges(), 3u);
  ExpectSameVersion(*registered, *served);
}

TEST_F(CatalogSyncTest, RestartWithStaleOrCorruptCacheFetchesAgain) {
  auto a = OpenReplica("a");
  ASSERT_THAT(a->Register(TableManifest("stale"), kCsv), IsOk());
  ASSERT_THAT(a->Register(TableManifest("corrupt"), kCsv), IsOk());
  ASSERT_THAT(a->Register(TableManifest("kept"), kCsv), IsOk());
  ASSERT_THAT(a->Register(TableManifest("deleted"), kCsv), IsOk());
  auto b = OpenReplica("b");
  ASSERT_TRUE(b->Contains("deleted"));
  b.reset();
  // While B is down: a replacement and a deletion through A, and damage
  // to B's cache.
  ASSERT_THAT(a->Replace(TableManifest("stale"), kCsv2), IsOk());
  ASSERT_THAT(a->Delete("deleted"), IsOk());
  WriteFileOrDie(CachedFile("b", "corrupt", "data.csv"),
                 "Zip,City,Score\n10,a,1\n");
  WriteFileOrDie(CachedFile("b", "kept", "state.txt"), "garbage\n");
  fs::create_directories(root_ / "b" / "datasets" / "leftover");

  b = OpenReplica("b");
  ASSERT_NE(b, nullptr);
  ASSERT_OK_AND_ASSIGN(auto stale, b->Get("stale"));
  EXPECT_EQ(stale->version, 2u);
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "stale", "data.csv")), kCsv2);
  ASSERT_OK_AND_ASSIGN(auto corrupt, b->Get("corrupt"));
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "corrupt", "data.csv")), kCsv);
  ASSERT_OK_AND_ASSIGN(auto on_a, a->Get("corrupt"));
  ExpectSameVersion(*on_a, *corrupt);
  ASSERT_OK_AND_ASSIGN(auto kept, b->Get("kept"));
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "kept", "state.txt")),
            ReadFileOrEmpty(CachedFile("a", "kept", "state.txt")));
  EXPECT_FALSE(b->Contains("deleted"));
  EXPECT_FALSE(fs::exists(root_ / "b" / "datasets" / "deleted"));
  EXPECT_FALSE(fs::exists(root_ / "b" / "datasets" / "leftover"));
}

TEST_F(CatalogSyncTest, BytesChangedInTheDatabaseAreNeverServed) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b", absl::Hours(1));  // syncs only when told
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  // Same size, one digit changed: only the content hash tells.
  std::string changed = kCsv;
  changed[changed.size() - 2] = '9';
  ASSERT_THAT(pool_->Exec("UPDATE catalog_chunks SET bytes = $1",
                          {PgParam::Bytes(changed)}),
              IsOk());
  // The poll path: logged, not served, and B keeps working.
  EXPECT_THAT(b->SyncWithCatalog(), IsOk());
  EXPECT_THAT(b->Get("zips"), StatusIs(absl::StatusCode::kNotFound, _));
  EXPECT_FALSE(fs::exists(CachedFile("b", "zips", "data.csv")));
  ASSERT_THAT(b->Register(GraphManifest(), kEdges), IsOk());
  // A start: refused, naming the dataset.
  RegistryOptions options = OptionsFor("c");
  EXPECT_THAT(DatasetRegistry::Open(options),
              StatusIs(absl::StatusCode::kDataLoss,
                       AllOf(HasSubstr("'zips'"),
                             HasSubstr("do not match its content hash"))));
  // A replacement through A repairs it for everyone.
  ASSERT_THAT(a->Replace(TableManifest(), kCsv2), IsOk());
  EXPECT_THAT(b->SyncWithCatalog(), IsOk());
  EXPECT_TRUE(b->Contains("zips"));
}

TEST_F(CatalogSyncTest, PollIntervalMustBePositive) {
  RegistryOptions options = OptionsFor("a");
  options.catalog_poll_interval = absl::ZeroDuration();
  EXPECT_THAT(DatasetRegistry::Open(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("catalog_poll_interval")));
}

TEST_F(CatalogSyncTest, EmbeddedDataDirectoryIsNeverDeleted) {
  {
    RegistryOptions embedded = OptionsFor("b");
    embedded.catalog = nullptr;
    ASSERT_OK_AND_ASSIGN(auto r, DatasetRegistry::Open(embedded));
    ASSERT_THAT(r->Register(TableManifest("mine"), kCsv), IsOk());
  }
  EXPECT_THAT(DatasetRegistry::Open(OptionsFor("b")),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("'mine'"), HasSubstr("import"))));
  EXPECT_EQ(ReadFileOrEmpty(CachedFile("b", "mine", "data.csv")), kCsv);
}

// The catalog of `inner`, except that one call on `held_id` (a Publish:
// a long upload, during which the registering replica holds its write
// lock; or, once Hold() was called, a FetchData: a large version being
// fetched) waits until Release().
class GatedCatalog final : public DatasetCatalog {
 public:
  enum class Gate { kPublish, kFetchData };
  GatedCatalog(std::shared_ptr<DatasetCatalog> inner, std::string held_id,
               Gate gate)
      : inner_(std::move(inner)),
        held_id_(std::move(held_id)),
        gate_(gate),
        holding_(gate == Gate::kPublish) {}

  absl::StatusOr<int64_t> CatalogVersion() override {
    return inner_->CatalogVersion();
  }
  absl::StatusOr<CatalogSnapshot> Snapshot() override {
    return inner_->Snapshot();
  }
  absl::StatusOr<CatalogRecord> FetchRecord(
      const CatalogEntry& entry) override {
    return inner_->FetchRecord(entry);
  }
  absl::StatusOr<std::string> FetchData(const CatalogEntry& entry) override {
    if (gate_ == Gate::kFetchData) Wait(entry.dataset_id);
    return inner_->FetchData(entry);
  }
  absl::StatusOr<int64_t> Publish(const CatalogRecord& record,
                                  absl::string_view data,
                                  std::optional<uint64_t> replaces) override {
    if (gate_ == Gate::kPublish) Wait(record.entry.dataset_id);
    return inner_->Publish(record, data, replaces);
  }
  absl::Status Remove(const std::string& dataset_id) override {
    return inner_->Remove(dataset_id);
  }

  void Hold() {
    absl::MutexLock lock(&mu_);
    holding_ = true;
  }
  void WaitUntilHeld() {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(&entered_));
  }
  void Release() {
    absl::MutexLock lock(&mu_);
    released_ = true;
  }

 private:
  void Wait(const std::string& dataset_id) {
    if (dataset_id != held_id_) return;
    absl::MutexLock lock(&mu_);
    if (!holding_) return;
    entered_ = true;
    mu_.Await(absl::Condition(&released_));
  }

  const std::shared_ptr<DatasetCatalog> inner_;
  const std::string held_id_;
  const Gate gate_;
  absl::Mutex mu_;
  bool holding_ ABSL_GUARDED_BY(mu_);
  bool entered_ ABSL_GUARDED_BY(mu_) = false;
  bool released_ ABSL_GUARDED_BY(mu_) = false;
};

TEST_F(CatalogSyncTest, LongUploadOnBDelaysNoDeletionNorServesAGap) {
  auto a = OpenReplica("a");
  auto slow = std::make_shared<GatedCatalog>(catalog_, "big",
                                             GatedCatalog::Gate::kPublish);
  RegistryOptions options = OptionsFor("b");
  options.catalog = slow;
  options.catalog_poll_interval = absl::Milliseconds(250);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> b,
                       DatasetRegistry::Open(options));
  ASSERT_THAT(a->Register(TableManifest("gone"), kCsv), IsOk());
  ASSERT_THAT(a->Register(TableManifest("zips"), kCsv), IsOk());
  ASSERT_NE(
      TimeUntil([&] { return b->Contains("gone") && b->Contains("zips"); }),
      absl::InfiniteDuration());

  // B uploads "big" and holds its write lock until Release().
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> big;
  std::thread upload([&] { big = b->Register(TableManifest("big"), kCsv2); });
  slow->WaitUntilHeld();

  ASSERT_THAT(a->Delete("gone"), IsOk());
  EXPECT_LT(TimeUntil([&] { return !b->Contains("gone"); }, absl::Seconds(3)),
            kPropagation);
  EXPECT_THAT(b->Get("gone"), StatusIs(absl::StatusCode::kNotFound, _));

  // Replaced through A: B cannot load version 2 before its upload ends,
  // and serves version 1 meanwhile (never a gap).
  ASSERT_THAT(a->Replace(TableManifest("zips"), kCsv2), IsOk());
  const absl::Time replaced = absl::Now();
  while (absl::Now() - replaced < absl::Seconds(1)) {
    absl::StatusOr<std::shared_ptr<const LoadedDataset>> d = b->Get("zips");
    EXPECT_THAT(d, IsOk());
    if (!d.ok()) break;            // the upload thread must still be joined
    EXPECT_EQ((*d)->version, 1u);  // version 2 waits for the write lock
    absl::SleepFor(absl::Milliseconds(10));
  }

  slow->Release();
  upload.join();
  ASSERT_THAT(big, IsOk());
  // Version 2 is loaded at the next polls; the deleted dataset stays gone.
  EXPECT_LT(TimeUntil([&] {
              absl::StatusOr<std::shared_ptr<const LoadedDataset>> d =
                  b->Get("zips");
              return d.ok() && (*d)->version == 2;
            }),
            kPropagation);
  ASSERT_THAT(b->SyncWithCatalog(), IsOk());
  EXPECT_FALSE(b->Contains("gone"));
  EXPECT_FALSE(fs::exists(CachedFile("b", "gone", "data.csv")));
  EXPECT_TRUE(b->Contains("big"));
  EXPECT_LT(TimeUntil([&] { return a->Contains("big"); }), kPropagation);
}

// While B fetches and loads a replaced version (a time
// that depends on its size, visible before any charge), it serves the
// old one, then switches in one step. In this mode too, the new
// version's registered_at precedes its build, on both replicas.
TEST_F(CatalogSyncTest, ReplacedVersionIsServedUntilTheNewOneIsLoaded) {
  absl::Time build_started = absl::InfinitePast();
  RegistryOptions a_options = OptionsFor("a");
  a_options.before_registration_graph = [&](const std::string&) {
    absl::SleepFor(absl::Milliseconds(20));
    build_started = absl::Now();
  };
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> a,
                       DatasetRegistry::Open(a_options));
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  auto held = std::make_shared<GatedCatalog>(catalog_, "zips",
                                             GatedCatalog::Gate::kFetchData);
  RegistryOptions b_options = OptionsFor("b");
  b_options.catalog = held;
  b_options.catalog_poll_interval = absl::Hours(1);  // syncs only when told
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> b,
                       DatasetRegistry::Open(b_options));
  ASSERT_OK_AND_ASSIGN(auto v1, b->Get("zips"));
  EXPECT_EQ(v1->version, 1u);

  ASSERT_OK_AND_ASSIGN(auto replaced, a->Replace(TableManifest(), kCsv2));
  EXPECT_LT(replaced->registered_at, build_started);
  held->Hold();
  absl::Status synced;
  std::thread sync([&] { synced = b->SyncWithCatalog(); });
  held->WaitUntilHeld();
  // B is fetching version 2: version 1 is still served.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> during = b->Get("zips");
  EXPECT_THAT(during, IsOk());
  if (during.ok()) {
    EXPECT_EQ(*during, v1);
  }
  EXPECT_TRUE(b->Contains("zips"));
  held->Release();
  sync.join();
  ASSERT_THAT(synced, IsOk());
  ASSERT_OK_AND_ASSIGN(auto after, b->Get("zips"));
  EXPECT_EQ(after->version, 2u);
  ExpectSameVersion(*replaced, *after);
}

TEST_F(CatalogSyncTest, DatabaseOutageKeepsServingAndRecovers) {
  auto a = OpenReplica("a");
  auto b = OpenReplica("b");
  ASSERT_THAT(a->Register(TableManifest(), kCsv), IsOk());
  ASSERT_NE(TimeUntil([&] { return b->Contains("zips"); }),
            absl::InfiniteDuration());
  ASSERT_THAT(TestCluster()->Stop(), IsOk());
  absl::SleepFor(absl::Milliseconds(800));  // a few failed polls
  EXPECT_TRUE(b->Contains("zips"));
  EXPECT_THAT(b->Register(TableManifest("other"), kCsv),
              StatusIs(absl::StatusCode::kUnavailable, _));
  EXPECT_THAT(DatasetRegistry::Open(OptionsFor("c")),
              StatusIs(absl::StatusCode::kUnavailable, _));
  ASSERT_THAT(TestCluster()->Restart(), IsOk());
  // Service resumes by itself: a change through A reaches B.
  absl::Status deleted = a->Delete("zips");
  for (int i = 0; i < 4 && absl::IsUnavailable(deleted); ++i) {
    deleted = a->Delete("zips");
  }
  ASSERT_THAT(deleted, IsOk());
  EXPECT_NE(TimeUntil([&] { return !b->Contains("zips"); }),
            absl::InfiniteDuration());
}

}  // namespace
}  // namespace dpq::server::registry
