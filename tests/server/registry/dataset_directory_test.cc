// The data directory's layout (dataset_directory.h) and state.txt
// (version_state.h): what existing data directories hold must keep loading.
#include "server/registry/dataset_directory.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/version_state.h"
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
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

uint32_t ModeOf(const fs::path& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 0777;
}

std::vector<std::string> Names(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// ---- state.txt
// ---------------------------------------------------------------

TEST(DatasetStateFileTest, FormatsTheDocumentedLinesAndParsesThemBack) {
  VersionState state;
  state.version = 3;
  ASSERT_TRUE(absl::ParseTime(absl::RFC3339_full, "2024-05-06T07:08:09.5Z",
                              &state.registered_at, nullptr));
  state.edges = 12;
  state.exact_repair = 2;
  const std::string text = FormatVersionState(state);
  EXPECT_EQ(text,
            "version 3\nregistered_at 2024-05-06T07:08:09.5+00:00\n"
            "edges 12\nexact_repair 2\n");
  ASSERT_OK_AND_ASSIGN(const VersionState back,
                       ParseVersionState(text, "state.txt"));
  EXPECT_EQ(back.version, 3u);
  EXPECT_EQ(back.registered_at, state.registered_at);
  EXPECT_EQ(back.edges, 12u);
  EXPECT_EQ(back.exact_repair, 2u);
}

TEST(DatasetStateFileTest, OlderFilesWithoutEdgesAndUnknownKeysLoad) {
  ASSERT_OK_AND_ASSIGN(
      const VersionState state,
      ParseVersionState("version 1\nregistered_at 2023-01-02T03:04:05Z\n"
                        "something_new 7\n",
                        "s"));
  EXPECT_EQ(state.version, 1u);
  EXPECT_FALSE(state.edges.has_value());
  EXPECT_FALSE(state.exact_repair.has_value());
}

// The cross bounds ride on a line of their own, so an older server that
// reads degree_bounds only still loads the file (unknown keys are ignored).
TEST(DatasetStateFileTest, CrossBoundsRoundTripOnTheirOwnLine) {
  VersionState state;
  state.version = 1;
  ASSERT_TRUE(absl::ParseTime(absl::RFC3339_full, "2024-05-06T07:08:09Z",
                              &state.registered_at, nullptr));
  state.degree_bounds = {{true, 4}, {false, 0, true, 9}, {false, 0}};
  state.cross_bounds_recorded = true;
  const std::string text = FormatVersionState(state);
  EXPECT_THAT(text, HasSubstr("degree_bounds 4 - -\ncross_bounds - 9 -\n"));
  ASSERT_OK_AND_ASSIGN(const VersionState back,
                       ParseVersionState(text, "state.txt"));
  EXPECT_TRUE(back.cross_bounds_recorded);
  ASSERT_TRUE(back.degree_bounds.has_value());
  ASSERT_EQ(back.degree_bounds->size(), 3u);
  EXPECT_TRUE((*back.degree_bounds)[0].keyed);
  EXPECT_FALSE((*back.degree_bounds)[0].cross_keyed);
  EXPECT_TRUE((*back.degree_bounds)[1].cross_keyed);
  EXPECT_EQ((*back.degree_bounds)[1].cross_bound, 9u);
  EXPECT_FALSE((*back.degree_bounds)[2].bounded());
  // Without the line (an older file): not recorded, nothing cross-keyed.
  ASSERT_OK_AND_ASSIGN(
      const VersionState older,
      ParseVersionState("version 1\nregistered_at 2024-05-06T07:08:09Z\n"
                        "degree_bounds 4 - -\n",
                        "s"));
  EXPECT_FALSE(older.cross_bounds_recorded);
  EXPECT_FALSE((*older.degree_bounds)[1].cross_keyed);
  // A line that does not match degree_bounds DC for DC is malformed.
  for (const char* bad :
       {"degree_bounds 4 -\ncross_bounds - 3 5\n",  // one too many
        "degree_bounds 4 -\ncross_bounds -\n",      // one too few
        "degree_bounds 4 -\ncross_bounds 3 -\n",    // on a keyed DC
        "degree_bounds 4 -\ncross_bounds - x\n", "cross_bounds - 3\n"}) {
    EXPECT_THAT(ParseVersionState(
                    absl::StrCat(
                        "version 1\nregistered_at 2024-05-06T07:08:09Z\n", bad),
                    "/d/state.txt"),
                StatusIs(absl::StatusCode::kDataLoss,
                         HasSubstr("malformed 'cross_bounds' line")))
        << bad;
  }
}

// The cost class fixed at registration: its own line, read back; absent in
// older files; anything but light or heavy is malformed.
TEST(DatasetStateFileTest, ReleaseCostRoundTrips) {
  VersionState state;
  state.version = 2;
  ASSERT_TRUE(absl::ParseTime(absl::RFC3339_full, "2024-05-06T07:08:09Z",
                              &state.registered_at, nullptr));
  state.edges = 2'000'000;
  state.release_cost = core::private_measures::ReleaseCost::kHeavy;
  const std::string text = FormatVersionState(state);
  EXPECT_THAT(text, HasSubstr("\nrelease_cost heavy\n"));
  ASSERT_OK_AND_ASSIGN(const VersionState back,
                       ParseVersionState(text, "state.txt"));
  EXPECT_EQ(back.release_cost, core::private_measures::ReleaseCost::kHeavy);
  ASSERT_OK_AND_ASSIGN(
      const VersionState older,
      ParseVersionState("version 1\nregistered_at 2024-05-06T07:08:09Z\n",
                        "s"));
  EXPECT_FALSE(older.release_cost.has_value());
  EXPECT_THAT(
      ParseVersionState("version 1\nregistered_at 2024-05-06T07:08:09Z\n"
                        "release_cost huge\n",
                        "/d/state.txt"),
      StatusIs(absl::StatusCode::kDataLoss,
               HasSubstr("malformed 'release_cost' line")));
  EXPECT_EQ(core::private_measures::ReleaseCostOf(1'000'000),
            core::private_measures::ReleaseCost::kLight);
  EXPECT_EQ(core::private_measures::ReleaseCostOf(1'000'001),
            core::private_measures::ReleaseCost::kHeavy);
}

TEST(DatasetStateFileTest, MalformedFilesAreDataLossNamingThePath) {
  EXPECT_THAT(ParseVersionState("version 0\nregistered_at 2023-01-02T03:04:05Z",
                                "/d/state.txt"),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("'/d/state.txt' must hold 'version <n>'")));
  EXPECT_THAT(
      ParseVersionState("version 2\n", "/d/state.txt"),
      StatusIs(absl::StatusCode::kDataLoss, HasSubstr("registered_at")));
  EXPECT_THAT(ParseVersionState("version 2\nregistered_at "
                                "2023-01-02T03:04:05Z\nedges many\n",
                                "/d/state.txt"),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("'/d/state.txt' has a malformed 'edges' "
                                 "line.")));
}

// ---- The directory
// -----------------------------------------------------------

class DatasetDirectoryTest : public ::testing::Test {
 protected:
  DatasetDirectory Open() {
    absl::StatusOr<DatasetDirectory> d = DatasetDirectory::Open(dir_.string());
    EXPECT_THAT(d, IsOk());
    return *std::move(d);
  }

  static v1::DatasetManifest Manifest(const std::string& id) {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_description("d");
    return m;
  }

  static VersionState State(uint64_t version) {
    VersionState state;
    state.version = version;
    state.registered_at = absl::FromUnixSeconds(1'700'000'000);
    state.edges = 2;
    return state;
  }

  TempDir temp_dir_{"dpq-directory"};
  const fs::path dir_{temp_dir_.path()};
  const fs::path root_ = dir_ / "datasets";
};

TEST_F(DatasetDirectoryTest, PublishWritesTheLayoutAndReadsItBack) {
  DatasetDirectory directory = Open();
  EXPECT_EQ(ModeOf(root_), 0700u);
  ASSERT_THAT(directory.Publish("zips", "Zip\n1\n", Manifest("zips"), State(1),
                                /*replace=*/false),
              IsOk());
  // The layout existing data directories have: three private files.
  EXPECT_THAT(Names(root_), ElementsAre("zips"));
  EXPECT_THAT(Names(root_ / "zips"),
              ElementsAre("data.csv", "manifest.json", "state.txt"));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "zips" / "data.csv"), "Zip\n1\n");
  EXPECT_THAT(ReadFileOrEmpty(root_ / "zips" / "manifest.json"),
              HasSubstr("\"dataset_id\": \"zips\""));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "zips" / "state.txt"),
            FormatVersionState(State(1)));
  for (const char* file : {"data.csv", "manifest.json", "state.txt"}) {
    EXPECT_EQ(ModeOf(root_ / "zips" / file), 0600u) << file;
  }
  ASSERT_OK_AND_ASSIGN(const StoredVersion stored,
                       directory.ReadVersion("zips"));
  EXPECT_EQ(stored.manifest.description(), "d");
  EXPECT_EQ(stored.state.version, 1u);
  EXPECT_EQ(stored.state.edges, 2u);
  ASSERT_OK_AND_ASSIGN(const core::table::MappedFile data,
                       directory.MapData("zips"));
  EXPECT_EQ(data.view(), "Zip\n1\n");
  EXPECT_THAT(directory.ListIds(),
              dpq::testing::IsOkAndHolds(ElementsAre("zips")));
}

TEST_F(DatasetDirectoryTest, ReplaceSwapsTheWholeVersion) {
  DatasetDirectory directory = Open();
  ASSERT_OK(
      directory.Publish("zips", "old\n", Manifest("zips"), State(1), false));
  ASSERT_OK(directory.Publish("zips", "new\n", Manifest("zips"), State(2),
                              /*replace=*/true));
  EXPECT_THAT(Names(root_), ElementsAre("zips"));  // no .old-, no .staging-
  EXPECT_EQ(ReadFileOrEmpty(root_ / "zips" / "data.csv"), "new\n");
  ASSERT_OK_AND_ASSIGN(const StoredVersion stored,
                       directory.ReadVersion("zips"));
  EXPECT_EQ(stored.state.version, 2u);
}

TEST_F(DatasetDirectoryTest, RemoveDeletesTheVersion) {
  DatasetDirectory directory = Open();
  ASSERT_OK(
      directory.Publish("zips", "x\n", Manifest("zips"), State(1), false));
  ASSERT_OK(directory.Remove("zips"));
  EXPECT_THAT(Names(root_), IsEmpty());
  EXPECT_THAT(
      directory.ReadVersion("zips"),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("manifest.json")));
}

TEST_F(DatasetDirectoryTest, RewriteManifestReplacesOnlyTheManifest) {
  DatasetDirectory directory = Open();
  ASSERT_OK(
      directory.Publish("zips", "x\n", Manifest("zips"), State(1), false));
  v1::DatasetManifest frozen = Manifest("zips");
  frozen.set_description("frozen");
  ASSERT_OK(directory.RewriteManifest("zips", frozen));
  ASSERT_OK_AND_ASSIGN(const StoredVersion stored,
                       directory.ReadVersion("zips"));
  EXPECT_EQ(stored.manifest.description(), "frozen");
  EXPECT_THAT(Names(root_ / "zips"),
              ElementsAre("data.csv", "manifest.json", "state.txt"));
}

TEST_F(DatasetDirectoryTest, OpenFinishesOrRollsBackWhatACrashLeft) {
  {
    DatasetDirectory directory = Open();
    ASSERT_OK(
        directory.Publish("kept", "k\n", Manifest("kept"), State(1), false));
    ASSERT_OK(
        directory.Publish("moved", "m\n", Manifest("moved"), State(1), false));
  }
  // A replace of "moved" that crashed after renaming it away; a finished
  // replace of "kept" whose old version was not removed yet; a staging
  // directory, a deleted dataset and an older server's temporary edge list.
  fs::rename(root_ / "moved", root_ / ".old-moved");
  fs::copy(root_ / "kept", root_ / ".old-kept");
  fs::create_directories(root_ / ".staging-new");
  fs::create_directories(root_ / ".trash-gone");
  WriteFileOrDie(root_ / ".upload-7", "a,b\n");
  WriteFileOrDie(root_ / ".pending-3",
                 "data written ahead of a crashed build\n");
  DatasetDirectory directory = Open();
  EXPECT_THAT(Names(root_), ElementsAre("kept", "moved"));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "moved" / "data.csv"), "m\n");
}

// data.csv written ahead (while a registration builds its graph) becomes
// the version's file by a rename: the same layout, modes and content as a
// Publish of the bytes, with no work file left.
TEST_F(DatasetDirectoryTest, DataWrittenAheadIsPublishedByRename) {
  DatasetDirectory directory = Open();
  const std::string data = "Zip\n1\n2\n";
  std::unique_ptr<DataWriteAhead> ahead = directory.StartDataWrite(data);
  ASSERT_OK(directory.Publish("zips", *ahead, Manifest("zips"), State(1),
                              /*replace=*/false));
  ahead.reset();  // the taken file stays where Publish put it
  EXPECT_THAT(Names(root_), ElementsAre("zips"));
  EXPECT_THAT(Names(root_ / "zips"),
              ElementsAre("data.csv", "manifest.json", "state.txt"));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "zips" / "data.csv"), data);
  EXPECT_EQ(ModeOf(root_ / "zips" / "data.csv"), 0600u);
  // And as a replacement.
  ahead = directory.StartDataWrite("Zip\n3\n");
  ASSERT_OK(directory.Publish("zips", *ahead, Manifest("zips"), State(2),
                              /*replace=*/true));
  ahead.reset();
  EXPECT_THAT(Names(root_), ElementsAre("zips"));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "zips" / "data.csv"), "Zip\n3\n");
}

// A build that fails never publishes: dropping the write removes its file.
TEST_F(DatasetDirectoryTest, DataWrittenAheadIsRemovedUnlessPublished) {
  DatasetDirectory directory = Open();
  {
    std::unique_ptr<DataWriteAhead> ahead = directory.StartDataWrite("a\n");
    ASSERT_OK_AND_ASSIGN(const fs::path written, ahead->Wait());
    EXPECT_EQ(ReadFileOrEmpty(written), "a\n");
    EXPECT_EQ(written.parent_path(), root_);
  }
  std::unique_ptr<DataWriteAhead> unwaited = directory.StartDataWrite("b\n");
  unwaited.reset();
  EXPECT_THAT(Names(root_), IsEmpty());
}

// A write that fails (its directory is gone) fails the Publish with its
// error, and nothing is published.
TEST_F(DatasetDirectoryTest, FailedWriteAheadFailsThePublish) {
  DatasetDirectory directory = Open();
  DataWriteAhead ahead(root_ / "missing" / "data", "x\n");
  EXPECT_THAT(directory.Publish("zips", ahead, Manifest("zips"), State(1),
                                /*replace=*/false),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("missing")));
  EXPECT_FALSE(directory.Contains("zips"));
  EXPECT_THAT(Names(root_), IsEmpty());
}

TEST_F(DatasetDirectoryTest, ListIdsSkipsFilesAndRefusesStrayDirectories) {
  DatasetDirectory directory = Open();
  WriteFileOrDie(root_ / "README", "not a dataset");
  EXPECT_THAT(directory.ListIds(), dpq::testing::IsOkAndHolds(IsEmpty()));
  fs::create_directories(root_ / "bad name");
  EXPECT_THAT(directory.ListIds(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("is not a dataset directory")));
}

TEST_F(DatasetDirectoryTest, ReadVersionRefusesAManifestOfAnotherDataset) {
  DatasetDirectory directory = Open();
  ASSERT_OK(
      directory.Publish("zips", "x\n", Manifest("other"), State(1), false));
  EXPECT_THAT(directory.ReadVersion("zips"),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("manifest.json names dataset 'other', not "
                                 "the directory's name.")));
  WriteFileOrDie(root_ / "zips" / "manifest.json", "{not json");
  EXPECT_THAT(directory.ReadVersion("zips"),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("manifest.json is not a DatasetManifest: ")));
}

}  // namespace
}  // namespace dpq::server::registry
