#include "server/registry/dataset_registry.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/dataset_builder.h"
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
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// 4 rows; the FD Zip -> City is violated by rows 0-1 and 0-2 and 1-2? Rows
// 0, 1, 2 share zip 10 with cities a, a, b: edges {0,2}, {1,2}.
constexpr char kCsv[] =
    "Zip,City,Score\n"
    "10,a,1\n"
    "10,a,2\n"
    "10,b,3\n"
    "20,c,4\n";
constexpr char kConstraints[] =
    "# zip determines the city\n"
    "\n"
    "  Zip -> City  \n";

class DatasetRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.data_dir = dir_.string();
    options_.graph_threads = 1;
  }

  std::unique_ptr<DatasetRegistry> OpenRegistry() {
    absl::StatusOr<std::unique_ptr<DatasetRegistry>> r =
        DatasetRegistry::Open(options_);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? *std::move(r) : nullptr;
  }

  static v1::DatasetManifest Manifest(const std::string& id = "zips") {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_description("zip codes");
    m.set_constraints(kConstraints);
    m.set_public_max_rows(100);
    m.set_infer_column_types(true);
    return m;
  }

  TempDir temp_dir_{"dpq-registry"};
  const fs::path dir_{temp_dir_.path()};
  DatasetRegistry::Options options_;
};

TEST_F(DatasetRegistryTest, RegisterPublishesPublicInfoWithoutPrivateSizes) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest(), kCsv));
  const v1::DatasetInfo info = d->PublicInfo();
  EXPECT_EQ(info.dataset_id(), "zips");
  EXPECT_EQ(info.description(), "zip codes");
  ASSERT_EQ(info.columns_size(), 3);
  EXPECT_EQ(info.columns(0).name(), "Zip");
  EXPECT_EQ(info.columns(0).type(), v1::COLUMN_TYPE_INT64);
  EXPECT_EQ(info.columns(1).type(), v1::COLUMN_TYPE_STRING);
  EXPECT_EQ(info.columns(2).type(), v1::COLUMN_TYPE_INT64);
  // Comments and blank lines dropped, the DC line trimmed.
  EXPECT_THAT(info.constraints(), ElementsAre("Zip -> City"));
  EXPECT_EQ(info.public_max_rows(), 100u);
  EXPECT_FALSE(info.row_count_public());
  EXPECT_EQ(info.row_count(), 0u);  // private unless declared public
  EXPECT_THAT(info.supported_measures(),
              ElementsAre(v1::MEASURE_MI, v1::MEASURE_P, v1::MEASURE_R));
  EXPECT_EQ(info.neighbouring(), kTupleNeighbouring);
  EXPECT_EQ(info.version(), 1u);
  EXPECT_GT(info.registered_at().seconds(), 1'600'000'000);

  ASSERT_OK_AND_ASSIGN(const ConflictGraphData* graph,
                       d->WaitForConflictGraph(absl::InfiniteFuture()));
  const v1::DatasetStats stats = d->Stats();
  EXPECT_EQ(stats.rows(), 4u);
  EXPECT_EQ(stats.csv_bytes(), std::string(kCsv).size());
  EXPECT_TRUE(stats.graph_ready());
  EXPECT_EQ(stats.edges(), 2u);
  EXPECT_EQ(graph->graph.graph.num_nodes(), 4u);
  ASSERT_EQ(graph->degree_bounds.size(), 1u);
  EXPECT_TRUE(graph->degree_bounds[0].keyed);
  EXPECT_EQ(graph->degree_bounds[0].bound, 2u);  // zip 10 occurs 3 times

  ASSERT_OK_AND_ASSIGN(auto got, registry->Get("zips"));
  EXPECT_EQ(got, d);
}

// A registration whose caller has left stops instead of finishing for
// nobody (docs/security.md item 2's class: loops that run after the caller
// left); the admin saw DEADLINE_EXCEEDED while the dataset appeared.
TEST_F(DatasetRegistryTest, RegistrationStopsAtTheCallersDeadline) {
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Register(Manifest(), kCsv, CsvSource::kUpload,
                                 absl::Now() - absl::Seconds(1)),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("nothing was registered")));
  EXPECT_FALSE(registry->Contains("zips"));
  EXPECT_FALSE(fs::exists(dir_ / "datasets" / "zips"));
  // With time left it registers.
  EXPECT_THAT(registry->Register(Manifest(), kCsv, CsvSource::kUpload,
                                 absl::Now() + absl::Seconds(60)),
              IsOk());
}

// What buyers read about a dataset is bounded at registration: a header
// of 1.5M columns registered and then broke every listing (33 MB). Now
// more than kMaxColumns columns, or a public description above
// kMaxPublicInfoBytes (here: cube labels), is refused, and nothing is
// stored.
TEST_F(DatasetRegistryTest, WideOrVerboseDatasetsAreRefusedAtRegistration) {
  auto registry = OpenRegistry();
  std::string header = "Zip,City";
  for (size_t i = 3; i <= kMaxColumns; ++i) absl::StrAppend(&header, ",c", i);
  EXPECT_THAT(registry->Register(Manifest("wide"), header + "\n"), IsOk())
      << "exactly kMaxColumns columns";
  EXPECT_THAT(registry->Register(Manifest("wider"), header + ",one_more\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("10001 columns; a dataset may have at most "
                                 "10000")));
  v1::DatasetManifest labels = Manifest("labels");
  v1::CubeDimension* dim = labels.add_cube_dimensions();
  dim->set_column("City");
  for (int i = 0; i < 60'000; ++i) {
    dim->add_domain(absl::StrCat("a city with a rather long name ", i));
  }
  EXPECT_THAT(registry->Register(labels, kCsv),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public description")));
  EXPECT_THAT(registry->Get("wider"),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));
  EXPECT_THAT(registry->Get("labels"),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));
}

TEST_F(DatasetRegistryTest, RowCountIsShownOnlyWhenPublic) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  m.set_row_count_public(true);
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kCsv));
  EXPECT_TRUE(d->PublicInfo().row_count_public());
  EXPECT_EQ(d->PublicInfo().row_count(), 4u);
}

TEST_F(DatasetRegistryTest, FdLineWithTwoRightHandSidesIsOneConstraintEntry) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  m.set_constraints("Zip -> City,Score\nnot(t1.City=t2.City&t1.Zip!=t2.Zip)");
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kCsv));
  EXPECT_EQ(d->dcs.size(), 3u);
  EXPECT_THAT(
      d->PublicInfo().constraints(),
      ElementsAre("Zip -> City,Score", "not(t1.City=t2.City&t1.Zip!=t2.Zip)"));
}

TEST_F(DatasetRegistryTest, DeclaredColumnTypesOverrideInference) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  v1::Column* c = m.add_column_types();
  c->set_name("Zip");
  c->set_type(v1::COLUMN_TYPE_STRING);
  v1::Column* s = m.add_column_types();
  s->set_name("Score");
  s->set_type(v1::COLUMN_TYPE_DOUBLE);
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kCsv));
  EXPECT_EQ(d->PublicInfo().columns(0).type(), v1::COLUMN_TYPE_STRING);
  EXPECT_EQ(d->PublicInfo().columns(2).type(), v1::COLUMN_TYPE_DOUBLE);
}

// docs/privacy.md 2.2 (finding 7 of section 7, and the type flip): no
// column type is inferred from the rows unless the owner asks, once, at
// registration; the result is shown to the owner and frozen into the stored
// manifest.
TEST_F(DatasetRegistryTest, ColumnTypesAreDeclaredOrExplicitlyInferredOnce) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  m.set_infer_column_types(false);
  EXPECT_THAT(registry->Register(m, kCsv),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("no type is declared for columns \"Zip\", "
                                 "\"City\", \"Score\"")));
  EXPECT_FALSE(registry->Contains("zips"));
  // Declared: nothing inferred, nothing to note.
  for (const auto& [name, type] :
       {std::pair<const char*, v1::ColumnType>{"Zip", v1::COLUMN_TYPE_INT64},
        {"City", v1::COLUMN_TYPE_STRING},
        {"Score", v1::COLUMN_TYPE_DOUBLE}}) {
    v1::Column* c = m.add_column_types();
    c->set_name(name);
    c->set_type(type);
  }
  ASSERT_OK_AND_ASSIGN(auto declared, registry->Register(m, kCsv));
  EXPECT_TRUE(declared->notes.empty());
  // Inferred on request: noted for the owner and frozen on disk.
  ASSERT_OK_AND_ASSIGN(auto inferred,
                       registry->Register(Manifest("inf"), kCsv));
  EXPECT_THAT(inferred->notes,
              ElementsAre(HasSubstr("Column types inferred from the data, "
                                    "now frozen and public: Zip int64, City "
                                    "string, Score int64")));
  const std::string stored =
      ReadFileOrEmpty(dir_ / "datasets" / "inf" / "manifest.json");
  EXPECT_THAT(stored, HasSubstr("\"COLUMN_TYPE_INT64\""));
  EXPECT_THAT(stored, ::testing::Not(HasSubstr("infer_column_types")));
}

// A replacement keeps the frozen types: a cell that no longer fits is the
// owner's error at registration, never a silent re-typing of the column.
TEST_F(DatasetRegistryTest, ReplacementKeepsTheFrozenTypes) {
  auto registry = OpenRegistry();
  ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  v1::DatasetManifest replacement = Manifest();
  replacement.set_infer_column_types(false);
  EXPECT_THAT(registry->Replace(replacement, "Zip,City,Score\n10,a,1\nx,b,2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("is not an int64")));
  ASSERT_OK_AND_ASSIGN(
      auto v2,
      registry->Replace(replacement, "Zip,City,Score\n10,a,1\n10,b,2\n"));
  EXPECT_EQ(v2->PublicInfo().columns(0).type(), v1::COLUMN_TYPE_INT64);
  EXPECT_TRUE(v2->notes.empty());
  // A new column needs a type.
  EXPECT_THAT(registry->Replace(replacement, "Zip,City,Score,New\n1,a,1,z\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("no type is declared for column \"New\"")));
}

// A manifest stored before types were frozen is completed from the same
// rows the way the earlier server did (so buyers see the same types) and
// rewritten, so nothing is ever inferred again.
TEST_F(DatasetRegistryTest, OlderManifestsAreFrozenWhenLoaded) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  }
  const fs::path manifest = dir_ / "datasets" / "zips" / "manifest.json";
  WriteFileOrDie(manifest,
                 "{\"dataset_id\": \"zips\", \"constraints\": \"Zip -> City\", "
                 "\"public_max_rows\": \"100\"}");
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("zips"));
  EXPECT_EQ(d->PublicInfo().columns(0).type(), v1::COLUMN_TYPE_INT64);
  EXPECT_THAT(ReadFileOrEmpty(manifest), HasSubstr("COLUMN_TYPE_INT64"));
}

// The type-flip pair (docs/privacy.md, "Types, domains and parse rules
// are never inferred per release"): 40 rows whose column a holds "1.0",
// "1.00", ... and one more row with a = "x". Under a declared type each
// cell means the same in both tables: as doubles the 40 rows are equal (a
// 40-clique) and the "x" row is refused at registration, where the owner
// sees it; as strings they are 40 different texts in both tables.
TEST_F(DatasetRegistryTest, OneAddedRowNeverRetypesAColumn) {
  std::string rows = "a,b\n";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&rows, "1.", std::string(static_cast<size_t>(i + 1), '0'),
                    ",", i, "\n");
  }
  const std::string with_x = rows + "x,40\n";
  auto registry = OpenRegistry();
  auto manifest = [](const std::string& id, v1::ColumnType a_type) {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_constraints("t1&t2&EQ(t1.a,t2.a)&IQ(t1.b,t2.b)");
    m.set_public_max_rows(100);
    v1::Column* a = m.add_column_types();
    a->set_name("a");
    a->set_type(a_type);
    v1::Column* b = m.add_column_types();
    b->set_name("b");
    b->set_type(v1::COLUMN_TYPE_INT64);
    return m;
  };
  ASSERT_OK_AND_ASSIGN(
      auto as_numbers,
      registry->Register(manifest("d", v1::COLUMN_TYPE_DOUBLE), rows));
  EXPECT_EQ(as_numbers->Stats().edges(), 780u);
  EXPECT_THAT(
      registry->Register(manifest("d2", v1::COLUMN_TYPE_DOUBLE), with_x),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("\"x\" is not a double")));
  ASSERT_OK_AND_ASSIGN(
      auto as_text,
      registry->Register(manifest("s", v1::COLUMN_TYPE_STRING), rows));
  ASSERT_OK_AND_ASSIGN(
      auto as_text_x,
      registry->Register(manifest("s2", v1::COLUMN_TYPE_STRING), with_x));
  EXPECT_EQ(as_text->Stats().edges(), 0u);
  EXPECT_EQ(as_text_x->Stats().edges(), 0u);
}

TEST_F(DatasetRegistryTest, NullValuesAreNull) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  m.add_null_values("NA");
  // With "NA" as NULL the third row's city is NULL: no conflict through it.
  ASSERT_OK_AND_ASSIGN(auto d,
                       registry->Register(m, "Zip,City\n10,a\n10,a\n10,NA\n"));
  EXPECT_EQ(d->Stats().edges(), 0u);
}

TEST_F(DatasetRegistryTest, RegisterTwiceIsAlreadyExists) {
  auto registry = OpenRegistry();
  ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  EXPECT_THAT(registry->Register(Manifest(), kCsv),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("Dataset 'zips' already exists")));
}

TEST_F(DatasetRegistryTest, ListIsSortedById) {
  auto registry = OpenRegistry();
  ASSERT_THAT(registry->Register(Manifest("b"), kCsv), IsOk());
  ASSERT_THAT(registry->Register(Manifest("a"), kCsv), IsOk());
  ASSERT_THAT(registry->Register(Manifest("c.1"), kCsv), IsOk());
  std::vector<std::string> ids;
  for (const auto& d : registry->List())
    ids.push_back(d->manifest.dataset_id());
  EXPECT_THAT(ids, ElementsAre("a", "b", "c.1"));
}

TEST_F(DatasetRegistryTest, GetUnknownIsNotFoundNamingTheId) {
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Get("nope"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'nope'")));
}

TEST_F(DatasetRegistryTest, ReplaceIncrementsVersionAndKeepsOldVersionAlive) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto v1_data, registry->Register(Manifest(), kCsv));
  // Built before the replace (a replace cancels a build not yet started).
  ASSERT_THAT(v1_data->WaitForConflictGraph(absl::InfiniteFuture()), IsOk());
  v1::DatasetManifest m = Manifest();
  m.set_description("fixed");
  ASSERT_OK_AND_ASSIGN(
      auto v2_data, registry->Replace(m, "Zip,City,Score\n10,a,1\n10,a,2\n"));
  EXPECT_EQ(v2_data->version, 2u);
  EXPECT_EQ(v2_data->PublicInfo().version(), 2u);
  EXPECT_EQ(v2_data->PublicInfo().description(), "fixed");
  EXPECT_EQ(v2_data->Stats().edges(), 0u);
  EXPECT_GE(v2_data->registered_at, v1_data->registered_at);
  // An in-flight request still holds the old version, intact.
  EXPECT_EQ(v1_data->version, 1u);
  EXPECT_EQ(v1_data->table.num_rows(), 4u);
  EXPECT_EQ(v1_data->conflict_graph->ready_data()->graph.graph.num_edges(), 2u);
  ASSERT_OK_AND_ASSIGN(auto now, registry->Get("zips"));
  EXPECT_EQ(now, v2_data);
  // No work directories are left behind.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_ / "datasets")) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_THAT(names, ElementsAre("zips"));
}

TEST_F(DatasetRegistryTest, ReplaceUnknownIsNotFound) {
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Replace(Manifest("ghost"), kCsv),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'ghost'")));
}

TEST_F(DatasetRegistryTest, FailedReplaceKeepsTheCurrentVersion) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(Manifest(), kCsv));
  v1::DatasetManifest bad = Manifest();
  bad.set_public_max_rows(2);
  bad.set_infer_column_types(true);
  EXPECT_THAT(registry->Replace(bad, kCsv),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_max_rows")));
  ASSERT_OK_AND_ASSIGN(auto now, registry->Get("zips"));
  EXPECT_EQ(now, d);
  EXPECT_EQ(ReadFileOrEmpty(dir_ / "datasets" / "zips" / "data.csv"), kCsv);
}

TEST_F(DatasetRegistryTest, DeleteRemovesFilesAndMemory) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto held, registry->Register(Manifest(), kCsv));
  ASSERT_THAT(registry->Delete("zips"), IsOk());
  EXPECT_THAT(registry->Get("zips"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("zips")));
  EXPECT_FALSE(fs::exists(dir_ / "datasets" / "zips"));
  EXPECT_TRUE(fs::is_empty(dir_ / "datasets"));
  EXPECT_EQ(held->table.num_rows(), 4u);  // holders keep their copy
  EXPECT_THAT(registry->Delete("zips"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'zips'")));
  // The id is free again.
  EXPECT_THAT(registry->Register(Manifest(), kCsv), IsOk());
}

TEST_F(DatasetRegistryTest, DeleteValidatesTheId) {
  auto registry = OpenRegistry();
  EXPECT_THAT(
      registry->Delete("../x"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
}

TEST_F(DatasetRegistryTest, ReloadFromDiskRestoresEveryDataset) {
  v1::DatasetManifest m = Manifest();
  v1::Column* c = m.add_column_types();
  c->set_name("Score");
  c->set_type(v1::COLUMN_TYPE_DOUBLE);
  m.set_row_count_public(true);
  v1::DatasetInfo before;
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(m, kCsv), IsOk());
    ASSERT_OK_AND_ASSIGN(auto d, registry->Replace(m, kCsv));
    ASSERT_THAT(registry->Register(Manifest("other"), kCsv), IsOk());
    ASSERT_THAT(registry->Delete("other"), IsOk());
    before = d->PublicInfo();
  }
  auto registry = OpenRegistry();
  ASSERT_EQ(registry->List().size(), 1u);
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("zips"));
  const v1::DatasetInfo after = d->PublicInfo();
  EXPECT_EQ(after.SerializeAsString(), before.SerializeAsString());
  EXPECT_EQ(after.version(), 2u);
  EXPECT_EQ(after.columns(2).type(), v1::COLUMN_TYPE_DOUBLE);
  // Start-up queues the graph builds; they finish in the background.
  registry->WaitForGraphBuilds();
  EXPECT_EQ(d->Stats().edges(), 2u);
  EXPECT_EQ(d->csv_bytes, std::string(kCsv).size());
  // Manifest stored as protobuf JSON, files private to the server user.
  const fs::path ds = dir_ / "datasets" / "zips";
  EXPECT_THAT(ReadFileOrEmpty(ds / "manifest.json"),
              HasSubstr("\"dataset_id\": \"zips\""));
  struct stat st;
  ASSERT_EQ(::stat((ds / "data.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(DatasetRegistryTest, OpenRollsBackAnInterruptedReplace) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  }
  const fs::path root = dir_ / "datasets";
  // Crash after "rename current to .old-zips", before the new one took its
  // name; plus a half-written staging directory and a deleted dataset.
  fs::rename(root / "zips", root / ".old-zips");
  fs::create_directories(root / ".staging-zips");
  WriteFileOrDie(root / ".staging-zips" / "data.csv", "half");
  fs::create_directories(root / ".trash-gone");
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("zips"));
  EXPECT_EQ(d->version, 1u);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(root)) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_THAT(names, ElementsAre("zips"));
}

TEST_F(DatasetRegistryTest, OpenDropsTheOldVersionOfAFinishedReplace) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  }
  const fs::path root = dir_ / "datasets";
  fs::copy(root / "zips", root / ".old-zips");
  WriteFileOrDie(root / ".old-zips" / "data.csv", "stale");
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("zips"));
  EXPECT_EQ(d->table.num_rows(), 4u);
  EXPECT_FALSE(fs::exists(root / ".old-zips"));
}

TEST_F(DatasetRegistryTest, OpenFailsNamingABrokenDataset) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(Manifest(), kCsv), IsOk());
  }
  WriteFileOrDie(dir_ / "datasets" / "zips" / "manifest.json", "{not json");
  EXPECT_THAT(DatasetRegistry::Open(options_),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("Cannot load dataset 'zips'")));
}

TEST_F(DatasetRegistryTest, OpenRejectsAStrayDirectory) {
  fs::create_directories(dir_ / "datasets" / "bad name");
  EXPECT_THAT(
      DatasetRegistry::Open(options_),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("bad name")));
}

// ---- exact_repair -----------------------------------------------------------

// K6 (six rows of zip 10 with six cities) plus an isolated row: I_R = 5,
// while the LP bound of cover_bound is 3.
constexpr char kCliqueCsv[] =
    "Zip,City\n10,a\n10,b\n10,c\n10,d\n10,e\n10,f\n20,g\n";

v1::DatasetManifest ExactRepairManifest(const std::string& id = "clique") {
  v1::DatasetManifest m;
  m.set_dataset_id(id);
  m.set_constraints("Zip -> City");
  m.set_public_max_rows(10);
  m.set_infer_column_types(true);
  m.set_exact_repair(true);
  return m;
}

// A chain of 700 triangles, consecutive ones joined by an edge: one
// component of 2100 nodes (above the default max_component_nodes = 2048)
// without degree-1 nodes, not complete multipartite, whose LP bound (1050)
// is below the greedy cover (>= 1400, two per triangle). So the default
// solver has bounds only. Rows 3k..3k+2 share A (FD A -> B, B distinct:
// the triangles); rows 3k+2 and 3k+3 share C (FD C -> D: the links).
std::string TriangleChainCsv(int triangles) {
  std::string csv = "A,B,C,D\n";
  const int n = 3 * triangles;
  for (int i = 0; i < n; ++i) {
    int c = 1'000'000 + i;  // unique: no link
    if (i % 3 == 2 && i + 1 < n) c = i / 3;
    if (i % 3 == 0 && i > 0) c = i / 3 - 1;
    absl::StrAppend(&csv, i / 3, ",", i, ",", c, ",", i, "\n");
  }
  return csv;
}

TEST_F(DatasetRegistryTest, ExactRepairIsComputedAtRegistrationAndStored) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d,
                       registry->Register(ExactRepairManifest(), kCliqueCsv));
  ASSERT_TRUE(d->exact_repair.has_value());
  EXPECT_EQ(*d->exact_repair, 5u);
  EXPECT_TRUE(d->manifest.exact_repair());
  EXPECT_TRUE(d->PublicInfo().exact_repair());
  EXPECT_THAT(ReadFileOrEmpty(dir_ / "datasets" / "clique" / "state.txt"),
              HasSubstr("\nexact_repair 5\n"));
  // Without the option nothing is computed, stored or shown.
  ASSERT_OK_AND_ASSIGN(auto plain, registry->Register(Manifest(), kCsv));
  EXPECT_FALSE(plain->exact_repair.has_value());
  EXPECT_FALSE(plain->PublicInfo().exact_repair());
  EXPECT_THAT(ReadFileOrEmpty(dir_ / "datasets" / "zips" / "state.txt"),
              Not(HasSubstr("exact_repair")));
}

TEST_F(DatasetRegistryTest, ExactRepairSurvivesARestartAndFollowsReplace) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(ExactRepairManifest(), kCliqueCsv), IsOk());
    // A replacement recomputes it: K3 plus a K2 group now, I_R = 2 + 1.
    ASSERT_OK_AND_ASSIGN(
        auto d, registry->Replace(ExactRepairManifest(),
                                  "Zip,City\n10,a\n10,b\n10,c\n20,x\n20,y\n"));
    ASSERT_TRUE(d->exact_repair.has_value());
    EXPECT_EQ(*d->exact_repair, 3u);
  }
  {
    auto registry = OpenRegistry();
    ASSERT_OK_AND_ASSIGN(auto d, registry->Get("clique"));
    EXPECT_EQ(d->version, 2u);
    ASSERT_TRUE(d->exact_repair.has_value());
    EXPECT_EQ(*d->exact_repair, 3u);  // read back, not recomputed
    EXPECT_TRUE(d->PublicInfo().exact_repair());
    // Replacing without the option drops it.
    v1::DatasetManifest plain = ExactRepairManifest();
    plain.set_exact_repair(false);
    ASSERT_OK_AND_ASSIGN(auto replaced, registry->Replace(plain, kCliqueCsv));
    EXPECT_FALSE(replaced->exact_repair.has_value());
    EXPECT_FALSE(replaced->PublicInfo().exact_repair());
  }
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("clique"));
  EXPECT_FALSE(d->exact_repair.has_value());
}

TEST_F(DatasetRegistryTest, StateWithoutTheExactRepairItsManifestAsksIsLost) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(ExactRepairManifest(), kCliqueCsv), IsOk());
  }
  const fs::path state = dir_ / "datasets" / "clique" / "state.txt";
  std::string text = ReadFileOrEmpty(state);
  const size_t at = text.find("exact_repair ");
  ASSERT_NE(at, std::string::npos);
  WriteFileOrDie(state, text.substr(0, at));
  EXPECT_THAT(DatasetRegistry::Open(options_),
              StatusIs(absl::StatusCode::kDataLoss,
                       AllOf(HasSubstr("Cannot load dataset 'clique'"),
                             HasSubstr("exact_repair"))));
  WriteFileOrDie(state, text.substr(0, at) + "exact_repair five\n");
  EXPECT_THAT(DatasetRegistry::Open(options_),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("malformed 'exact_repair' line")));
}

TEST_F(DatasetRegistryTest, UnprovableExactRepairFailsTheRegistration) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = ExactRepairManifest("chain");
  m.set_constraints("A -> B\nC -> D\n");
  m.set_public_max_rows(5000);
  const std::string csv = TriangleChainCsv(700);
  const absl::Time start = absl::Now();
  EXPECT_THAT(registry->Register(m, csv),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("exact_repair: "),
                             HasSubstr("max_component_nodes"),
                             HasSubstr("<= I_R <="))));
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  EXPECT_FALSE(registry->Contains("chain"));
  EXPECT_FALSE(fs::exists(dir_ / "datasets" / "chain"));
  // The same rows register without the option (buyers get cover_bound).
  m.set_exact_repair(false);
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, csv));
  EXPECT_FALSE(d->exact_repair.has_value());
  EXPECT_EQ(d->Stats().edges(), 3u * 700 + 699);
}

// Two FDs over random keys: a conflict graph the exact solver must search
// (300 rows take about 2 minutes without a limit).
TEST_F(DatasetRegistryTest, ExactRepairStopsAtItsTimeLimit) {
  options_.exact_repair_time_limit = absl::Milliseconds(1);
  auto registry = OpenRegistry();
  std::mt19937 rng(17);
  std::string csv = "A,B,C,D\n";
  for (int i = 0; i < 300; ++i) {
    absl::StrAppend(&csv, rng() % 30, ",", rng() % 3, ",", rng() % 30, ",",
                    rng() % 3, "\n");
  }
  v1::DatasetManifest m = ExactRepairManifest("random");
  m.set_constraints("A -> B\nC -> D\n");
  m.set_public_max_rows(1000);
  const absl::Time start = absl::Now();
  EXPECT_THAT(registry->Register(m, csv),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("exact_repair: ")));
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  EXPECT_FALSE(registry->Contains("random"));
}

// ---- Validation -------------------------------------------------------------

TEST(ValidateIdTest, AcceptsAndRejects) {
  EXPECT_THAT(ValidateId("hospital-2024_v1.0", "dataset_id"), IsOk());
  EXPECT_THAT(ValidateId(std::string(64, 'a'), "dataset_id"), IsOk());
  EXPECT_THAT(ValidateId("", "dataset_id"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("dataset_id must have 1-64 characters")));
  EXPECT_THAT(ValidateId(std::string(65, 'a'), "buyer_id"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("buyer_id must have 1-64")));
  EXPECT_THAT(ValidateId(".hidden", "dataset_id"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("must start with a letter or digit")));
  EXPECT_THAT(
      ValidateId("a/b", "dataset_id"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("contains '/'")));
}

TEST_F(DatasetRegistryTest, RejectsBadManifestsNamingTheField) {
  auto registry = OpenRegistry();
  struct Case {
    std::string name;
    v1::DatasetManifest manifest;
    std::string csv;
    absl::StatusCode code;
    std::string message;
  };
  std::vector<Case> cases;
  {
    v1::DatasetManifest m = Manifest("bad id");
    cases.push_back({"id", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "dataset_id may only contain"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_public_max_rows(0);
    m.set_infer_column_types(true);
    cases.push_back({"n0", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "public_max_rows must be >= 1"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_public_max_rows(3);
    m.set_infer_column_types(true);
    cases.push_back({"n<rows", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "public_max_rows (3) must be at least the number of rows "
                     "in the CSV (4)"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_public_max_rows(uint64_t{1} << 40);
    m.set_infer_column_types(true);
    cases.push_back({"n huge", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "public_max_rows must be at most"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_constraints("  \n");
    cases.push_back({"no dcs", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "constraints is empty"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_constraints("# only a comment\n");
    cases.push_back({"comment only", m, kCsv,
                     absl::StatusCode::kInvalidArgument,
                     "constraints: No denial constraint found"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_constraints("Zip -> City\nZip -> Nowhere\n");
    cases.push_back({"bad dc", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "constraints: line 2: "});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_constraints("t1&EQ(t1.Zip,'10')\n");
    cases.push_back({"single tuple", m, kCsv,
                     absl::StatusCode::kInvalidArgument,
                     "constraints: line 1: "});
  }
  {
    v1::DatasetManifest m = Manifest();
    cases.push_back({"csv fields", m, "Zip,City\n10,a\n10,a,x\n",
                     absl::StatusCode::kInvalidArgument,
                     "csv: line 3: expected 2 fields"});
  }
  {
    v1::DatasetManifest m = Manifest();
    cases.push_back(
        {"csv empty", m, "", absl::StatusCode::kInvalidArgument, "csv: "});
  }
  {
    v1::DatasetManifest m = Manifest();
    v1::Column* c = m.add_column_types();
    c->set_name("Nowhere");
    c->set_type(v1::COLUMN_TYPE_INT64);
    cases.push_back({"unknown typed column", m, kCsv,
                     absl::StatusCode::kInvalidArgument,
                     "column_types: The schema types column \"Nowhere\""});
  }
  {
    v1::DatasetManifest m = Manifest();
    for (int i = 0; i < 2; ++i) {
      v1::Column* c = m.add_column_types();
      c->set_name("Zip");
      c->set_type(v1::COLUMN_TYPE_INT64);
    }
    cases.push_back({"typed twice", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "column_types: column 'Zip' is listed twice"});
  }
  {
    v1::DatasetManifest m = Manifest();
    v1::Column* c = m.add_column_types();
    c->set_name("City");
    c->set_type(v1::COLUMN_TYPE_INT64);
    cases.push_back({"type mismatch", m, kCsv,
                     absl::StatusCode::kInvalidArgument,
                     "csv: line 2, column 2"});
  }
  {
    v1::DatasetManifest m = Manifest();
    v1::Column* c = m.add_column_types();
    c->set_name("City");
    c->set_type(static_cast<v1::ColumnType>(42));
    cases.push_back({"bad enum", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "column_types: column 'City' has type 42"});
  }
  {
    v1::DatasetManifest m = Manifest();
    m.set_description(std::string(5000, 'x'));
    cases.push_back({"description", m, kCsv, absl::StatusCode::kInvalidArgument,
                     "description must be at most 4096 bytes"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_THAT(registry->Register(c.manifest, c.csv),
                StatusIs(c.code, HasSubstr(c.message)));
  }
  EXPECT_TRUE(registry->List().empty());
  EXPECT_TRUE(fs::is_empty(dir_ / "datasets"));
}

TEST_F(DatasetRegistryTest, CsvLineAndColumnAreReported) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = Manifest();
  EXPECT_THAT(
      registry->Register(m, "Zip,City\n10,a\n10,\"a\"x\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("csv: line 3")));
}

// The CSV's size is checked where its bytes arrive, once: an upload while
// it streams (AdminUploadLimitTest), a server file while it is read
// (ReadServerFileReadsOnlyTheImportDirectory).
TEST_F(DatasetRegistryTest, SizeLimitsAreResourceExhausted) {
  options_.max_rows = 3;
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Register(Manifest(), kCsv),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("max_rows is 3")));

  // The edge limit is decided at registration (docs/privacy.md, "Decided
  // at registration, never at release"): the owner's call fails and
  // nothing a buyer sees depends on it.
  options_.max_rows = 100;
  options_.max_edges = 1;
  registry = OpenRegistry();
  EXPECT_THAT(registry->Register(Manifest(), kCsv),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("constraints: the conflict graph of these "
                                 "rows cannot be built")));
  EXPECT_FALSE(registry->Contains("zips"));
}

TEST_F(DatasetRegistryTest, OpenRejectsBadOptions) {
  options_.graph_threads = -1;
  EXPECT_THAT(
      DatasetRegistry::Open(options_),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("graph_threads")));
  options_.graph_threads = 0;
  options_.data_dir = "";
  EXPECT_THAT(
      DatasetRegistry::Open(options_),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("data_dir")));
}

TEST_F(DatasetRegistryTest, ReadServerFileIsOffWithoutAnImportDirectory) {
  auto registry = OpenRegistry();
  WriteFileOrDie(dir_ / "upload.csv", kCsv);
  EXPECT_THAT(registry->ReadServerFile((dir_ / "upload.csv").string()),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("--import-dir")));
}

TEST_F(DatasetRegistryTest, ReadServerFileReadsOnlyTheImportDirectory) {
  const fs::path import_dir = dir_ / "import";
  fs::create_directories(import_dir);
  options_.data_dir = (dir_ / "data").string();
  options_.import_dir = import_dir.string();
  auto registry = OpenRegistry();
  WriteFileOrDie(import_dir / "upload.csv", kCsv);
  EXPECT_THAT(registry->ReadServerFile((import_dir / "upload.csv").string()),
              dpq::testing::IsOkAndHolds(std::string(kCsv)));
  EXPECT_THAT(registry->ReadServerFile("upload.csv"),
              dpq::testing::IsOkAndHolds(std::string(kCsv)));
  EXPECT_THAT(registry->ReadServerFile("missing.csv"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("does not exist in the import directory")));
  EXPECT_THAT(registry->ReadServerFile(import_dir.string()),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("outside the import directory")));
  EXPECT_THAT(registry->ReadServerFile("../upload.csv"),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("outside the import directory")));
  options_.max_csv_bytes = 10;
  registry = OpenRegistry();
  EXPECT_THAT(registry->ReadServerFile("upload.csv"),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("server_path: The CSV upload exceeds the "
                                 "server's max_upload_bytes = 10 bytes.")));
}

// A registration from a server_path file names the line and column of an
// error but quotes none of its cells or header names; an upload does.
TEST_F(DatasetRegistryTest, ServerPathErrorsNeverQuoteTheFile) {
  auto registry = OpenRegistry();
  v1::DatasetManifest manifest = Manifest();
  v1::Column* zip = manifest.add_column_types();
  zip->set_name("Zip");
  zip->set_type(v1::COLUMN_TYPE_INT64);
  const std::string bad_cell = "Zip,City,Score\n10,a,1\nsecret-cell,b,2\n";
  EXPECT_THAT(
      registry->Register(manifest, bad_cell),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("secret-cell")));
  EXPECT_THAT(
      registry->Register(manifest, bad_cell, CsvSource::kServerPath),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("csv, line 3, column 1: "),
                     Not(HasSubstr("secret-cell")), Not(HasSubstr("Zip")))));
  // The "known columns" of an unknown column in a constraint.
  const std::string secret_header = "Zip,secret-header\n1,2\n";
  manifest = Manifest();
  EXPECT_THAT(registry->Register(manifest, secret_header),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("known columns: Zip, secret-header")));
  EXPECT_THAT(
      registry->Register(manifest, secret_header, CsvSource::kServerPath),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("constraints, line 3: "),
                     Not(HasSubstr("secret-header")))));
  EXPECT_FALSE(registry->Contains("zips"));
}

// Readers never see a half-published version: every Get returns a dataset
// whose version matches its contents, while a writer replaces it.
TEST_F(DatasetRegistryTest, ConcurrentGetDuringReplaceSeesWholeVersions) {
  auto registry = OpenRegistry();
  // Version v has v + 1 rows (all conflicting on zip 10 with distinct
  // cities: (v + 1) v / 2 edges).
  auto csv_for = [](int version) {
    std::string csv = "Zip,City\n";
    for (int i = 0; i <= version; ++i) absl::StrAppend(&csv, "10,c", i, "\n");
    return csv;
  };
  ASSERT_THAT(registry->Register(Manifest(), csv_for(1)), IsOk());
  std::atomic<bool> stop{false};
  std::atomic<int> mismatches{0};
  std::atomic<int> reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        absl::StatusOr<std::shared_ptr<const LoadedDataset>> d =
            registry->Get("zips");
        if (!d.ok()) {
          ++mismatches;
          continue;
        }
        const uint64_t v = (*d)->version;
        // The graph of the version read, once built, is that version's.
        const ConflictGraphData* graph = (*d)->conflict_graph->ready_data();
        if ((*d)->table.num_rows() != v + 1 ||
            (graph != nullptr &&
             graph->graph.graph.num_edges() != (v + 1) * v / 2) ||
            (*d)->PublicInfo().version() != v) {
          ++mismatches;
        }
        ++reads;
      }
    });
  }
  for (int v = 2; v <= 8; ++v) {
    ASSERT_OK_AND_ASSIGN(auto d, registry->Replace(Manifest(), csv_for(v)));
    EXPECT_EQ(d->version, static_cast<uint64_t>(v));
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(reads.load(), 0);
  ASSERT_OK_AND_ASSIGN(auto last, registry->Get("zips"));
  EXPECT_EQ(last->version, 8u);
}

// Demo data shipped in deploy/demo loads with N = 2000.
TEST_F(DatasetRegistryTest, RegistersTheDemoDataset) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m;
  m.set_dataset_id("hospital");
  m.set_public_max_rows(2000);
  m.set_infer_column_types(true);
  m.set_constraints(ReadFileOrEmpty(DPQ_SOURCE_DIR "/deploy/demo/hospital.dc"));
  ASSERT_OK_AND_ASSIGN(
      auto d,
      registry->Register(
          m, ReadFileOrEmpty(DPQ_SOURCE_DIR "/deploy/demo/hospital.csv")));
  EXPECT_EQ(d->table.num_rows(), 1000u);
  EXPECT_EQ(d->PublicInfo().constraints_size(), 15);
  ASSERT_THAT(d->WaitForConflictGraph(absl::InfiniteFuture()), IsOk());
  EXPECT_GT(d->Stats().edges(), 0u);
}

}  // namespace
}  // namespace dpq::server::registry
