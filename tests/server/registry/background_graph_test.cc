// Registry: conflict graphs are built in the background (issue 4), once per
// version, and waited for by the releases that need them.
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/dataset_registry.h"
#include "server/registry/graph_build_queue.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

// Rows 0-2 share zip 10 with cities a, a, b: edges {0,2}, {1,2}.
constexpr char kCsv[] = "Zip,City\n10,a\n10,a\n10,b\n20,c\n";
// One more conflicting row: 5 edges.
constexpr char kCsv2[] = "Zip,City\n10,a\n10,a\n10,b\n10,c\n";

class BackgroundGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info =
        ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           absl::StrCat("dpq_bg_graph_test_", ::getpid(), "_", info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    options_.data_dir = dir_.string();
    options_.graph_threads = 1;
    // Builds of "slow" wait for the gate: the tests see them in progress.
    options_.before_graph_build = [this](const std::string& id) {
      // Bounded: a failed assertion must not hang the registry's
      // destructor, which joins this worker.
      if (id == "slow") gate_.WaitForNotificationWithTimeout(absl::Seconds(20));
    };
  }
  void TearDown() override {
    if (!gate_.HasBeenNotified()) gate_.Notify();
    fs::remove_all(dir_);
  }

  std::unique_ptr<DatasetRegistry> OpenRegistry() {
    absl::StatusOr<std::unique_ptr<DatasetRegistry>> r =
        DatasetRegistry::Open(options_);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? *std::move(r) : nullptr;
  }

  static v1::DatasetManifest Manifest(const std::string& id) {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_constraints("Zip -> City\n");
    m.set_public_max_rows(100);
    return m;
  }

  fs::path dir_;
  DatasetRegistry::Options options_;
  absl::Notification gate_;
};

TEST_F(BackgroundGraphTest, RegisterReturnsBeforeTheGraphAndAWaiterGetsIt) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest("slow"), kCsv));
  // Stored and published, graph pending.
  EXPECT_TRUE(registry->Contains("slow"));
  EXPECT_FALSE(d->Stats().graph_ready());
  EXPECT_EQ(d->Stats().edges(), 0u);
  // A waiter with a deadline gives up (the release then reserves nothing).
  EXPECT_THAT(
      d->WaitForConflictGraph(absl::Now() + absl::Milliseconds(30)).status(),
      StatusIs(absl::StatusCode::kDeadlineExceeded,
               HasSubstr("still being built")));
  // A cancelled call gives up too.
  EXPECT_THAT(
      d->WaitForConflictGraph(absl::InfiniteFuture(), [] { return true; })
          .status(),
      StatusIs(absl::StatusCode::kCancelled, HasSubstr("cancelled")));
  // A waiter without deadline gets the graph once the build runs.
  std::thread opener([this] {
    absl::SleepFor(absl::Milliseconds(20));
    gate_.Notify();
  });
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* graph,
                       d->WaitForConflictGraph(absl::InfiniteFuture()));
  opener.join();
  EXPECT_EQ(graph->graph.graph.num_edges(), 2u);
  EXPECT_TRUE(d->Stats().graph_ready());
  EXPECT_EQ(d->Stats().edges(), 2u);
}

TEST_F(BackgroundGraphTest, ReplaceWhileBuildingGivesEachVersionItsOwnGraph) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto v1_data,
                       registry->Register(Manifest("slow"), kCsv));
  // Wait until the worker holds v1's build at the gate (it has started).
  while (v1_data->conflict_graph->state() !=
         ConflictGraphSlot::State::kBuilding) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  ASSERT_OK_AND_ASSIGN(auto v2_data, registry->Replace(Manifest("slow"), kCsv2));
  gate_.Notify();
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* g2,
                       v2_data->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(g2->graph.graph.num_edges(), 5u);
  // The running v1 build finished for v1 only (in-flight requests on v1).
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* g1,
                       v1_data->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(g1->graph.graph.num_edges(), 2u);
  ASSERT_OK_AND_ASSIGN(auto now, registry->Get("slow"));
  EXPECT_EQ(now->Stats().edges(), 5u);
}

TEST_F(BackgroundGraphTest, ReplaceBeforeTheBuildStartsCancelsIt) {
  auto registry = OpenRegistry();
  // One worker, held by "slow": the build of "queued" waits in the queue.
  ASSERT_THAT(registry->Register(Manifest("slow"), kCsv), IsOk());
  ASSERT_OK_AND_ASSIGN(auto old_version,
                       registry->Register(Manifest("queued"), kCsv));
  ASSERT_OK_AND_ASSIGN(auto new_version,
                       registry->Replace(Manifest("queued"), kCsv2));
  // A request still holding the old version learns it must retry.
  EXPECT_THAT(
      old_version->WaitForConflictGraph(absl::InfiniteFuture()).status(),
      StatusIs(absl::StatusCode::kAborted,
               HasSubstr("version 1 was replaced")));
  gate_.Notify();
  ASSERT_OK_AND_ASSIGN(
      const ConflictGraphData* graph,
      new_version->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(graph->graph.graph.num_edges(), 5u);
  EXPECT_EQ(old_version->conflict_graph->state(),
            ConflictGraphSlot::State::kCancelled);
}

TEST_F(BackgroundGraphTest, DeleteWhileQueuedOrBuildingIsSafe) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto building,
                       registry->Register(Manifest("slow"), kCsv));
  ASSERT_OK_AND_ASSIGN(auto queued,
                       registry->Register(Manifest("queued"), kCsv));
  ASSERT_THAT(registry->Delete("queued"), IsOk());
  ASSERT_THAT(registry->Delete("slow"), IsOk());
  EXPECT_THAT(queued->WaitForConflictGraph(absl::InfiniteFuture()).status(),
              StatusIs(absl::StatusCode::kAborted, HasSubstr("deleted")));
  gate_.Notify();
  registry->WaitForGraphBuilds();
  // The running build finished for the requests that still hold it.
  EXPECT_THAT(building->WaitForConflictGraph(absl::InfiniteFuture()), IsOk());
  EXPECT_FALSE(registry->Contains("slow"));
  EXPECT_FALSE(registry->Contains("queued"));
}

TEST_F(BackgroundGraphTest, RestartRebuildsEveryGraphInTheBackground) {
  options_.before_graph_build = nullptr;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("a"), kCsv), IsOk());
    ASSERT_THAT(registry->Register(Manifest("b"), kCsv2), IsOk());
  }
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto a, registry->Get("a"));
  ASSERT_OK_AND_ASSIGN(auto b, registry->Get("b"));
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* ga,
                       a->WaitForConflictGraph(absl::InfiniteFuture()));
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* gb,
                       b->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(ga->graph.graph.num_edges(), 2u);
  EXPECT_EQ(gb->graph.graph.num_edges(), 5u);
}

TEST_F(BackgroundGraphTest, ShutdownCancelsQueuedBuilds) {
  std::shared_ptr<const LoadedDataset> queued;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("slow"), kCsv), IsOk());
    ASSERT_OK_AND_ASSIGN(queued, registry->Register(Manifest("queued"), kCsv));
    std::thread opener([this] {
      absl::SleepFor(absl::Milliseconds(20));
      gate_.Notify();
    });
    registry.reset();  // drops "queued", waits for the running build
    opener.join();
  }
  EXPECT_THAT(queued->WaitForConflictGraph(absl::InfiniteFuture()).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("shutting down")));
}

TEST_F(BackgroundGraphTest, FailedBuildIsReportedAndKeepsTheDataset) {
  options_.before_graph_build = nullptr;
  options_.max_edges = 1;  // kCsv has 2 conflicting pairs
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest("big"), kCsv));
  EXPECT_THAT(d->WaitForConflictGraph(absl::InfiniteFuture()).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("could not be built")));
  EXPECT_TRUE(registry->Contains("big"));
  EXPECT_FALSE(d->Stats().graph_ready());
  EXPECT_FALSE(d->Stats().graph_error().empty());
}

TEST(GraphBuildQueueTest, RunsJobsInOrderAndDropsTheRestOnDestruction) {
  std::vector<int> ran;
  int dropped = 0;
  absl::Notification gate;
  {
    GraphBuildQueue queue(1);
    queue.Enqueue([&] { gate.WaitForNotification(); }, nullptr);
    for (int i = 0; i < 3; ++i) {
      queue.Enqueue([&ran, i] { ran.push_back(i); }, [&dropped] { ++dropped; });
    }
    gate.Notify();
    queue.WaitIdle();
    EXPECT_EQ(ran, (std::vector<int>{0, 1, 2}));
    absl::Notification hold;
    queue.Enqueue([&] { hold.WaitForNotification(); }, nullptr);
    queue.Enqueue([&ran] { ran.push_back(99); }, [&dropped] { ++dropped; });
    std::thread release([&] {
      absl::SleepFor(absl::Milliseconds(20));
      hold.Notify();
    });
    // Destruction below races the queued job: it either ran or was dropped.
    release.join();
  }
  EXPECT_EQ(ran.size() + static_cast<size_t>(dropped), 4u);
}

}  // namespace
}  // namespace dpq::server::registry
