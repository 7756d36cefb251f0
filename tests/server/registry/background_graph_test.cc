// Registry: conflict graphs are built at registration and rebuilt in the
// background after a start (docs/service.md, "Conflict graphs are built at
// registration"), once per version, and waited for by the releases that
// need them.
#include <filesystem>
#include <fstream>
#include <sstream>
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
#include "server/registry/conflict_graph_slot.h"
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
    m.set_infer_column_types(true);
    return m;
  }

  std::string ReadState(const std::string& id) {
    std::ifstream in(dir_ / "datasets" / id / "state.txt");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
  DatasetRegistry::Options options_;
  absl::Notification gate_;
};

// Registration builds the graph before it returns (docs/privacy.md,
// "Decided at registration, never at release"): whether the rows can be
// built is the owner's error, never a state a buyer observes.
TEST_F(BackgroundGraphTest, RegisterBuildsTheGraphBeforeReturning) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest("slow"), kCsv));
  EXPECT_TRUE(d->Stats().graph_ready());
  EXPECT_EQ(d->Stats().edges(), 2u);
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* graph,
                       d->WaitForConflictGraph(absl::Now()));
  EXPECT_EQ(graph->graph.graph.num_edges(), 2u);
  // The edge count is recorded for the next start.
  EXPECT_THAT(ReadState("slow"), HasSubstr("edges 2\n"));
}

// After a start the graphs are rebuilt in the background; a release that
// needs one waits for it (after its charge: see the buyer tests).
TEST_F(BackgroundGraphTest, StartRebuildsInTheBackgroundAndWaitersGetIt) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("slow"), kCsv), IsOk());
  }
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("slow"));
  EXPECT_FALSE(d->Stats().graph_ready());
  EXPECT_EQ(d->Stats().edges(), 0u);
  EXPECT_THAT(
      d->WaitForConflictGraph(absl::Now() + absl::Milliseconds(30)).status(),
      StatusIs(absl::StatusCode::kDeadlineExceeded,
               HasSubstr("still being built")));
  EXPECT_THAT(
      d->WaitForConflictGraph(absl::InfiniteFuture(), [] { return true; })
          .status(),
      StatusIs(absl::StatusCode::kCancelled, HasSubstr("cancelled")));
  std::thread opener([this] {
    absl::SleepFor(absl::Milliseconds(20));
    gate_.Notify();
  });
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* graph,
                       d->WaitForConflictGraph(absl::InfiniteFuture()));
  opener.join();
  EXPECT_EQ(graph->graph.graph.num_edges(), 2u);
  EXPECT_TRUE(d->Stats().graph_ready());
}

// A version replaced or deleted while its start-up build runs or waits in
// the queue is still built: requests that hold it (charged already) get
// their graph, and whether the build had started decides nothing.
TEST_F(BackgroundGraphTest, ReplaceOrDeleteDuringTheStartBuildLetsItFinish) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("slow"), kCsv), IsOk());
    ASSERT_THAT(registry->Register(Manifest("w"), kCsv), IsOk());
  }
  auto registry = OpenRegistry();  // one worker: "slow" holds it, "w" waits
  ASSERT_OK_AND_ASSIGN(auto old_slow, registry->Get("slow"));
  ASSERT_OK_AND_ASSIGN(auto queued, registry->Get("w"));
  ASSERT_OK_AND_ASSIGN(auto new_slow,
                       registry->Replace(Manifest("slow"), kCsv2));
  EXPECT_TRUE(new_slow->Stats().graph_ready());  // built by the Replace
  EXPECT_EQ(new_slow->Stats().edges(), 5u);
  ASSERT_THAT(registry->Delete("w"), IsOk());
  gate_.Notify();
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* g_old,
                       old_slow->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(g_old->graph.graph.num_edges(), 2u);
  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* g_queued,
                       queued->WaitForConflictGraph(absl::InfiniteFuture()));
  EXPECT_EQ(g_queued->graph.graph.num_edges(), 2u);
  EXPECT_FALSE(registry->Contains("w"));
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
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("slow"), kCsv), IsOk());
    ASSERT_THAT(registry->Register(Manifest("zqueued"), kCsv), IsOk());
  }
  std::shared_ptr<const LoadedDataset> queued;
  {
    auto registry = OpenRegistry();
    ASSERT_OK_AND_ASSIGN(queued, registry->Get("zqueued"));
    std::thread opener([this] {
      absl::SleepFor(absl::Milliseconds(20));
      gate_.Notify();
    });
    registry.reset();  // drops "zqueued", waits for the running build
    opener.join();
  }
  EXPECT_THAT(queued->WaitForConflictGraph(absl::InfiniteFuture()).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("shutting down")));
}

// The edge count recorded at registration is checked at start: a server
// whose limit was lowered below it refuses to start (the operator sees
// it), rather than letting a buyer meet a failed rebuild.
TEST_F(BackgroundGraphTest, RecordedEdgesAboveTheLimitStopTheStart) {
  options_.before_graph_build = nullptr;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("big"), kCsv), IsOk());
  }
  options_.max_edges = 1;
  EXPECT_THAT(DatasetRegistry::Open(options_),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("2 edges, above this server's max_edges (1)")));
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

namespace dpq::server::registry {
namespace {

// Security finding 9: a failed build's cause (an edge count above
// max_edges, say) depends on the rows; buyers waiting on the slot get a
// message without it, admins keep it (ConflictGraphSlot::error, shown in
// DatasetStats.graph_error).
TEST(ConflictGraphSlotTest, BuyersNeverSeeTheDataDependentCause) {
  ConflictGraphSlot slot;
  ASSERT_TRUE(slot.TryStart());
  slot.SetFailed(absl::ResourceExhaustedError(
      "the conflict graph has more than 12345 edges (max_edges)"));
  const absl::StatusOr<const ConflictGraphData*> waited =
      slot.Wait(absl::InfiniteFuture(), nullptr);
  EXPECT_THAT(waited.status(),
              ::dpq::testing::StatusIs(absl::StatusCode::kFailedPrecondition,
                                       HasSubstr("could not be built")));
  EXPECT_THAT(waited.status().message(),
              ::testing::Not(HasSubstr("12345")));
  EXPECT_THAT(slot.error().message(), HasSubstr("12345"));
}

}  // namespace
}  // namespace dpq::server::registry
