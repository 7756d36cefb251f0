// Registry: conflict graphs are built at registration and rebuilt in the
// background after a start (docs/service.md, "Conflict graphs are built at
// registration"), once per version, and waited for by the releases that
// need them.
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/metrics/server_metrics.h"
#include "server/registry/conflict_graph_slot.h"
#include "server/registry/dataset_registry.h"
#include "server/registry/graph_build_queue.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOk;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Rows 0-2 share zip 10 with cities a, a, b: edges {0,2}, {1,2}.
constexpr char kCsv[] = "Zip,City\n10,a\n10,a\n10,b\n20,c\n";
// One more conflicting row: 5 edges.
constexpr char kCsv2[] = "Zip,City\n10,a\n10,a\n10,b\n10,c\n";

class BackgroundGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
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

  void WriteState(const std::string& id, const std::string& text) {
    WriteFileOrDie(dir_ / "datasets" / id / "state.txt", text);
  }

  std::string ReadState(const std::string& id) {
    return ReadFileOrEmpty(dir_ / "datasets" / id / "state.txt");
  }

  TempDir temp_dir_{"dpq-bg-graph"};
  const fs::path dir_{temp_dir_.path()};
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
  EXPECT_THAT(
      queued->WaitForConflictGraph(absl::InfiniteFuture()).status(),
      StatusIs(absl::StatusCode::kUnavailable, HasSubstr("shutting down")));
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
  EXPECT_THAT(
      DatasetRegistry::Open(options_),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("2 edges, above this server's max_edges (1)")));
}

// registered_at (DatasetInfo, shown to buyers) is taken
// before the rows are read, never after the build: its distance to the
// call would tell buyers how long these rows took.
TEST_F(BackgroundGraphTest, RegisteredAtPrecedesTheBuild) {
  absl::Time build_started = absl::InfinitePast();
  options_.before_registration_graph = [&](const std::string&) {
    absl::SleepFor(absl::Milliseconds(20));
    build_started = absl::Now();
  };
  auto registry = OpenRegistry();
  const absl::Time before = absl::Now();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest("a"), kCsv));
  EXPECT_GE(d->registered_at, before);
  EXPECT_LT(d->registered_at, build_started);
  ASSERT_OK_AND_ASSIGN(auto r, registry->Replace(Manifest("a"), kCsv2));
  EXPECT_LT(r->registered_at, build_started);
  // A caller that read a server file first passes the time before it.
  const absl::Time received = absl::Now() - absl::Seconds(3);
  ASSERT_OK_AND_ASSIGN(
      auto s, registry->Replace(Manifest("a"), kCsv, CsvSource::kServerPath,
                                absl::InfiniteFuture(), received));
  EXPECT_EQ(s->registered_at, received);
  registry.reset();
  options_.before_graph_build = nullptr;
  registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto stored, registry->Get("a"));
  EXPECT_EQ(stored->registered_at, received);
}

// The current value of dpq_datasets_refused.
int64_t RefusedGauge() {
  const std::string text = metrics::ServerMetrics::Default().Render();
  const std::string key = "\ndpq_datasets_refused ";
  const size_t at = text.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + key.size()));
}

// Registration records the cover bound and the degree
// bounds with the edge count.
TEST_F(BackgroundGraphTest, RegistrationRecordsTheBounds) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest("slow"), kCsv));
  const ConflictGraphData* graph = d->conflict_graph->ready_data();
  ASSERT_NE(graph, nullptr);
  ASSERT_EQ(graph->degree_bounds.size(), 1u);  // Zip -> City: keyed
  EXPECT_THAT(
      ReadState("slow"),
      AllOf(HasSubstr("edges 2\n"),
            HasSubstr(absl::StrCat("cover_bound ", graph->cover_bound, "\n")),
            HasSubstr(absl::StrCat("degree_bounds ",
                                   graph->degree_bounds[0].bound, "\n"))));
}

// A rebuild after a start that does not reproduce the recorded bounds (a
// different server, a damaged state file) refuses the version before any
// charge; requests that held it get kUnavailable without the values; the
// operator sees the cause (log, DatasetStats.graph_error) and the gauge.
TEST_F(BackgroundGraphTest, RebuildThatDiffersFromTheRecordRefusesTheVersion) {
  options_.before_graph_build = nullptr;
  std::string state;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("cover"), kCsv), IsOk());
    ASSERT_THAT(registry->Register(Manifest("degree"), kCsv), IsOk());
    ASSERT_THAT(registry->Register(Manifest("fine"), kCsv), IsOk());
    state = ReadState("cover");
  }
  const size_t cover = state.find("cover_bound ");
  ASSERT_NE(cover, std::string::npos);
  std::string bad_cover = state;
  bad_cover.replace(cover, state.find('\n', cover) - cover,
                    "cover_bound 777777");
  WriteState("cover", bad_cover);
  const size_t degree = state.find("degree_bounds ");
  ASSERT_NE(degree, std::string::npos);
  std::string bad_degree = state;
  bad_degree.replace(degree, state.find('\n', degree) - degree,
                     "degree_bounds 888888");
  WriteState("degree", bad_degree);

  const int64_t refused_before = RefusedGauge();
  options_.before_graph_build = [this](const std::string& id) {
    if (id == "cover") gate_.WaitForNotificationWithTimeout(absl::Seconds(20));
  };
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto held, registry->Get("cover"));  // before its build
  gate_.Notify();
  registry->WaitForGraphBuilds();
  for (const char* id : {"cover", "degree"}) {
    EXPECT_THAT(registry->Get(id),
                StatusIs(absl::StatusCode::kUnavailable,
                         AllOf(HasSubstr(id), HasSubstr("not served"),
                               ::testing::Not(HasSubstr("77777")),
                               ::testing::Not(HasSubstr("88888")))));
  }
  EXPECT_THAT(held->WaitForConflictGraph(absl::InfiniteFuture()).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       AllOf(HasSubstr("same request_id"),
                             ::testing::Not(HasSubstr("777777")))));
  EXPECT_THAT(held->Stats().graph_error(),
              AllOf(HasSubstr("cover bound"), HasSubstr("777777")));
  EXPECT_EQ(RefusedGauge(), refused_before + 2);
  ASSERT_OK_AND_ASSIGN(auto fine, registry->Get("fine"));
  EXPECT_THAT(fine->WaitForConflictGraph(absl::InfiniteFuture()), IsOk());
  // A replacement registers a fresh record and is served again.
  ASSERT_THAT(registry->Replace(Manifest("degree"), kCsv2), IsOk());
  EXPECT_THAT(registry->Get("degree"), IsOk());
  held.reset();
  registry.reset();
  EXPECT_EQ(RefusedGauge(), refused_before);
}

// A state file written before the bounds were recorded gets them at its
// first load; the next start checks them.
TEST_F(BackgroundGraphTest, OldStateFileGetsTheBoundsRecordedAtFirstLoad) {
  options_.before_graph_build = nullptr;
  std::string recorded;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest("old"), kCsv), IsOk());
    recorded = ReadState("old");
  }
  std::string old;
  for (absl::string_view line : absl::StrSplit(recorded, '\n')) {
    if (line.empty() || absl::StartsWith(line, "cover_bound") ||
        absl::StartsWith(line, "degree_bounds") ||
        absl::StartsWith(line, "cross_bounds")) {
      continue;
    }
    absl::StrAppend(&old, line, "\n");
  }
  ASSERT_NE(old, recorded);
  WriteState("old", old);
  {
    auto registry = OpenRegistry();
    registry->WaitForGraphBuilds();
    EXPECT_THAT(registry->Get("old"), IsOk());
  }
  EXPECT_EQ(ReadState("old"), recorded);
}

// A cross-column DC (t1.Dep = t2.Arr) gets its cross bound recorded on a
// line of its own. A file from before that line loads (its '-' is not a
// mismatch) and gets the line at its first load; a damaged cross bound
// refuses the version like any other recorded bound.
TEST_F(BackgroundGraphTest, CrossBoundsAreRecordedAndChecked) {
  options_.before_graph_build = nullptr;
  // Arr 7 occurs twice, Dep 7 once: c = 2.
  constexpr char kTimes[] = "Dep,Arr,Gate\n7,1,a\n3,7,b\n4,7,c\n";
  auto manifest = [](const std::string& id) {
    v1::DatasetManifest m = Manifest(id);
    m.set_constraints("t1&t2&EQ(t1.Dep,t2.Arr)&IQ(t1.Gate,t2.Gate)\n");
    return m;
  };
  std::string recorded;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(manifest("old"), kTimes), IsOk());
    ASSERT_THAT(registry->Register(manifest("bad"), kTimes), IsOk());
    recorded = ReadState("old");
  }
  EXPECT_THAT(recorded, AllOf(HasSubstr("degree_bounds -\n"),
                              HasSubstr("cross_bounds 2\n")));
  std::string old;
  for (absl::string_view line : absl::StrSplit(recorded, '\n')) {
    if (line.empty() || absl::StartsWith(line, "cross_bounds")) continue;
    absl::StrAppend(&old, line, "\n");
  }
  WriteState("old", old);
  std::string bad = recorded;
  bad.replace(bad.find("cross_bounds 2"), 14, "cross_bounds 9");
  WriteState("bad", bad);
  {
    auto registry = OpenRegistry();
    registry->WaitForGraphBuilds();
    EXPECT_THAT(registry->Get("old"), IsOk());
    EXPECT_THAT(registry->Get("bad"),
                StatusIs(absl::StatusCode::kUnavailable,
                         AllOf(HasSubstr("not served"),
                               ::testing::Not(HasSubstr("cross-keyed")))));
  }
  EXPECT_EQ(ReadState("old"), recorded);
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
              ::dpq::testing::StatusIs(absl::StatusCode::kUnavailable,
                                       HasSubstr("could not be rebuilt")));
  EXPECT_THAT(waited.status().message(), ::testing::Not(HasSubstr("12345")));
  EXPECT_THAT(slot.error().message(), HasSubstr("12345"));
}

// Releases wait for the graph only after their reservation (the charge
// stands, docs/privacy.md): a wait that ends early never says nothing was
// charged; it says the charge stands and that the same request_id resumes
// it.
TEST(ConflictGraphSlotTest, WaitsThatEndEarlyNeverClaimNothingWasCharged) {
  ConflictGraphSlot slot;
  ASSERT_TRUE(slot.TryStart());
  const absl::Status timed_out = slot.Wait(absl::Now()).status();
  const absl::Status cancelled =
      slot.Wait(absl::InfiniteFuture(), [] { return true; }).status();
  EXPECT_EQ(timed_out.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(cancelled.code(), absl::StatusCode::kCancelled);
  for (const absl::Status& s : {timed_out, cancelled}) {
    EXPECT_THAT(s.message(), ::testing::Not(HasSubstr("nothing was charged")))
        << s;
    EXPECT_THAT(s.message(), HasSubstr("charge stands")) << s;
    EXPECT_THAT(s.message(), HasSubstr("same request_id")) << s;
  }
}

}  // namespace
}  // namespace dpq::server::registry
