// BuyerService's ReleaseCuboids, TrainDecisionTree and SelectInfluentialNodes
// (docs/service.md, "Buyer releases") and the dataset kinds, through the pure
// *Impl functions: validation before any reservation, charges, ledger entries,
// replays.
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/error_details.h"
#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/node_scores_cache.h"
#include "server/buyer/quality_report_impl.h"
#include "server/buyer/release_cuboids_impl.h"
#include "server/buyer/release_fingerprint.h"
#include "server/buyer/select_influential_nodes_impl.h"
#include "server/buyer/train_decision_tree_impl.h"
#include "server/registry/dataset_registry.h"
#include "server/storage/sqlite_accounts_store.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::buyer {
namespace {

namespace fs = std::filesystem;
using core::ledger::LedgerEntry;
using core::ledger::LedgerFilter;
using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::DoubleEq;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 40 people: Sex alternates F/M, Age 20..59, Label "yes" for Age >= 40.
std::string PeopleCsv() {
  std::string csv = "Sex,Age,Label\n";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", 20 + i, ",",
                    20 + i >= 40 ? "yes" : "no", "\n");
  }
  return csv;
}

// A triangle a-b-c with a pendant d on c, and e-f.
constexpr char kEdges[] = "source,target\na,b\nb,c\nc,a\nc,d\ne,f\n";

auth::Principal Buyer(const std::string& id) {
  return auth::Principal{id, auth::Role::kBuyer};
}

class ReleaseRpcsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_dir_ = new TempDir("dpq-release-registry");
    registry::DatasetRegistry::Options options;
    options.data_dir = registry_dir_->path();
    options.graph_threads = 1;
    absl::StatusOr<std::unique_ptr<registry::DatasetRegistry>> r =
        registry::DatasetRegistry::Open(options);
    ASSERT_THAT(r, IsOk());
    registry_ = r->release();
    v1::DatasetManifest people;
    people.set_dataset_id("people");
    people.set_constraints("Sex -> Label\n");
    people.set_public_max_rows(100);
    people.set_infer_column_types(true);
    // Domains taken from the data: the owner's explicit choice.
    for (const char* column : {"Sex", "Age", "Label"}) {
      v1::CubeDimension* dim = people.add_cube_dimensions();
      dim->set_column(column);
      dim->set_infer_domain(true);
    }
    people.add_public_cuboids()->add_dimensions("Sex");
    ASSERT_OK(registry_->Register(people, PeopleCsv()).status());
    // The same rows without a declared cube.
    people.set_dataset_id("plain");
    people.clear_cube_dimensions();
    people.clear_public_cuboids();
    ASSERT_OK(registry_->Register(people, PeopleCsv()).status());
    // Only Sex and Label declared (Label with a class no row has).
    people.set_dataset_id("partial");
    v1::CubeDimension* sex = people.add_cube_dimensions();
    sex->set_column("Sex");
    sex->set_infer_domain(true);
    v1::CubeDimension* label = people.add_cube_dimensions();
    label->set_column("Label");
    for (const char* value : {"no", "yes", "maybe"}) label->add_domain(value);
    ASSERT_OK(registry_->Register(people, PeopleCsv()).status());
    v1::DatasetManifest net;
    net.set_dataset_id("net");
    net.set_kind(v1::DATASET_KIND_GRAPH);
    for (const char* node : {"a", "b", "c", "d", "e", "f"}) {
      net.add_node_labels(node);
    }
    ASSERT_OK(registry_->Register(net, kEdges).status());
  }
  static void TearDownTestSuite() {
    delete registry_;
    registry_ = nullptr;
    delete registry_dir_;
  }

  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(ledger_, storage::SqliteLedgerStore::Open(
                                      (dir_ / "ledger.db").string()));
    ASSERT_OK_AND_ASSIGN(accounts_,
                         storage::SqliteAccountsStore::Open(":memory:"));
    service_ = std::make_unique<BuyerServiceImpl>(registry_, ledger_.get(),
                                                  accounts_.get());
    ASSERT_OK(ledger_->Grant("alice", "people", 10));
    ASSERT_OK(ledger_->Grant("alice", "net", 10));
    ASSERT_OK(ledger_->Grant("alice", "partial", 10));
  }
  void TearDown() override {
    service_.reset();
    ledger_.reset();
  }

  std::vector<LedgerEntry> Entries() {
    LedgerFilter filter;
    filter.buyer_id = "alice";
    filter.limit = 100;
    absl::StatusOr<std::vector<LedgerEntry>> entries =
        ledger_->ListEntries(filter);
    EXPECT_THAT(entries, IsOk());
    return entries.ok() ? *entries : std::vector<LedgerEntry>{};
  }

  // A fresh request id: request_id is required on every release.
  static std::string IdOr(const std::string& request_id) {
    static std::atomic<int> next{0};
    return request_id.empty() ? absl::StrCat("auto-", ++next) : request_id;
  }

  static v1::ReleaseCuboidsRequest Cuboids(
      std::vector<std::vector<std::string>> cuboids, double epsilon,
      const std::string& request_id = "") {
    v1::ReleaseCuboidsRequest r;
    r.set_dataset_id("people");
    for (const auto& dims : cuboids) {
      v1::CuboidSpec* spec = r.add_cuboids();
      for (const auto& d : dims) spec->add_dimensions(d);
    }
    r.set_epsilon(epsilon);
    r.set_request_id(IdOr(request_id));
    return r;
  }

  static v1::TrainDecisionTreeRequest Tree(double epsilon,
                                           const std::string& request_id = "") {
    v1::TrainDecisionTreeRequest r;
    r.set_dataset_id("people");
    r.set_label_column("Label");
    r.set_positive_class("yes");
    r.set_epsilon(epsilon);
    r.set_generations(2);
    r.set_population(4);
    r.set_request_id(IdOr(request_id));
    return r;
  }

  static v1::SelectInfluentialNodesRequest Nodes(
      uint32_t k, double epsilon, const std::string& request_id = "") {
    v1::SelectInfluentialNodesRequest r;
    r.set_dataset_id("net");
    r.set_k(k);
    r.set_epsilon(epsilon);
    r.set_request_id(IdOr(request_id));
    return r;
  }

  static TempDir* registry_dir_;
  static registry::DatasetRegistry* registry_;
  TempDir temp_dir_{"dpq-release"};
  const fs::path dir_{temp_dir_.path()};
  std::unique_ptr<storage::SqliteLedgerStore> ledger_;
  std::unique_ptr<storage::SqliteAccountsStore> accounts_;
  std::unique_ptr<BuyerServiceImpl> service_;
};

TempDir* ReleaseRpcsTest::registry_dir_ = nullptr;
registry::DatasetRegistry* ReleaseRpcsTest::registry_ = nullptr;

// ---- ReleaseCuboids ---------------------------------------------------------

TEST_F(ReleaseRpcsTest, CuboidsAreChargedRecordedAndConsistent) {
  v1::ReleaseCuboidsResponse r;
  ASSERT_OK(ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                               Cuboids({{"Sex", "Label"}, {"Label"}}, 1, "c1"),
                               &r));
  ASSERT_THAT(r.cuboids(), SizeIs(2));
  EXPECT_THAT(r.cuboids(0).dimensions(), ElementsAre("Sex", "Label"));
  // Inferred domains always have an "other" cell: 3 x 3 and 3 cells.
  EXPECT_THAT(r.cuboids(0).cells(), SizeIs(9));
  EXPECT_THAT(r.cuboids(1).cells(), SizeIs(3));
  EXPECT_THAT(r.noise_stddev(), SizeIs(2));
  EXPECT_GT(r.noise_stddev(0), 0);
  EXPECT_TRUE(r.strategy() == "per_cuboid" || r.strategy() == "base_cuboid")
      << r.strategy();
  EXPECT_GT(r.sensitivity(), 0);
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 1);
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 9);
  EXPECT_FALSE(r.replayed());
  EXPECT_EQ(r.request_id(), "c1");
  // Consistent with the public exact cuboid [Sex] (20 F, 20 M, 0 other):
  // the cells of each Sex sum to its exact count.
  std::map<std::string, double> by_sex;
  for (const v1::CuboidCell& cell : r.cuboids(0).cells()) {
    by_sex[cell.values(0)] += cell.count();
  }
  EXPECT_THAT(by_sex["F"], DoubleNear(20, 1e-6));
  EXPECT_THAT(by_sex["M"], DoubleNear(20, 1e-6));
  EXPECT_THAT(by_sex["other"], DoubleNear(0, 1e-6));

  // The dataset's ledger counts induced neighbours under [Sex]; a cube
  // release is charged its epsilon (docs/privacy.md 1.1).
  const std::vector<LedgerEntry> entries = Entries();
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation, "ReleaseCuboids [Sex,Label] [Label]");
  EXPECT_EQ(entries[0].neighbouring,
            "induced neighbours under the public exact cuboids [Sex] (tables "
            "that agree on them; at most 2 rows added or removed apart)");
  EXPECT_DOUBLE_EQ(entries[0].epsilon, 1);
}

TEST_F(ReleaseRpcsTest, CuboidRetryReplaysWithoutANewCharge) {
  v1::ReleaseCuboidsResponse first, again;
  ASSERT_OK(ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                               Cuboids({{"Sex"}}, 0.5, "c2"), &first));
  ASSERT_OK(ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                               Cuboids({{"Sex"}}, 0.5, "c2"), &again));
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  EXPECT_DOUBLE_EQ(again.remaining_budget(), 9.5);
  EXPECT_EQ(again.cuboids(0).SerializeAsString(),
            first.cuboids(0).SerializeAsString());
  // The same id with other parameters is another request.
  v1::ReleaseCuboidsResponse other;
  EXPECT_THAT(ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                                 Cuboids({{"Label"}}, 0.5, "c2"), &other),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("c2")));
  EXPECT_THAT(Entries(), SizeIs(1));
}

TEST_F(ReleaseRpcsTest, BadCuboidRequestsAreRefusedBeforeAnyCharge) {
  v1::ReleaseCuboidsResponse r;
  const auto alice = Buyer("alice");
  EXPECT_THAT(
      ReleaseCuboidsImpl(service_->core(), alice, Cuboids({{"Height"}}, 1), &r),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("'Height' is not a cube dimension")));
  EXPECT_THAT(ReleaseCuboidsImpl(service_->core(), alice,
                                 Cuboids({{"Sex", "Sex"}}, 1), &r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("twice")));
  EXPECT_THAT(ReleaseCuboidsImpl(service_->core(), alice, Cuboids({}, 1), &r),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("1 to 16 cuboids")));
  std::vector<std::vector<std::string>> many(17, {"Sex"});
  EXPECT_THAT(
      ReleaseCuboidsImpl(service_->core(), alice, Cuboids(many, 1), &r),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("holds 17")));
  for (const double bad :
       {kNaN, 0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    EXPECT_THAT(
        ReleaseCuboidsImpl(service_->core(), alice, Cuboids({{"Sex"}}, bad),
                           &r),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")))
        << bad;
  }
  v1::ReleaseCuboidsRequest no_cube = Cuboids({{"Sex"}}, 1);
  no_cube.set_dataset_id("plain");
  ASSERT_OK(ledger_->Grant("alice", "plain", 1));
  EXPECT_THAT(ReleaseCuboidsImpl(service_->core(), alice, no_cube, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("declared no cube_dimensions")));
  v1::ReleaseCuboidsRequest on_graph = Cuboids({{"Sex"}}, 1);
  on_graph.set_dataset_id("net");
  EXPECT_THAT(ReleaseCuboidsImpl(service_->core(), alice, on_graph, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("'net' is a graph")));
  EXPECT_THAT(Entries(), IsEmpty());
}

TEST_F(ReleaseRpcsTest, CuboidOverThreeDimensionsHasEveryCell) {
  // Age (int64, 40 values, domain inferred on request) and "other" for
  // every dimension: 41 * 3 * 3 cells, empty ones included.
  v1::ReleaseCuboidsResponse r;
  EXPECT_OK(ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                               Cuboids({{"Age", "Sex", "Label"}}, 1), &r));
  EXPECT_THAT(r.cuboids(0).cells(), SizeIs(369));
}

// ---- TrainDecisionTree
// -------------------------------------------------------

TEST_F(ReleaseRpcsTest, TreeChargesEpsilonPlusAccuracyEpsilon) {
  v1::TrainDecisionTreeRequest request = Tree(1, "t1");
  request.set_accuracy_epsilon(0.5);
  v1::TrainDecisionTreeResponse r;
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r));
  ASSERT_THAT(r.nodes(), Not(IsEmpty()));
  EXPECT_FALSE(r.tree_text().empty());
  EXPECT_TRUE(r.has_tpr());
  EXPECT_TRUE(r.has_tnr());
  // "people" has the public exact cuboid [Sex]: k_Q = 2, so a tree (private
  // for one row added or removed) is charged 2 x (1 + 0.5) in its
  // induced-neighbour ledger (docs/privacy.md 1.1).
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 3);
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 7);
  // Every child index points into the node list.
  for (const v1::DecisionTreeNode& node : r.nodes()) {
    if (node.leaf()) continue;
    EXPECT_GT(node.left(), 0);
    EXPECT_LT(node.left(), r.nodes_size());
    EXPECT_GT(node.right(), 0);
    EXPECT_LT(node.right(), r.nodes_size());
  }
  const std::vector<LedgerEntry> entries = Entries();
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation,
            "TrainDecisionTree label=Label aggregation local generations=2 "
            "population=4 with accuracy (charged 2 x epsilon: induced "
            "neighbours)");
  EXPECT_DOUBLE_EQ(entries[0].epsilon, 3);

  v1::TrainDecisionTreeResponse again;
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &again));
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  EXPECT_EQ(again.tree_text(), r.tree_text());
  EXPECT_THAT(Entries(), SizeIs(1));
}

TEST_F(ReleaseRpcsTest, TreeWithoutAccuracyHasNoRates) {
  v1::TrainDecisionTreeRequest request = Tree(1);
  request.add_features("Age");
  request.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  request.add_weights(1);
  request.add_weights(2);
  request.set_sensitivity(v1::SENSITIVITY_MODE_LOCAL);
  v1::TrainDecisionTreeResponse r;
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r));
  EXPECT_FALSE(r.has_tpr());
  EXPECT_FALSE(r.has_tnr());
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 2);  // k_Q = 2 ([Sex] is public)
  for (const v1::DecisionTreeNode& node : r.nodes()) {
    if (!node.leaf()) {
      EXPECT_EQ(node.feature(), "Age");
    }
  }
  EXPECT_THAT(Entries()[0].operation,
              StartsWith("TrainDecisionTree label=Label aggregation local"));
}

TEST_F(ReleaseRpcsTest, BadTreeRequestsAreRefusedBeforeAnyCharge) {
  const auto alice = Buyer("alice");
  v1::TrainDecisionTreeResponse r;
  auto expect_invalid = [&](v1::TrainDecisionTreeRequest request,
                            const std::string& text) {
    EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, request, &r),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(text)))
        << text;
  };
  v1::TrainDecisionTreeRequest q = Tree(1);
  q.set_label_column("Income");
  expect_invalid(q, "label_column: 'Income' is not a column");
  q = Tree(1);
  q.add_features("Height");
  expect_invalid(q, "features: 'Height' is not a column");
  q = Tree(1);
  q.add_features("Label");
  expect_invalid(q, "must not contain the label column");
  q = Tree(1);
  q.set_positive_class("");
  expect_invalid(q, "positive_class");
  q = Tree(1);
  q.set_approach(v1::SELECTION_APPROACH_PARETO);
  q.add_weights(1);
  expect_invalid(q, "weights apply to SELECTION_APPROACH_AGGREGATION only");
  q = Tree(1);  // the default approach is aggregation: 2 weights
  for (int i = 0; i < 3; ++i) q.add_weights(1);
  expect_invalid(q, "one number per objective (2: TPR, TNR)");
  q = Tree(1);
  q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  for (int i = 0; i < 3; ++i) q.add_weights(1);
  expect_invalid(q, "one number per objective (2: TPR, TNR)");
  q = Tree(1);
  q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  q.add_weights(0);
  q.add_weights(0);
  expect_invalid(q, "not all be zero");
  q = Tree(1);
  q.set_generations(201);
  expect_invalid(q, "generations must be at most 200");
  q = Tree(1);
  q.set_population(1);
  expect_invalid(q, "population must be in [2, 1000]");
  q = Tree(1);
  q.set_population(1001);
  expect_invalid(q, "population must be in [2, 1000]");
  expect_invalid(Tree(kNaN), "epsilon");
  expect_invalid(Tree(0), "epsilon");
  q = Tree(1);
  q.set_accuracy_epsilon(-1);
  expect_invalid(q, "accuracy_epsilon");
  q = Tree(1);
  q.set_dataset_id("net");
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("'net' is a graph; it answers "
                                 "SelectInfluentialNodes only")));
  EXPECT_THAT(Entries(), IsEmpty());
}

// Domains come from the declared cube dimensions only: Age's declared
// values are 20..59, so every threshold lies in [20, 59].
TEST_F(ReleaseRpcsTest, TreeThresholdsComeFromTheDeclaredDimension) {
  v1::TrainDecisionTreeRequest request = Tree(1);
  request.add_features("Age");
  request.set_generations(3);
  request.set_population(8);
  v1::TrainDecisionTreeResponse r;
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r));
  for (const v1::DecisionTreeNode& node : r.nodes()) {
    if (node.leaf()) continue;
    EXPECT_GE(node.threshold(), 20);
    EXPECT_LE(node.threshold(), 59);
  }
}

// Empty features = every declared dimension but the label (here Sex only,
// whose categories are its declared labels without "other"); a declared
// class that no row has trains fine (TPR = 0 convention, no data check).
TEST_F(ReleaseRpcsTest, TreeUsesDeclaredDimensionsAndAnyDeclaredClass) {
  v1::TrainDecisionTreeRequest request = Tree(1);
  request.set_dataset_id("partial");
  request.set_positive_class("maybe");
  request.set_accuracy_epsilon(0.5);
  v1::TrainDecisionTreeResponse r;
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r));
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 1.5);
  for (const v1::DecisionTreeNode& node : r.nodes()) {
    if (node.leaf()) continue;
    EXPECT_EQ(node.feature(), "Sex");
    EXPECT_THAT(node.category(), ::testing::AnyOf("F", "M"));
  }
}

TEST_F(ReleaseRpcsTest, TreeNeedsPublicDomainsBeforeAnyCharge) {
  const auto alice = Buyer("alice");
  v1::TrainDecisionTreeResponse r;
  v1::TrainDecisionTreeRequest q = Tree(1);
  q.set_dataset_id("plain");  // no cube dimension at all
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("column 'Label' has no public domain: the "
                                 "dataset owner must declare it as a cube "
                                 "dimension (dpq admin register "
                                 "--cube-dimension ...)")));
  q = Tree(1);
  q.set_dataset_id("partial");
  q.add_features("Sex");
  q.add_features("Age");  // a column, but not declared
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("column 'Age' has no public domain")));
  q = Tree(1);
  q.set_dataset_id("partial");
  q.set_positive_class("rich");
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("positive_class 'rich' is not a declared "
                                 "value of the label column 'Label'; its "
                                 "values are: no, yes, maybe.")));
  // The "other" catch-all is no class.
  q = Tree(1);
  q.set_positive_class("other");
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("its values are: ")));
  // An unknown column is still INVALID_ARGUMENT.
  q = Tree(1);
  q.set_dataset_id("partial");
  q.add_features("Height");
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("features: 'Height' is not a column")));
  EXPECT_THAT(Entries(), IsEmpty());
}

TEST_F(ReleaseRpcsTest, TreeOverBudgetChargesNothingAndFreesItsSlot) {
  v1::TrainDecisionTreeResponse r;
  EXPECT_THAT(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), Tree(11), &r),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("remaining 10")));
  // The heavy-job slot was given back: the next trainings run.
  for (int i = 0; i < 3; ++i) {
    EXPECT_OK(
        TrainDecisionTreeImpl(service_->core(), Buyer("alice"), Tree(0.1), &r));
  }
}

// The ledger charges "people" k_Q = 2 times epsilon + accuracy_epsilon;
// the refusal names the request's own epsilon and how the charge follows
// from it, in the message and in the details (docs/errors.md).
TEST_F(ReleaseRpcsTest, OverBudgetRefusalSpeaksInTheBuyersNumbers) {
  v1::TrainDecisionTreeRequest request = Tree(4);
  request.set_accuracy_epsilon(2);
  v1::TrainDecisionTreeResponse r;
  const absl::Status refused =
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r);
  EXPECT_THAT(
      refused,
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("requested epsilon 4 (charged 12 = 2 x (4 + "
                         "accuracy_epsilon 2): the dataset publishes an exact "
                         "cuboid), remaining 10.")));
  const std::optional<core::util::ErrorDetails> details =
      core::util::GetErrorDetails(refused);
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->reason, "BUDGET_EXHAUSTED");
  EXPECT_EQ(details->metadata.at("dataset_id"), "people");
  EXPECT_EQ(details->metadata.at("requested_epsilon"), "4");
  EXPECT_EQ(details->metadata.at("charged_epsilon"), "12");
  EXPECT_EQ(details->metadata.at("charged_epsilon_units"), "12000000000000");
  EXPECT_EQ(details->metadata.at("remaining_epsilon"), "10");
  ASSERT_THAT(details->quota_violations, SizeIs(1));
  EXPECT_EQ(details->quota_violations[0].subject, "buyer:alice/dataset:people");
  // A cube release is charged its epsilon: no second number.
  v1::ReleaseCuboidsResponse cuboids;
  const absl::Status cube =
      ReleaseCuboidsImpl(service_->core(), Buyer("alice"),
                         Cuboids({{"Sex"}}, 10.5, "c-big"), &cuboids);
  EXPECT_THAT(cube,
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("requested epsilon 10.5, remaining 10.")));
  EXPECT_EQ(
      core::util::GetErrorDetails(cube)->metadata.count("charged_epsilon"), 0u);
  EXPECT_THAT(Entries(), IsEmpty());
}

// A caller that leaves stops the training (cooperative cancellation), but
// the charge stands once reserved (docs/privacy.md 3, rule 3): training
// time depends on the rows, so a free abandoned try would be a timing
// oracle. The retry with the same request_id trains and answers for free.
TEST_F(ReleaseRpcsTest, TreeStoppedByItsCallerIsChargedAndTheRetryResumes) {
  v1::TrainDecisionTreeRequest request = Tree(1, "stop-1");
  request.set_generations(3);
  request.set_population(20);
  auto polls = std::make_shared<int>(0);
  CallContext leaving;
  // Present when the call arrives; gone from the first poll after the
  // reservation on.
  leaving.cancelled = [polls] { return ++*polls > 1; };
  v1::TrainDecisionTreeResponse r;
  EXPECT_THAT(TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request,
                                    &r, leaving),
              StatusIs(absl::StatusCode::kCancelled,
                       HasSubstr("request_id 'stop-1' stands")));
  std::vector<LedgerEntry> entries = Entries();
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, core::ledger::EntryState::kCharged);
  EXPECT_DOUBLE_EQ(entries[0].epsilon, 2);  // k_Q = 2 on "people"

  request.set_generations(2);  // a different request: refused, not resumed
  EXPECT_THAT(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r),
      StatusIs(absl::StatusCode::kAlreadyExists,
               HasSubstr("for a different request")));
  request.set_generations(3);
  ASSERT_OK(
      TrainDecisionTreeImpl(service_->core(), Buyer("alice"), request, &r));
  EXPECT_TRUE(r.replayed());
  EXPECT_EQ(r.epsilon_charged(), 0);
  EXPECT_FALSE(r.tree_text().empty());
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 8);
}

// ---- SelectInfluentialNodes
// ---------------------------------------------------

TEST_F(ReleaseRpcsTest, NodesAreSelectedUnderEdgeDp) {
  v1::SelectInfluentialNodesResponse r;
  ASSERT_OK(SelectInfluentialNodesImpl(service_->core(), Buyer("alice"),
                                       Nodes(2, 1, "n1"), &r));
  ASSERT_THAT(r.nodes(), SizeIs(2));
  const std::set<std::string> all = {"a", "b", "c", "d", "e", "f"};
  EXPECT_TRUE(all.count(r.nodes(0)) && all.count(r.nodes(1)));
  EXPECT_NE(r.nodes(0), r.nodes(1));
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 1);
  const std::vector<LedgerEntry> entries = Entries();
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation,
            "SelectInfluentialNodes k=2 pareto global "
            "degree,egocentric_density");
  EXPECT_EQ(entries[0].neighbouring, "one edge added or removed (edge-DP)");

  v1::SelectInfluentialNodesResponse again;
  ASSERT_OK(SelectInfluentialNodesImpl(service_->core(), Buyer("alice"),
                                       Nodes(2, 1, "n1"), &again));
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  EXPECT_THAT(again.nodes(), ElementsAre(r.nodes(0), r.nodes(1)));
}

TEST_F(ReleaseRpcsTest, NodesByAggregationWithOneObjective) {
  v1::SelectInfluentialNodesRequest q = Nodes(1, 1);
  q.add_objectives(v1::NODE_OBJECTIVE_DEGREE);
  q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  q.add_weights(2);
  q.set_sensitivity(v1::SENSITIVITY_MODE_LOCAL);
  v1::SelectInfluentialNodesResponse r;
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_THAT(r.nodes(), SizeIs(1));
  EXPECT_EQ(Entries()[0].operation,
            "SelectInfluentialNodes k=1 aggregation local degree");
}

// The selection scores are computed once per (dataset version,
// objectives, approach, sensitivity, weights); epsilon and k do not
// matter. Every call is still charged and draws afresh.
TEST_F(ReleaseRpcsTest, NodeScoresAreCachedPerVersionAndParameters) {
  v1::DatasetManifest manifest;
  manifest.set_dataset_id("cachenet");
  manifest.set_kind(v1::DATASET_KIND_GRAPH);
  for (const char* node : {"a", "b", "c", "d", "e", "f"}) {
    manifest.add_node_labels(node);
  }
  ASSERT_OK(registry_->Register(manifest, kEdges).status());
  ASSERT_OK(ledger_->Grant("alice", "cachenet", 10));
  const NodeScoresCache& cache = service_->core().node_scores;
  v1::SelectInfluentialNodesRequest q = Nodes(1, 0.5);
  q.set_dataset_id("cachenet");
  q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  q.set_sensitivity(v1::SENSITIVITY_MODE_LOCAL);
  q.add_weights(1);
  q.add_weights(1);
  v1::SelectInfluentialNodesResponse r;
  const uint64_t before = cache.computations();
  q.set_request_id("cache-1");
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_EQ(cache.computations(), before + 1);
  // Other epsilon and k, same scores: no recomputation, charged again.
  q.set_epsilon(0.25);
  q.set_k(2);
  q.set_request_id("cache-2");
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_EQ(cache.computations(), before + 1);
  EXPECT_DOUBLE_EQ(r.epsilon_charged(), 0.25);
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 9.25);
  EXPECT_THAT(r.nodes(), SizeIs(2));
  // Other weights: other scores.
  q.set_weights(1, 3);
  q.set_request_id("cache-3");
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_EQ(cache.computations(), before + 2);
  // A new version of the dataset: recomputed.
  ASSERT_OK(registry_->Replace(manifest, kEdges).status());
  q.set_request_id("cache-4");
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_EQ(cache.computations(), before + 3);
  q.set_request_id("cache-5");
  ASSERT_OK(
      SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r));
  EXPECT_EQ(cache.computations(), before + 3);
  ASSERT_OK(registry_->Delete("cachenet"));
}

// Cached scores, fresh draws: at epsilon = 0.01 the 6 nodes are nearly
// uniform (Pareto scores differ by at most 5, so each probability is in
// [0.16, 0.18]): 20 draws all alike have probability below 6 * 0.18^20 <
// 1e-14 (the service's OpenSSL randomness cannot be seeded).
TEST_F(ReleaseRpcsTest, CachedNodeScoresStillGiveRandomDraws) {
  std::set<std::string> drawn;
  for (int i = 0; i < 20; ++i) {
    v1::SelectInfluentialNodesResponse r;
    ASSERT_OK(SelectInfluentialNodesImpl(service_->core(), Buyer("alice"),
                                         Nodes(1, 0.01), &r));
    ASSERT_THAT(r.nodes(), SizeIs(1));
    drawn.insert(r.nodes(0));
  }
  EXPECT_GT(drawn.size(), 1u);
}

// The review's oracle (docs/privacy.md 7, finding 2): with weights (w, 0),
// w * degree used to overflow exactly when a degree exceeded DBL_MAX / |w|,
// and the error (before any charge) named the candidate; a binary search
// over w revealed the largest degree for free. Weights are normalised now
// (the selection is scale-invariant), so every w gives a charged answer.
TEST_F(ReleaseRpcsTest, WeightsCannotProbeTheLargestDegreeForFree) {
  for (const double w : {1.0, 1e300, std::numeric_limits<double>::max(),
                         -std::numeric_limits<double>::max()}) {
    for (const auto mode :
         {v1::SENSITIVITY_MODE_GLOBAL, v1::SENSITIVITY_MODE_LOCAL}) {
      v1::SelectInfluentialNodesRequest q = Nodes(1, 0.1);
      q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
      q.set_sensitivity(mode);
      q.add_weights(w);
      q.add_weights(0);
      v1::SelectInfluentialNodesResponse r;
      ASSERT_OK(
          SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), q, &r))
          << w;
      EXPECT_THAT(r.nodes(), SizeIs(1));
      EXPECT_DOUBLE_EQ(r.epsilon_charged(), 0.1);
    }
  }
  // An epsilon below the public floor is refused before anything else.
  v1::SelectInfluentialNodesResponse r;
  EXPECT_THAT(SelectInfluentialNodesImpl(service_->core(), Buyer("alice"),
                                         Nodes(1, 1e-300), &r),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least 1e-06")));
}

TEST_F(ReleaseRpcsTest, BadNodeRequestsAreRefusedBeforeAnyCharge) {
  const auto alice = Buyer("alice");
  v1::SelectInfluentialNodesResponse r;
  auto expect_invalid = [&](v1::SelectInfluentialNodesRequest request,
                            const std::string& text) {
    EXPECT_THAT(
        SelectInfluentialNodesImpl(service_->core(), alice, request, &r),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(text)))
        << text;
  };
  expect_invalid(Nodes(0, 1), "k must be in [1, 100]");
  expect_invalid(Nodes(101, 1), "k must be in [1, 100]");
  expect_invalid(Nodes(7, 1), "node count of dataset 'net' (6)");
  expect_invalid(Nodes(1, kNaN), "epsilon");
  expect_invalid(Nodes(1, -2), "epsilon");
  v1::SelectInfluentialNodesRequest q = Nodes(1, 1);
  q.add_objectives(v1::NODE_OBJECTIVE_DEGREE);
  q.add_objectives(v1::NODE_OBJECTIVE_DEGREE);
  expect_invalid(q, "twice");
  q = Nodes(1, 1);
  q.add_objectives(v1::NODE_OBJECTIVE_UNSPECIFIED);
  expect_invalid(q, "objectives");
  q = Nodes(1, 1);
  q.add_weights(1);
  expect_invalid(q, "weights apply to SELECTION_APPROACH_AGGREGATION only");
  q = Nodes(1, 1);
  q.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  for (int i = 0; i < 3; ++i) q.add_weights(1);
  expect_invalid(q, "one number per objective (2: degree,egocentric_density)");
  q = Nodes(1, 1);
  q.set_dataset_id("people");
  EXPECT_THAT(SelectInfluentialNodesImpl(service_->core(), alice, q, &r),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("'people' is a table")));
  EXPECT_THAT(Entries(), IsEmpty());
}

// Every release kind over the extreme public parameters (N = 2^32 - 2,
// epsilon down to the floor 1e-6): a request is either answered or refused
// before anything is reserved, never charged and then refused. Before the
// measures' noise scales were checked with the request, I_MI at N = 2^32 - 2
// and epsilon 1e-6 was reserved and then refused "Sensitivity / epsilon
// must be at most ..." on every retry.
TEST_F(ReleaseRpcsTest, EveryReleaseKindRefusesPublicLimitsBeforeAnyCharge) {
  v1::DatasetManifest huge;
  huge.set_dataset_id("huge");
  huge.set_constraints("Sex -> Label\n");
  huge.set_public_max_rows(4'294'967'294);
  huge.set_infer_column_types(true);
  for (const char* column : {"Sex", "Age", "Label"}) {
    v1::CubeDimension* dim = huge.add_cube_dimensions();
    dim->set_column(column);
    dim->set_infer_domain(true);
  }
  ASSERT_OK(registry_->Register(huge, PeopleCsv()).status());
  ASSERT_OK(ledger_->Grant("alice", "huge", 10));
  const auto alice = Buyer("alice");
  int refused = 0;
  // Runs one release; a refusal must leave the ledger as it was.
  const auto check = [&](const std::string& what, const auto& run) {
    const size_t before = Entries().size();
    const absl::Status status = run();
    if (!status.ok()) {
      ++refused;
      EXPECT_EQ(Entries().size(), before) << what << ": " << status;
      EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("Nothing was charged")))
          << what;
    } else {
      EXPECT_EQ(Entries().size(), before + 1) << what;
    }
  };
  for (const double epsilon : {1e-6, 2e-6, 1e-3}) {
    for (const v1::Measure measure : {v1::MEASURE_MI, v1::MEASURE_P}) {
      for (const v1::SelectionMethod method :
           {v1::SELECTION_METHOD_UNSPECIFIED, v1::SELECTION_METHOD_GEM,
            v1::SELECTION_METHOD_OPTIMIZED, v1::SELECTION_METHOD_HIERARCHICAL,
            v1::SELECTION_METHOD_BASIC, v1::SELECTION_METHOD_BASELINE}) {
        v1::MeasureInconsistencyRequest r;
        r.set_dataset_id("huge");
        r.set_measure(measure);
        r.set_method(method);
        r.set_epsilon(epsilon);
        r.set_request_id(IdOr(""));
        check(absl::StrCat("measure ", measure, " method ", method, " eps ",
                           epsilon),
              [&] {
                v1::MeasureInconsistencyResponse response;
                return MeasureInconsistencyImpl(service_->core(), alice, r,
                                                &response);
              });
      }
    }
    for (const v1::RepairMethod repair :
         {v1::REPAIR_METHOD_COVER_BOUND, v1::REPAIR_METHOD_VERTEX_COVER}) {
      v1::MeasureInconsistencyRequest r;
      r.set_dataset_id("huge");
      r.set_measure(v1::MEASURE_R);
      r.set_repair_method(repair);
      r.set_epsilon(epsilon);
      r.set_request_id(IdOr(""));
      check(absl::StrCat("I_R ", repair, " eps ", epsilon), [&] {
        v1::MeasureInconsistencyResponse response;
        return MeasureInconsistencyImpl(service_->core(), alice, r, &response);
      });
    }
    for (const bool row_count : {false, true}) {
      v1::QualityReportRequest r;
      r.set_dataset_id("huge");
      r.set_epsilon(3 * epsilon);
      r.set_include_row_count(row_count);
      r.set_request_id(IdOr(""));
      check(absl::StrCat("report eps ", 3 * epsilon), [&] {
        v1::QualityReportResponse response;
        return QualityReportImpl(service_->core(), alice, r, &response);
      });
    }
    v1::ReleaseCuboidsRequest cuboids = Cuboids({{"Sex", "Label"}}, epsilon);
    cuboids.set_dataset_id("huge");
    check(absl::StrCat("cuboids eps ", epsilon), [&] {
      v1::ReleaseCuboidsResponse response;
      return ReleaseCuboidsImpl(service_->core(), alice, cuboids, &response);
    });
    v1::TrainDecisionTreeRequest tree = Tree(epsilon);
    tree.set_dataset_id("huge");
    tree.set_accuracy_epsilon(epsilon);
    check(absl::StrCat("tree eps ", epsilon), [&] {
      v1::TrainDecisionTreeResponse response;
      return TrainDecisionTreeImpl(service_->core(), alice, tree, &response);
    });
    check(absl::StrCat("nodes eps ", epsilon), [&] {
      v1::SelectInfluentialNodesResponse response;
      return SelectInfluentialNodesImpl(service_->core(), alice,
                                        Nodes(1, epsilon), &response);
    });
  }
  // The walk reaches the limit: the flow releases at N = 2^32 - 2 need an
  // epsilon of about 4,000 / 2^40 and more.
  EXPECT_GT(refused, 0);
}

TEST_F(ReleaseRpcsTest, GraphDatasetAnswersNoMeasures) {
  v1::MeasureInconsistencyRequest m;
  m.set_dataset_id("net");
  m.set_measure(v1::MEASURE_MI);
  m.set_epsilon(1);
  m.set_request_id("graph-mi");
  v1::MeasureInconsistencyResponse mr;
  EXPECT_THAT(
      MeasureInconsistencyImpl(service_->core(), Buyer("alice"), m, &mr),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("'net' is a graph")));
  v1::QualityReportRequest q;
  q.set_dataset_id("net");
  q.set_epsilon(1);
  q.set_request_id("graph-qr");
  v1::QualityReportResponse qr;
  EXPECT_THAT(QualityReportImpl(service_->core(), Buyer("alice"), q, &qr),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("'net' is a graph")));
  EXPECT_THAT(Entries(), IsEmpty());
}

// ---- Shared pieces
// -------------------------------------------------------------

// Recorded answers stay replayable across the upgrade: the generic
// fingerprint reproduces the text MeasureInconsistency hashed before.
TEST(FingerprintTest, MatchesTheEarlierMeasureFingerprint) {
  const double epsilon = 0.5;
  uint64_t bits = 0;
  std::memcpy(&bits, &epsilon, sizeof(bits));
  const std::string old_text = absl::StrFormat(
      "dpq.v1.BuyerService/%s\ndataset=%s\nversion=%d\nmeasure=%s\n"
      "epsilon=%016x\nmethod=%s\n",
      "MeasureInconsistency", "hospital", 3, "MI", bits, "optimized");
  EXPECT_EQ(FingerprintOf("MeasureInconsistency", {{"dataset", "hospital"},
                                                   {"version", "3"},
                                                   {"measure", "MI"},
                                                   {"epsilon", DoubleBits(0.5)},
                                                   {"method", "optimized"}}),
            core::util::Sha256Hex(old_text));
  // A value cannot forge another parameter line.
  EXPECT_NE(FingerprintOf("X", {{"a", "1\nb=2"}}),
            FingerprintOf("X", {{"a", "1"}, {"b", "2"}}));
}

// Every release kind records the parameters and operation it always has
// (transcribed from the handlers before they shared one pipeline), so a
// retry of a request recorded by an earlier server still replays.
TEST_F(ReleaseRpcsTest, EveryReleaseKindKeepsItsFingerprintAndOperation) {
  const std::string people_version =
      absl::StrCat((*registry_->Get("people"))->version);
  const std::string net_version =
      absl::StrCat((*registry_->Get("net"))->version);
  auto entry = [&](const std::string& request_id) {
    for (const LedgerEntry& e : Entries()) {
      if (e.request_id == request_id) return e;
    }
    ADD_FAILURE() << "no entry " << request_id;
    return LedgerEntry();
  };

  v1::MeasureInconsistencyRequest mi;
  mi.set_dataset_id("people");
  mi.set_measure(v1::MEASURE_P);
  mi.set_method(v1::SELECTION_METHOD_BASIC);
  mi.set_epsilon(0.5);
  mi.set_request_id("fp-mi");
  v1::MeasureInconsistencyResponse mi_response;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), mi,
                                     &mi_response));
  EXPECT_EQ(entry("fp-mi").fingerprint,
            FingerprintOf("MeasureInconsistency", {{"dataset", "people"},
                                                   {"version", people_version},
                                                   {"measure", "P"},
                                                   {"epsilon", DoubleBits(0.5)},
                                                   {"method", "basic"}}));
  EXPECT_THAT(entry("fp-mi").operation,
              StartsWith("MeasureInconsistency P basic"));

  v1::QualityReportRequest qr;
  qr.set_dataset_id("people");
  qr.set_method(v1::SELECTION_METHOD_BASIC);
  qr.set_epsilon(0.75);
  qr.set_request_id("fp-qr");
  v1::QualityReportResponse qr_response;
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), qr, &qr_response));
  EXPECT_EQ(entry("fp-qr").fingerprint,
            FingerprintOf("QualityReport", {{"dataset", "people"},
                                            {"version", people_version},
                                            {"measure", "MI,P,R"},
                                            {"epsilon", DoubleBits(0.75)},
                                            {"method", "basic,cover_bound"}}));
  EXPECT_THAT(entry("fp-qr").operation,
              StartsWith("QualityReport MI,P,R basic,cover_bound"));

  v1::ReleaseCuboidsRequest cuboids =
      Cuboids({{"Sex", "Age"}, {"Age"}}, 0.25, "fp-cuboids");
  cuboids.set_non_negative_integral(true);
  v1::ReleaseCuboidsResponse cuboids_response;
  ASSERT_OK(ReleaseCuboidsImpl(service_->core(), Buyer("alice"), cuboids,
                               &cuboids_response));
  EXPECT_EQ(entry("fp-cuboids").fingerprint,
            FingerprintOf("ReleaseCuboids", {{"dataset", "people"},
                                             {"version", people_version},
                                             {"epsilon", DoubleBits(0.25)},
                                             {"non_negative_integral", "1"},
                                             {"cuboid", "Sex\nAge"},
                                             {"cuboid", "Age"}}));
  EXPECT_EQ(entry("fp-cuboids").operation,
            "ReleaseCuboids [Sex,Age] [Age] integral");

  v1::TrainDecisionTreeRequest tree = Tree(0.25, "fp-tree");
  tree.add_features("Age");
  tree.add_features("Sex");
  tree.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  tree.add_weights(1);
  tree.add_weights(2);
  tree.set_sensitivity(v1::SENSITIVITY_MODE_LOCAL);
  tree.set_accuracy_epsilon(0.125);
  v1::TrainDecisionTreeResponse tree_response;
  ASSERT_OK(TrainDecisionTreeImpl(service_->core(), Buyer("alice"), tree,
                                  &tree_response));
  EXPECT_EQ(entry("fp-tree").fingerprint,
            FingerprintOf(
                "TrainDecisionTree",
                {{"dataset", "people"},
                 {"version", people_version},
                 {"label", "Label"},
                 {"positive", "yes"},
                 {"features", "Age\nSex"},
                 {"approach", "aggregation"},
                 {"weights", absl::StrCat(DoubleBits(1), ",", DoubleBits(2))},
                 {"sensitivity", "local"},
                 {"epsilon", DoubleBits(0.25)},
                 {"accuracy_epsilon", DoubleBits(0.125)},
                 {"generations", "2"},
                 {"population", "4"}}));
  EXPECT_THAT(entry("fp-tree").operation,
              StartsWith("TrainDecisionTree label=Label aggregation local "
                         "generations=2 population=4 with accuracy"));

  v1::SelectInfluentialNodesRequest nodes = Nodes(2, 0.3, "fp-nodes");
  nodes.add_objectives(v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY);
  nodes.add_objectives(v1::NODE_OBJECTIVE_DEGREE);
  nodes.set_approach(v1::SELECTION_APPROACH_AGGREGATION);
  nodes.add_weights(0.5);
  nodes.add_weights(1);
  v1::SelectInfluentialNodesResponse nodes_response;
  ASSERT_OK(SelectInfluentialNodesImpl(service_->core(), Buyer("alice"), nodes,
                                       &nodes_response));
  EXPECT_EQ(entry("fp-nodes").fingerprint,
            FingerprintOf(
                "SelectInfluentialNodes",
                {{"dataset", "net"},
                 {"version", net_version},
                 {"k", "2"},
                 {"objectives", "egocentric_density,degree"},
                 {"approach", "aggregation"},
                 {"weights", absl::StrCat(DoubleBits(0.5), ",", DoubleBits(1))},
                 {"sensitivity", "global"},
                 {"epsilon", DoubleBits(0.3)}}));
  EXPECT_EQ(entry("fp-nodes").operation,
            "SelectInfluentialNodes k=2 aggregation global "
            "egocentric_density,degree");
}

// ---- Releases wait for the background conflict graph
// -------------------------

// After a server start the graphs are rebuilt in the background. A release
// that needs one waits for it AFTER its charge (docs/privacy.md 2.3 and 3,
// rule 3): how long the build takes depends on the data, so a deadline that
// passes meanwhile must not make the try free. The retry with the same
// request_id gets the answer without a further charge.
TEST(BackgroundGraphReleaseTest, WaitingForTheGraphIsChargedAndResumable) {
  const TempDir temp_dir("dpq-release-wait");
  const fs::path dir = temp_dir.path();
  absl::Notification gate;
  registry::DatasetRegistry::Options options;
  options.data_dir = (dir / "data").string();
  options.graph_threads = 1;
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<registry::DatasetRegistry> first,
                         registry::DatasetRegistry::Open(options));
    v1::DatasetManifest m;
    m.set_dataset_id("zips");
    m.set_constraints("Zip -> City\n");
    m.set_public_max_rows(100);
    m.set_infer_column_types(true);
    ASSERT_OK(first->Register(m, "Zip,City\n1,a\n1,b\n2,c\n").status());
  }
  // The restart's rebuild is held back.
  options.before_graph_build = [&gate](const std::string&) {
    gate.WaitForNotificationWithTimeout(absl::Seconds(20));
  };
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<registry::DatasetRegistry> registry,
                       registry::DatasetRegistry::Open(options));
  ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<storage::SqliteLedgerStore> ledger,
      storage::SqliteLedgerStore::Open((dir / "ledger.db").string()));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<storage::SqliteAccountsStore> accounts,
                       storage::SqliteAccountsStore::Open(":memory:"));
  BuyerServiceImpl service(registry.get(), ledger.get(), accounts.get());
  ASSERT_OK(ledger->Grant("bob", "zips", 5));

  v1::MeasureInconsistencyRequest request;
  request.set_dataset_id("zips");
  request.set_measure(v1::MEASURE_MI);
  request.set_epsilon(1);
  request.set_request_id("w1");
  v1::MeasureInconsistencyResponse response;
  CallContext short_call;
  short_call.deadline = absl::Now() + absl::Milliseconds(50);
  const absl::Status timed_out = MeasureInconsistencyImpl(
      service.core(), Buyer("bob"), request, &response, short_call);
  EXPECT_THAT(timed_out,
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("The charge of epsilon 1 for request_id 'w1' "
                                 "stands")));
  // The message never also claims the opposite (nothing was charged).
  EXPECT_THAT(timed_out.message(), HasSubstr("still being built"));
  EXPECT_THAT(timed_out.message(), HasSubstr("retry with the same request_id"));
  EXPECT_THAT(absl::AsciiStrToLower(timed_out.message()),
              Not(HasSubstr("nothing was charged")))
      << timed_out;
  ASSERT_OK_AND_ASSIGN(core::ledger::BudgetState budget,
                       ledger->GetBudget("bob", "zips"));
  EXPECT_EQ(budget.spent, 1);
  EXPECT_EQ(budget.reserved, 0);
  // Cancelled by the client while it waits (after the reservation): the
  // same, charged and resumable.
  v1::MeasureInconsistencyRequest cancelled_request = request;
  cancelled_request.set_request_id("w2");
  auto reserved_seen = std::make_shared<std::atomic<bool>>(false);
  CallContext cancelled_call;
  cancelled_call.cancelled = [&ledger, reserved_seen] {
    if (!*reserved_seen) {
      const absl::StatusOr<core::ledger::BudgetState> b =
          ledger->GetBudget("bob", "zips");
      if (b.ok() && b->reserved > 0) *reserved_seen = true;
    }
    return reserved_seen->load();
  };
  const absl::Status cancelled =
      MeasureInconsistencyImpl(service.core(), Buyer("bob"), cancelled_request,
                               &response, cancelled_call);
  EXPECT_THAT(cancelled,
              StatusIs(absl::StatusCode::kCancelled,
                       HasSubstr("The charge of epsilon 1 for request_id 'w2' "
                                 "stands: retry with the same request_id")));
  EXPECT_THAT(absl::AsciiStrToLower(cancelled.message()),
              Not(HasSubstr("nothing was charged")))
      << cancelled;
  ASSERT_OK_AND_ASSIGN(budget, ledger->GetBudget("bob", "zips"));
  EXPECT_EQ(budget.spent, 2);
  EXPECT_EQ(budget.reserved, 0);
  // The retry waits for the build and returns the answer, charged once.
  std::thread opener([&gate] {
    absl::SleepFor(absl::Milliseconds(50));
    gate.Notify();
  });
  EXPECT_OK(MeasureInconsistencyImpl(service.core(), Buyer("bob"), request,
                                     &response));
  opener.join();
  EXPECT_EQ(response.epsilon_charged(), 0);
  EXPECT_TRUE(response.replayed());
  EXPECT_TRUE(response.has_result());
  ASSERT_OK_AND_ASSIGN(budget, ledger->GetBudget("bob", "zips"));
  EXPECT_EQ(budget.spent, 2);
  registry.reset();
}

}  // namespace
}  // namespace dpq::server::buyer
