#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/dp/discrete_laplace.h"
#include "core/util/error_details.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/server_context.h"
#include "gtest/gtest.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/describe_dataset_impl.h"
#include "server/buyer/get_budget_impl.h"
#include "server/buyer/list_datasets_impl.h"
#include "server/buyer/list_receipts_impl.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/preview_cost_impl.h"
#include "server/buyer/quality_report_impl.h"
#include "server/registry/dataset_registry.h"
#include "server/storage/sqlite_accounts_store.h"
#include "server/storage/sqlite_database.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::buyer {
namespace {

namespace fs = std::filesystem;
using core::ledger::EntryState;
using core::ledger::LedgerEntry;
using core::ledger::LedgerFilter;
using ::dpq::testing::IsOk;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::AllOf;
using ::testing::DoubleEq;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using ::testing::StartsWith;

constexpr char kHospital[] = "hospital";
constexpr char kSmall[] = "small";
constexpr char kSmallCsv[] = "Zip,City\n10,a\n10,b\n20,c\n";
// Registered with exact_repair: K6 (six rows of zip 10, six cities) plus an
// isolated row. I_R = 5; the plain LP says 3, cover_bound's clique LP (the
// FD's block) 5.
constexpr char kExact[] = "exact";
constexpr char kExactCsv[] =
    "Zip,City\n10,a\n10,b\n10,c\n10,d\n10,e\n10,f\n20,g\n";

auth::Principal Buyer(const std::string& id) {
  return auth::Principal{id, auth::Role::kBuyer};
}

v1::MeasureInconsistencyRequest MeasureRequest(
    v1::Measure measure, double epsilon, const std::string& request_id,
    const std::string& dataset = kHospital) {
  v1::MeasureInconsistencyRequest r;
  r.set_dataset_id(dataset);
  r.set_measure(measure);
  r.set_epsilon(epsilon);
  r.set_request_id(request_id);
  return r;
}

class BuyerServiceTest : public ::testing::Test {
 protected:
  // The demo dataset's graph is built once for the suite.
  static void SetUpTestSuite() {
    registry_dir_ = new TempDir("dpq-buyer-registry");
    registry::DatasetRegistry::Options options;
    options.data_dir = registry_dir_->path();
    absl::StatusOr<std::unique_ptr<registry::DatasetRegistry>> r =
        registry::DatasetRegistry::Open(options);
    ASSERT_THAT(r, IsOk());
    registry_ = r->release();
    v1::DatasetManifest m;
    m.set_dataset_id(kHospital);
    m.set_description("demo hospital data");
    m.set_public_max_rows(2000);
    m.set_infer_column_types(true);
    m.set_constraints(
        ReadFileOrEmpty(DPQ_SOURCE_DIR "/deploy/demo/hospital.dc"));
    ASSERT_THAT(
        registry_->Register(
            m, ReadFileOrEmpty(DPQ_SOURCE_DIR "/deploy/demo/hospital.csv")),
        IsOk());
    // Graphs build in the background; tests that count cancellation checks
    // or time the release need it ready before the first call.
    registry_->WaitForGraphBuilds();
  }
  static void TearDownTestSuite() {
    delete registry_;
    registry_ = nullptr;
    delete registry_dir_;
  }

  void SetUp() override {
    // A test that failed half-way may have left the small dataset behind.
    for (const char* id : {kSmall, kExact}) {
      if (registry_->Contains(id)) {
        ASSERT_OK(registry_->Delete(id));
      }
    }
    absl::StatusOr<std::unique_ptr<storage::SqliteLedgerStore>> ledger =
        storage::SqliteLedgerStore::Open((dir_ / "ledger.db").string());
    ASSERT_THAT(ledger, IsOk());
    ledger_ = *std::move(ledger);
    ASSERT_OK_AND_ASSIGN(accounts_,
                         storage::SqliteAccountsStore::Open(":memory:"));
    service_ = std::make_unique<BuyerServiceImpl>(registry_, ledger_.get(),
                                                  accounts_.get());
  }
  void TearDown() override {
    service_.reset();
    ledger_.reset();
  }

  // Registers kExact with exact_repair (removed again by the next SetUp).
  void RegisterExactRepairDataset() {
    v1::DatasetManifest m;
    m.set_dataset_id(kExact);
    m.set_public_max_rows(10);
    m.set_infer_column_types(true);
    m.set_constraints("Zip -> City");
    m.set_exact_repair(true);
    ASSERT_THAT(registry_->Register(m, kExactCsv), IsOk());
  }

  void Grant(const std::string& buyer, double epsilon,
             const std::string& dataset = kHospital) {
    ASSERT_THAT(ledger_->Grant(buyer, dataset, epsilon), IsOk());
  }

  std::vector<LedgerEntry> Entries(const std::string& buyer = "") {
    LedgerFilter filter;
    filter.buyer_id = buyer;
    filter.limit = 1000;
    absl::StatusOr<std::vector<LedgerEntry>> entries =
        ledger_->ListEntries(filter);
    EXPECT_THAT(entries, IsOk());
    return entries.ok() ? *entries : std::vector<LedgerEntry>{};
  }

  double Remaining(const std::string& buyer,
                   const std::string& dataset = kHospital) {
    absl::StatusOr<core::ledger::BudgetState> b =
        ledger_->GetBudget(buyer, dataset);
    EXPECT_THAT(b, IsOk());
    return b.ok() ? b->remaining() : -1;
  }

  static TempDir* registry_dir_;
  static registry::DatasetRegistry* registry_;
  TempDir temp_dir_{"dpq-buyer"};
  const fs::path dir_{temp_dir_.path()};
  std::unique_ptr<storage::SqliteLedgerStore> ledger_;
  std::unique_ptr<storage::SqliteAccountsStore> accounts_;
  std::unique_ptr<BuyerServiceImpl> service_;
};

TempDir* BuyerServiceTest::registry_dir_ = nullptr;
registry::DatasetRegistry* BuyerServiceTest::registry_ = nullptr;

// ---- Metadata ---------------------------------------------------------------

TEST_F(BuyerServiceTest, ListDatasetsShowsPublicMetadataOnly) {
  v1::ListDatasetsResponse response;
  ASSERT_OK(ListDatasetsImpl(service_->core(), Buyer("alice"), {}, &response));
  ASSERT_THAT(response.datasets(), SizeIs(1));
  const v1::DatasetInfo& info = response.datasets(0);
  EXPECT_EQ(info.dataset_id(), kHospital);
  EXPECT_EQ(info.public_max_rows(), 2000u);
  EXPECT_EQ(info.row_count(), 0u);
  EXPECT_EQ(info.columns_size(), 19);
  EXPECT_EQ(info.constraints_size(), 15);
  EXPECT_EQ(info.neighbouring(), registry::kTupleNeighbouring);
  // No cell value of the data appears anywhere in what is sent.
  const std::string wire = response.SerializeAsString();
  EXPECT_FALSE(absl::StrContains(wire, "callahan"));
  EXPECT_FALSE(absl::StrContains(wire, "birmingham"));
  // Admins may read it too.
  v1::ListDatasetsResponse admin_view;
  ASSERT_OK(ListDatasetsImpl(service_->core(),
                             auth::Principal{"admin", auth::Role::kAdmin}, {},
                             &admin_view));
  EXPECT_EQ(admin_view.SerializeAsString(), wire);
}

TEST_F(BuyerServiceTest, DescribeDataset) {
  v1::DescribeDatasetRequest request;
  request.set_dataset_id(kHospital);
  v1::DescribeDatasetResponse response;
  ASSERT_OK(DescribeDatasetImpl(service_->core(), Buyer("alice"), request,
                                &response));
  EXPECT_EQ(response.dataset().description(), "demo hospital data");
  EXPECT_EQ(response.dataset().version(), 1u);
  EXPECT_THAT(response.dataset().supported_measures(),
              ElementsAre(v1::MEASURE_MI, v1::MEASURE_P, v1::MEASURE_R));

  request.set_dataset_id("nope");
  EXPECT_THAT(
      DescribeDatasetImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("'nope'")));
  request.set_dataset_id("");
  EXPECT_THAT(
      DescribeDatasetImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
}

TEST_F(BuyerServiceTest, CallerWithoutIdIsUnauthenticated) {
  v1::ListDatasetsResponse response;
  EXPECT_THAT(
      ListDatasetsImpl(service_->core(), auth::Principal{}, {}, &response),
      StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("")));
}

TEST_F(BuyerServiceTest, GrpcMethodWithoutTokenIsUnauthenticated) {
  grpc::ServerContext context;  // no auth context: no principal
  v1::ListDatasetsRequest request;
  v1::ListDatasetsResponse response;
  const grpc::Status s = service_->ListDatasets(&context, &request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(response.datasets_size(), 0);
}

// ---- MeasureInconsistency ---------------------------------------------------

TEST_F(BuyerServiceTest, MeasureChargesTheBuyerAndReportsTheRest) {
  Grant("alice", 1.0);
  v1::MeasureInconsistencyResponse response;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_MI, 0.25, "r1"),
                                     &response));
  EXPECT_EQ(response.request_id(), "r1");
  EXPECT_DOUBLE_EQ(response.epsilon_charged(), 0.25);
  EXPECT_THAT(response.remaining_budget(), DoubleNear(0.75, 1e-12));
  EXPECT_FALSE(response.replayed());
  const v1::MeasureResult& r = response.result();
  EXPECT_EQ(r.measure(), v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(r.epsilon(), 0.25);
  EXPECT_GE(r.theta(), 1u);
  EXPECT_LE(r.theta(), 2000u);
  EXPECT_GT(r.bound95(), 0);
  EXPECT_EQ(r.method(), "group_bound");  // the default
  // The interval holds the released value's measure; every DC is keyed, so
  // the upper end is proved and the degree bound is reported.
  EXPECT_LE(r.lower95(), r.value());
  EXPECT_GE(r.upper95(), r.value());
  EXPECT_TRUE(r.upper_proved());
  EXPECT_GT(r.degree_upper(), 0u);
  EXPECT_EQ(r.estimate(), v1::ESTIMATE_LOWER_BOUND);

  EXPECT_THAT(Remaining("alice"), DoubleNear(0.75, 1e-12));
  const std::vector<LedgerEntry> entries = Entries("alice");
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCommitted);
  EXPECT_EQ(entries[0].request_id, "r1");
  EXPECT_EQ(entries[0].operation, "MeasureInconsistency MI group_bound");
  EXPECT_EQ(entries[0].neighbouring, registry::kTupleNeighbouring);
  EXPECT_DOUBLE_EQ(entries[0].epsilon, 0.25);
  // The recorded answer is the released one.
  v1::MeasureInconsistencyResponse recorded;
  ASSERT_TRUE(recorded.ParseFromString(entries[0].answer));
  EXPECT_EQ(recorded.result().SerializeAsString(), r.SerializeAsString());
}

TEST_F(BuyerServiceTest, EveryMeasureAndMethodReleases) {
  Grant("alice", 10.0);
  int n = 0;
  struct SelectionCase {
    v1::SelectionMethod method;
    std::string name;
  };
  const SelectionCase selections[] = {
      {v1::SELECTION_METHOD_UNSPECIFIED, "group_bound"},
      {v1::SELECTION_METHOD_GROUP_BOUND, "group_bound"},
      {v1::SELECTION_METHOD_GEM, "gem"},
      {v1::SELECTION_METHOD_OPTIMIZED, "optimized"},
      {v1::SELECTION_METHOD_HIERARCHICAL, "hierarchical"},
      {v1::SELECTION_METHOD_BASIC, "basic"},
      {v1::SELECTION_METHOD_BASELINE, "baseline"}};
  for (v1::Measure measure : {v1::MEASURE_MI, v1::MEASURE_P}) {
    for (const SelectionCase& c : selections) {
      SCOPED_TRACE(absl::StrCat(v1::Measure_Name(measure), " ", c.name));
      v1::MeasureInconsistencyRequest request =
          MeasureRequest(measure, 0.5, absl::StrCat("m", ++n));
      request.set_method(c.method);
      v1::MeasureInconsistencyResponse response;
      ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                         request, &response));
      const v1::MeasureResult& r = response.result();
      EXPECT_EQ(r.measure(), measure);
      EXPECT_EQ(r.method(), c.name);
      EXPECT_EQ(r.estimate(), v1::ESTIMATE_LOWER_BOUND);
      EXPECT_GE(r.theta(), 1u);
      EXPECT_LE(r.theta(), 2000u);
      EXPECT_GT(r.bound95(), 0);
      if (c.method == v1::SELECTION_METHOD_BASELINE) {
        EXPECT_EQ(r.theta(), 2000u);  // theta = N
      }
    }
  }
  // I_R on a dataset without exact_repair: cover_bound (the default) and
  // vertex_cover.
  struct RepairCase {
    v1::RepairMethod method;
    std::string name;
    v1::Estimate estimate;
  };
  for (const RepairCase& c :
       {RepairCase{v1::REPAIR_METHOD_UNSPECIFIED, "cover_bound",
                   v1::ESTIMATE_LOWER_BOUND},
        RepairCase{v1::REPAIR_METHOD_COVER_BOUND, "cover_bound",
                   v1::ESTIMATE_LOWER_BOUND},
        RepairCase{v1::REPAIR_METHOD_VERTEX_COVER, "vertex_cover",
                   v1::ESTIMATE_UPPER_BOUND}}) {
    SCOPED_TRACE(c.name);
    v1::MeasureInconsistencyRequest request =
        MeasureRequest(v1::MEASURE_R, 0.5, absl::StrCat("r", ++n));
    request.set_repair_method(c.method);
    v1::MeasureInconsistencyResponse response;
    ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &response));
    EXPECT_EQ(response.result().measure(), v1::MEASURE_R);
    EXPECT_EQ(response.result().method(), c.name);
    EXPECT_EQ(response.result().estimate(), c.estimate);
    EXPECT_EQ(response.result().theta(), 0u);
    EXPECT_GT(response.result().bound95(), 0);
  }
  EXPECT_THAT(Remaining("alice"), DoubleNear(10.0 - 17 * 0.5, 1e-9));

  // Every repair method on a dataset registered with exact_repair, where
  // the default is exact.
  RegisterExactRepairDataset();
  Grant("alice", 10.0, kExact);
  for (const RepairCase& c :
       {RepairCase{v1::REPAIR_METHOD_UNSPECIFIED, "exact", v1::ESTIMATE_EXACT},
        RepairCase{v1::REPAIR_METHOD_EXACT, "exact", v1::ESTIMATE_EXACT},
        RepairCase{v1::REPAIR_METHOD_COVER_BOUND, "cover_bound",
                   v1::ESTIMATE_LOWER_BOUND},
        RepairCase{v1::REPAIR_METHOD_VERTEX_COVER, "vertex_cover",
                   v1::ESTIMATE_UPPER_BOUND}}) {
    SCOPED_TRACE(absl::StrCat("exact_repair dataset: ", c.name));
    v1::MeasureInconsistencyRequest request =
        MeasureRequest(v1::MEASURE_R, 0.5, absl::StrCat("x", ++n), kExact);
    request.set_repair_method(c.method);
    v1::MeasureInconsistencyResponse response;
    ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &response));
    EXPECT_EQ(response.result().method(), c.name);
    EXPECT_EQ(response.result().estimate(), c.estimate);
  }
  // MI and P refuse repair_method there too
  // (ArgumentsThatDoNotApplyAreRefusedAndChargeNothing); without it they
  // release as ever.
  for (v1::Measure measure : {v1::MEASURE_MI, v1::MEASURE_P}) {
    v1::MeasureInconsistencyRequest request =
        MeasureRequest(measure, 0.5, absl::StrCat("x", ++n), kExact);
    v1::MeasureInconsistencyResponse response;
    ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &response));
    EXPECT_EQ(response.result().method(), "group_bound");
    EXPECT_EQ(response.result().estimate(), v1::ESTIMATE_LOWER_BOUND);
  }
  EXPECT_THAT(Remaining("alice", kExact), DoubleNear(10.0 - 6 * 0.5, 1e-9));
}

// The owner's exact cover is what a release of I_R estimates: at epsilon
// 1e6 the noise is 0 (but with probability below 1e-400000; within 1 to be
// safe), so the value is I_R = 5, not cover_bound's 3.
TEST_F(BuyerServiceTest, ExactRepairDatasetReleasesTheExactCover) {
  RegisterExactRepairDataset();
  v1::DescribeDatasetRequest describe;
  describe.set_dataset_id(kExact);
  v1::DescribeDatasetResponse described;
  ASSERT_OK(DescribeDatasetImpl(service_->core(), Buyer("alice"), describe,
                                &described));
  EXPECT_TRUE(described.dataset().exact_repair());
  describe.set_dataset_id(kHospital);
  ASSERT_OK(DescribeDatasetImpl(service_->core(), Buyer("alice"), describe,
                                &described));
  EXPECT_FALSE(described.dataset().exact_repair());

  // Grants are at most 1e6 each; two buy the two releases below.
  Grant("alice", 1e6, kExact);
  Grant("alice", 1e6, kExact);
  v1::MeasureInconsistencyResponse exact;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_R, 1e6, "e1", kExact), &exact));
  EXPECT_EQ(exact.result().method(), "exact");
  EXPECT_EQ(exact.result().estimate(), v1::ESTIMATE_EXACT);
  EXPECT_NEAR(exact.result().value(), 5, 1);
  EXPECT_EQ(exact.result().bound95(), 0);

  v1::MeasureInconsistencyRequest bound =
      MeasureRequest(v1::MEASURE_R, 1e6, "e2", kExact);
  bound.set_repair_method(v1::REPAIR_METHOD_COVER_BOUND);
  v1::MeasureInconsistencyResponse lower;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), bound,
                                     &lower));
  EXPECT_EQ(lower.result().method(), "cover_bound");
  EXPECT_EQ(lower.result().estimate(), v1::ESTIMATE_LOWER_BOUND);
  EXPECT_NEAR(lower.result().value(), 5, 1);

  // UNSPECIFIED resolved to "exact": the identity and the ledger say so,
  // and naming EXACT with the same request id replays the answer.
  v1::MeasureInconsistencyRequest named =
      MeasureRequest(v1::MEASURE_R, 1e6, "e1", kExact);
  named.set_repair_method(v1::REPAIR_METHOD_EXACT);
  v1::MeasureInconsistencyResponse replay;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), named,
                                     &replay));
  EXPECT_TRUE(replay.replayed());
  EXPECT_EQ(replay.result().SerializeAsString(),
            exact.result().SerializeAsString());
  // ... while another repair method under that id is another request.
  named.set_repair_method(v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), named,
                                       &replay),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("e1")));
  const std::vector<LedgerEntry> entries = Entries("alice");
  ASSERT_THAT(entries, SizeIs(2));
  std::vector<std::string> operations;
  for (const LedgerEntry& e : entries) operations.push_back(e.operation);
  EXPECT_THAT(operations,
              ::testing::UnorderedElementsAre("MeasureInconsistency R exact",
                                              "MeasureInconsistency R "
                                              "cover_bound"));
  EXPECT_THAT(Remaining("alice", kExact), DoubleNear(0, 1e-3));
}

TEST_F(BuyerServiceTest, ExactRepairMethodNeedsAnExactRepairDataset) {
  Grant("alice", 1.0);
  v1::MeasureInconsistencyRequest request =
      MeasureRequest(v1::MEASURE_R, 0.5, "no-exact");
  request.set_repair_method(v1::REPAIR_METHOD_EXACT);
  v1::MeasureInconsistencyResponse response;
  EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("EXACT"), HasSubstr("exact_repair"),
                             HasSubstr("COVER_BOUND"))));
  EXPECT_FALSE(response.has_result());
  // The same for a quality report, whose I_R would use it.
  v1::QualityReportRequest report;
  report.set_dataset_id(kHospital);
  report.set_epsilon(0.9);
  report.set_request_id("no-exact-report");
  report.set_repair_method(v1::REPAIR_METHOD_EXACT);
  v1::QualityReportResponse report_response;
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), report,
                        &report_response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exact_repair")));
  // An unknown repair method is refused the same way.
  request.set_repair_method(static_cast<v1::RepairMethod>(9));
  EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("repair_method must be a RepairMethod")));
  // Nothing charged, nothing recorded: the id is still free.
  EXPECT_THAT(Entries("alice"), SizeIs(0));
  EXPECT_THAT(Remaining("alice"), DoubleEq(1.0));
  request.set_repair_method(v1::REPAIR_METHOD_COVER_BOUND);
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), request,
                                     &response));
  EXPECT_FALSE(response.replayed());
  EXPECT_EQ(response.result().method(), "cover_bound");
}

TEST_F(BuyerServiceTest, OverBudgetIsResourceExhaustedAndChargesNothing) {
  Grant("alice", 0.5);
  v1::MeasureInconsistencyResponse response;
  EXPECT_THAT(MeasureInconsistencyImpl(
                  service_->core(), Buyer("alice"),
                  MeasureRequest(v1::MEASURE_MI, 0.6, "big"), &response),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("requested epsilon 0.6, remaining 0.5.")));
  EXPECT_THAT(Entries("alice"), SizeIs(0));  // no entry, no noise
  EXPECT_THAT(Remaining("alice"), DoubleEq(0.5));
  // Spending exactly the rest works, then nothing is left.
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_P, 0.5, "rest"),
                                     &response));
  EXPECT_THAT(response.remaining_budget(), DoubleNear(0, 1e-12));
  EXPECT_THAT(
      MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                               MeasureRequest(v1::MEASURE_R, 0.01, "more"),
                               &response),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("remaining 0")));
  EXPECT_THAT(Entries("alice"), SizeIs(1));
}

// Nothing was ever granted: not "budget exhausted" but a precondition the
// admin must meet, naming the dataset (docs/errors.md, NO_BUDGET_GRANTED).
TEST_F(BuyerServiceTest, NoGrantIsAFailedPreconditionNamingTheDataset) {
  v1::MeasureInconsistencyResponse response;
  const absl::Status refused = MeasureInconsistencyImpl(
      service_->core(), Buyer("bob"), MeasureRequest(v1::MEASURE_MI, 0.1, "x"),
      &response);
  EXPECT_THAT(refused,
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Buyer 'bob' has no budget on dataset "
                                 "'hospital': nothing was granted")));
  const std::optional<core::util::ErrorDetails> details =
      core::util::GetErrorDetails(refused);
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->reason, "NO_BUDGET_GRANTED");
  EXPECT_EQ(details->metadata.at("dataset_id"), "hospital");
  EXPECT_EQ(details->metadata.at("requested_epsilon"), "0.1");
  EXPECT_EQ(details->metadata.at("requested_epsilon_units"), "100000000000");
  EXPECT_EQ(details->metadata.at("granted_epsilon"), "0");
  ASSERT_THAT(details->precondition_violations, SizeIs(1));
  EXPECT_EQ(details->precondition_violations[0].subject,
            "buyer:bob/dataset:hospital");
  // An admin acts on its own (empty) ledger as principal "admin".
  EXPECT_THAT(
      MeasureInconsistencyImpl(
          service_->core(), auth::Principal{"admin", auth::Role::kAdmin},
          MeasureRequest(v1::MEASURE_MI, 0.1, "x"), &response),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("Buyer 'admin'")));
  EXPECT_THAT(Entries(), SizeIs(0));
}

TEST_F(BuyerServiceTest, DatasetCapIsResourceExhausted) {
  Grant("alice", 1.0);
  Grant("bob", 1.0);
  ASSERT_OK(ledger_->SetDatasetCap(kHospital, 0.3));
  v1::MeasureInconsistencyResponse response;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_MI, 0.2, "a"),
                                     &response));
  EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("bob"),
                                       MeasureRequest(v1::MEASURE_MI, 0.2, "b"),
                                       &response),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("cap")));
  const absl::Status refused = MeasureInconsistencyImpl(
      service_->core(), Buyer("bob"), MeasureRequest(v1::MEASURE_MI, 0.2, "b"),
      &response);
  const std::optional<core::util::ErrorDetails> details =
      core::util::GetErrorDetails(refused);
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->reason, "DATASET_CAP_REACHED");
  EXPECT_EQ(details->metadata.at("cap_epsilon"), "0.3");
  EXPECT_EQ(details->metadata.at("cap_remaining_epsilon"), "0.1");
  EXPECT_EQ(details->metadata.at("remaining_epsilon"), "1");
  EXPECT_EQ(details->metadata.at("requested_epsilon"), "0.2");
  ASSERT_THAT(details->quota_violations, SizeIs(1));
  EXPECT_EQ(details->quota_violations[0].subject, "dataset:hospital");
}

TEST_F(BuyerServiceTest, RetryReplaysTheRecordedAnswerWithoutCharge) {
  Grant("alice", 1.0);
  const v1::MeasureInconsistencyRequest request =
      MeasureRequest(v1::MEASURE_MI, 0.3, "retry-me");
  v1::MeasureInconsistencyResponse first;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"), request,
                                     &first));
  for (int i = 0; i < 3; ++i) {
    v1::MeasureInconsistencyResponse again;
    ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                       request, &again));
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.epsilon_charged(), 0);
    EXPECT_THAT(again.remaining_budget(), DoubleNear(0.7, 1e-12));
    EXPECT_EQ(again.request_id(), "retry-me");
    // Same noise, bit for bit: averaging retries gains nothing.
    EXPECT_EQ(again.result().SerializeAsString(),
              first.result().SerializeAsString());
  }
  EXPECT_THAT(Entries("alice"), SizeIs(1));
  EXPECT_THAT(Remaining("alice"), DoubleNear(0.7, 1e-12));
}

// An argument no requested measure reads is refused before anything is
// reserved, naming the field, whether the request id is new or a retry's.
TEST_F(BuyerServiceTest, ArgumentsThatDoNotApplyAreRefusedAndChargeNothing) {
  Grant("alice", 1.0);
  v1::MeasureInconsistencyRequest r =
      MeasureRequest(v1::MEASURE_R, 0.2, "r-id");
  r.set_method(v1::SELECTION_METHOD_BASIC);
  v1::MeasureInconsistencyRequest mi =
      MeasureRequest(v1::MEASURE_MI, 0.2, "mi-id");
  mi.set_repair_method(v1::REPAIR_METHOD_VERTEX_COVER);
  v1::MeasureInconsistencyRequest p =
      MeasureRequest(v1::MEASURE_P, 0.2, "p-id");
  p.set_repair_method(v1::REPAIR_METHOD_COVER_BOUND);
  for (const auto& [request, field] :
       {std::pair{r, "method"}, std::pair{mi, "repair_method"},
        std::pair{p, "repair_method"}}) {
    v1::MeasureInconsistencyResponse response;
    const absl::Status status = MeasureInconsistencyImpl(
        service_->core(), Buyer("alice"), request, &response);
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("does not apply")))
        << field;
    const std::optional<core::util::ErrorDetails> details =
        core::util::GetErrorDetails(status);
    ASSERT_TRUE(details.has_value()) << field;
    ASSERT_THAT(details->field_violations, SizeIs(1)) << field;
    EXPECT_EQ(details->field_violations[0].field, field);
  }
  EXPECT_THAT(Entries("alice"), ::testing::IsEmpty());
  EXPECT_THAT(Remaining("alice"), DoubleNear(1.0, 1e-12));
  // The same ids without the stray argument release (and charge) once.
  r.clear_method();
  v1::MeasureInconsistencyResponse answer;
  ASSERT_OK(
      MeasureInconsistencyImpl(service_->core(), Buyer("alice"), r, &answer));
  EXPECT_FALSE(answer.replayed());
  EXPECT_THAT(Remaining("alice"), DoubleNear(0.8, 1e-12));
}

TEST_F(BuyerServiceTest, ReusedIdWithOtherParametersIsAlreadyExists) {
  Grant("alice", 5.0);
  v1::MeasureInconsistencyResponse response;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_MI, 0.3, "dup"),
                                     &response));
  std::vector<v1::MeasureInconsistencyRequest> others = {
      MeasureRequest(v1::MEASURE_MI, 0.30000000000000004, "dup"),
      MeasureRequest(v1::MEASURE_P, 0.3, "dup"),
  };
  v1::MeasureInconsistencyRequest other_method =
      MeasureRequest(v1::MEASURE_MI, 0.3, "dup");
  other_method.set_method(v1::SELECTION_METHOD_BASIC);
  others.push_back(other_method);
  for (const auto& other : others) {
    SCOPED_TRACE(other.DebugString());
    EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                         other, &response),
                StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("dup")));
  }
  // A QualityReport may not reuse it either.
  v1::QualityReportRequest report;
  report.set_dataset_id(kHospital);
  report.set_epsilon(0.3);
  report.set_request_id("dup");
  v1::QualityReportResponse report_response;
  EXPECT_THAT(QualityReportImpl(service_->core(), Buyer("alice"), report,
                                &report_response),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("dup")));
  EXPECT_THAT(Entries("alice"), SizeIs(1));
  EXPECT_THAT(Remaining("alice"), DoubleNear(4.7, 1e-12));
}

TEST_F(BuyerServiceTest, RequestIdsAreScopedToTheBuyer) {
  Grant("alice", 1.0);
  Grant("bob", 1.0);
  v1::MeasureInconsistencyResponse a;
  v1::MeasureInconsistencyResponse b;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.4, "same"), &a));
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("bob"),
      MeasureRequest(v1::MEASURE_MI, 0.4, "same"), &b));
  EXPECT_FALSE(b.replayed());  // bob never sees alice's recorded answer
  EXPECT_DOUBLE_EQ(b.epsilon_charged(), 0.4);
  EXPECT_THAT(Remaining("alice"), DoubleNear(0.6, 1e-12));
  EXPECT_THAT(Remaining("bob"), DoubleNear(0.6, 1e-12));
}

TEST_F(BuyerServiceTest, MissingRequestIdIsInvalidAndChargesNothing) {
  // The server never picks an id: one it chose would not reach a client
  // whose charged call timed out (buyer_service.proto, request_id).
  Grant("alice", 1.0);
  v1::MeasureInconsistencyResponse response;
  const absl::Status status = MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"), MeasureRequest(v1::MEASURE_MI, 0.1, ""),
      &response);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument,
                               AllOf(HasSubstr("request_id is required"),
                                     HasSubstr("reuse it to retry"))));
  const std::optional<core::util::ErrorDetails> details =
      core::util::GetErrorDetails(status);
  ASSERT_TRUE(details.has_value());
  ASSERT_THAT(details->field_violations, SizeIs(1));
  EXPECT_EQ(details->field_violations[0].field, "request_id");
  EXPECT_THAT(Entries(), SizeIs(0));
  EXPECT_THAT(Remaining("alice"), DoubleEq(1.0));
}

// Every amount carries its exact units; a replay of an answer recorded
// before the exact fields existed (the stored response has no
// MeasureResult.epsilon_units) gets them too.
TEST_F(BuyerServiceTest, ReplayOfAnAnswerRecordedBeforeExactAmountsHasThem) {
  Grant("alice", 1.0);
  v1::MeasureInconsistencyResponse first;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.4, "old-1"), &first));
  EXPECT_EQ(first.result().epsilon_units(), 400'000'000'000);
  EXPECT_EQ(first.epsilon_charged_units(), 400'000'000'000);
  EXPECT_EQ(first.remaining_budget_units(), 600'000'000'000);
  {
    // The recorded answer as the server wrote it before.
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<storage::SqliteDatabase> db,
        storage::SqliteDatabase::Open((dir_ / "ledger.db").string(), {}));
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<storage::SqliteStatement> read,
        db->Prepare("SELECT answer FROM entries WHERE request_id = 'old-1'"));
    ASSERT_OK_AND_ASSIGN(const bool row, read->Step());
    ASSERT_TRUE(row);
    v1::MeasureInconsistencyResponse recorded;
    ASSERT_TRUE(recorded.ParseFromString(read->Blob(0)));
    read.reset();
    ASSERT_EQ(recorded.result().epsilon_units(), 400'000'000'000);
    recorded.mutable_result()->clear_epsilon_units();
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<storage::SqliteStatement> write,
        db->Prepare(
            "UPDATE entries SET answer = ?1 WHERE request_id = 'old-1'"));
    ASSERT_OK(write->BindBlob(1, recorded.SerializeAsString()));
    ASSERT_OK(write->Run());
  }
  v1::MeasureInconsistencyResponse replay;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.4, "old-1"), &replay));
  EXPECT_TRUE(replay.replayed());
  EXPECT_EQ(replay.result().value(), first.result().value());
  EXPECT_EQ(replay.result().epsilon_units(), 400'000'000'000);
  EXPECT_EQ(replay.epsilon_charged_units(), 0);
  EXPECT_EQ(replay.remaining_budget_units(), 600'000'000'000);
  EXPECT_DOUBLE_EQ(replay.remaining_budget(), 0.6);
}

TEST_F(BuyerServiceTest, InvalidArgumentsNameTheFieldAndChargeNothing) {
  Grant("alice", 1.0);
  struct Case {
    std::string name;
    v1::MeasureInconsistencyRequest request;
    absl::StatusCode code;
    std::string message;
  };
  std::vector<Case> cases = {
      {"no measure", MeasureRequest(v1::MEASURE_UNSPECIFIED, 0.1, "a"),
       absl::StatusCode::kInvalidArgument, "measure must be MEASURE_MI"},
      {"bad measure", MeasureRequest(static_cast<v1::Measure>(9), 0.1, "a"),
       absl::StatusCode::kInvalidArgument, "measure must be"},
      {"eps 0", MeasureRequest(v1::MEASURE_MI, 0, "a"),
       absl::StatusCode::kInvalidArgument, "epsilon"},
      {"eps -1", MeasureRequest(v1::MEASURE_MI, -1, "a"),
       absl::StatusCode::kInvalidArgument, "epsilon"},
      {"eps nan",
       MeasureRequest(v1::MEASURE_MI, std::numeric_limits<double>::quiet_NaN(),
                      "a"),
       absl::StatusCode::kInvalidArgument, "epsilon"},
      {"eps inf",
       MeasureRequest(v1::MEASURE_MI, std::numeric_limits<double>::infinity(),
                      "a"),
       absl::StatusCode::kInvalidArgument, "epsilon"},
      {"long id", MeasureRequest(v1::MEASURE_MI, 0.1, std::string(129, 'x')),
       absl::StatusCode::kInvalidArgument, "request_id must have 1-128"},
      {"ctrl id", MeasureRequest(v1::MEASURE_MI, 0.1, "a\nb"),
       absl::StatusCode::kInvalidArgument, "request_id must be printable"},
      {"no dataset", MeasureRequest(v1::MEASURE_MI, 0.1, "a", ""),
       absl::StatusCode::kInvalidArgument, "dataset_id"},
      {"bad dataset", MeasureRequest(v1::MEASURE_MI, 0.1, "a", "../etc"),
       absl::StatusCode::kInvalidArgument, "dataset_id"},
      {"unknown dataset", MeasureRequest(v1::MEASURE_MI, 0.1, "a", "ghost"),
       absl::StatusCode::kNotFound, "'ghost'"},
  };
  v1::MeasureInconsistencyRequest bad_method =
      MeasureRequest(v1::MEASURE_MI, 0.1, "a");
  bad_method.set_method(static_cast<v1::SelectionMethod>(17));
  cases.push_back({"bad method", bad_method, absl::StatusCode::kInvalidArgument,
                   "method must be a SelectionMethod"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::MeasureInconsistencyResponse response;
    EXPECT_THAT(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                         c.request, &response),
                StatusIs(c.code, HasSubstr(c.message)));
  }
  EXPECT_THAT(Entries(), SizeIs(0));
  EXPECT_THAT(Remaining("alice"), DoubleEq(1.0));
  // A request id of 128 printable characters (spaces included) is fine.
  v1::MeasureInconsistencyResponse response;
  EXPECT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.1, " " + std::string(127, '~')),
      &response));
}

TEST_F(BuyerServiceTest, PassedDeadlineReservesNothing) {
  Grant("alice", 1.0);
  CallContext late;
  late.deadline = absl::Now() - absl::Seconds(1);
  v1::MeasureInconsistencyResponse response;
  EXPECT_THAT(MeasureInconsistencyImpl(
                  service_->core(), Buyer("alice"),
                  MeasureRequest(v1::MEASURE_MI, 0.5, "late"), &response, late),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       HasSubstr("Nothing was charged")));
  EXPECT_FALSE(response.has_result());
  EXPECT_THAT(Remaining("alice"), DoubleEq(1.0));
  EXPECT_THAT(Entries("alice"), ::testing::IsEmpty());
}

// Once reserved, the charge stands (docs/privacy.md 3, rule 3): a caller
// that leaves after the reservation is charged, and the release stops
// instead of computing for nobody (gem's flow sweep polls the call; a
// large graph's flows take seconds). No answer was drawn or released, so
// the retry with the same request_id computes it, for free.
TEST_F(BuyerServiceTest, CancelAfterTheReservationChargesAndTheRetryResumes) {
  Grant("alice", 1.0);
  // Not cancelled when the call arrives, cancelled once the release runs.
  auto checks = std::make_shared<int>(0);
  CallContext cancelled;
  cancelled.cancelled = [checks] { return ++*checks > 1; };
  v1::MeasureInconsistencyResponse response;
  EXPECT_THAT(
      MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                               MeasureRequest(v1::MEASURE_MI, 0.5, "gone"),
                               &response, cancelled),
      StatusIs(absl::StatusCode::kCancelled,
               HasSubstr("request_id 'gone' stands")));
  EXPECT_THAT(Remaining("alice"), DoubleNear(0.5, 1e-12));
  std::vector<LedgerEntry> entries = Entries("alice");
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].state, EntryState::kCharged);

  v1::MeasureInconsistencyResponse retry;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.5, "gone"), &retry));
  EXPECT_TRUE(retry.replayed());
  EXPECT_EQ(retry.epsilon_charged(), 0);
  EXPECT_TRUE(retry.has_result());
  EXPECT_THAT(Remaining("alice"), DoubleNear(0.5, 1e-12));
  // The recorded answer is what every later retry gets.
  v1::MeasureInconsistencyResponse again;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.5, "gone"), &again));
  EXPECT_EQ(again.result().value(), retry.result().value());
}

TEST_F(BuyerServiceTest, RetryAfterReplaceIsADifferentRequest) {
  v1::DatasetManifest m;
  m.set_dataset_id(kSmall);
  m.set_public_max_rows(10);
  m.set_infer_column_types(true);
  m.set_constraints("Zip -> City");
  ASSERT_THAT(registry_->Register(m, kSmallCsv), IsOk());
  Grant("alice", 1.0, kSmall);
  v1::MeasureInconsistencyResponse response;
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_MI, 0.1, "v", kSmall), &response));
  ASSERT_THAT(registry_->Replace(m, kSmallCsv), IsOk());
  EXPECT_THAT(MeasureInconsistencyImpl(
                  service_->core(), Buyer("alice"),
                  MeasureRequest(v1::MEASURE_MI, 0.1, "v", kSmall), &response),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("'v'")));
  ASSERT_THAT(registry_->Delete(kSmall), IsOk());
  // Deleted: NOT_FOUND, but the buyer still sees the budget.
  EXPECT_THAT(MeasureInconsistencyImpl(
                  service_->core(), Buyer("alice"),
                  MeasureRequest(v1::MEASURE_MI, 0.1, "w", kSmall), &response),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'small'")));
  v1::GetBudgetRequest budget_request;
  budget_request.set_dataset_id(kSmall);
  v1::GetBudgetResponse budget;
  ASSERT_OK(
      GetBudgetImpl(service_->core(), Buyer("alice"), budget_request, &budget));
  ASSERT_THAT(budget.budgets(), SizeIs(1));
  EXPECT_THAT(budget.budgets(0).spent(), DoubleNear(0.1, 1e-12));
}

// 32 concurrent requests of one buyer against a budget for 10: exactly 10
// succeed, the ledger never goes below zero.
TEST_F(BuyerServiceTest, ConcurrentRequestsOfOneBuyerNeverOverspend) {
  Grant("alice", 1.0);
  constexpr int kThreads = 32;
  std::atomic<int> ok{0};
  std::atomic<int> exhausted{0};
  std::atomic<int> other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      v1::MeasureInconsistencyResponse response;
      const absl::Status s = MeasureInconsistencyImpl(
          service_->core(), Buyer("alice"),
          MeasureRequest(i % 2 == 0 ? v1::MEASURE_MI : v1::MEASURE_R, 0.1,
                         absl::StrCat("race-", i)),
          &response);
      if (s.ok()) {
        ++ok;
      } else if (s.code() == absl::StatusCode::kResourceExhausted) {
        ++exhausted;
      } else {
        ++other;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 10);
  EXPECT_EQ(exhausted.load(), kThreads - 10);
  EXPECT_EQ(other.load(), 0);
  absl::StatusOr<core::ledger::BudgetState> b =
      ledger_->GetBudget("alice", kHospital);
  ASSERT_THAT(b, IsOk());
  EXPECT_LE(b->spent, 1.0 + 1e-9);
  EXPECT_EQ(b->reserved, 0);
  int committed = 0;
  for (const LedgerEntry& e : Entries("alice")) {
    committed += e.state == EntryState::kCommitted;
  }
  EXPECT_EQ(committed, 10);
}

// ---- QualityReport ----------------------------------------------------------

// include_row_count: a tenth of epsilon buys the row count, the measures
// share the rest; the ledger says so; a retry must ask for the same parts.
TEST_F(BuyerServiceTest, QualityReportCanIncludeTheRowCount) {
  Grant("alice", 2.0);
  v1::QualityReportRequest request;
  request.set_dataset_id(kHospital);
  request.set_epsilon(1.0);
  request.set_request_id("report-rows");
  request.set_include_row_count(true);
  v1::QualityReportResponse response;
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response));
  ASSERT_TRUE(response.has_row_count());
  const v1::RowCount& rows = response.row_count();
  EXPECT_FALSE(rows.exact());
  EXPECT_DOUBLE_EQ(rows.epsilon(), 0.1);
  EXPECT_LE(rows.lower95(), rows.value());
  EXPECT_GE(rows.upper95(), rows.value());
  EXPECT_GT(rows.bound95(), 0);
  for (const v1::MeasureResult& r : response.results()) {
    EXPECT_THAT(r.epsilon(), DoubleNear(0.3, 1e-12));
  }
  EXPECT_DOUBLE_EQ(response.epsilon_charged(), 1.0);
  std::vector<LedgerEntry> entries = Entries("alice");
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation,
            "QualityReport MI,P,R group_bound,cover_bound +rows");
  // The same id without the row count is another request: refused.
  request.set_include_row_count(false);
  v1::QualityReportResponse other;
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &other),
      StatusIs(absl::StatusCode::kAlreadyExists, ::testing::_));
  // Without it, no row count is returned.
  request.set_request_id("report-no-rows");
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &other));
  EXPECT_FALSE(other.has_row_count());
}

TEST_F(BuyerServiceTest, QualityReportIsOneChargeSplitInThree) {
  Grant("alice", 1.0);
  v1::QualityReportRequest request;
  request.set_dataset_id(kHospital);
  request.set_epsilon(0.9);
  request.set_request_id("report-1");
  v1::QualityReportResponse response;
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response));
  ASSERT_THAT(response.results(), SizeIs(3));
  EXPECT_EQ(response.results(0).measure(), v1::MEASURE_MI);
  EXPECT_EQ(response.results(1).measure(), v1::MEASURE_P);
  EXPECT_EQ(response.results(2).measure(), v1::MEASURE_R);
  double sum = 0;
  for (const v1::MeasureResult& r : response.results()) {
    EXPECT_THAT(r.epsilon(), DoubleNear(0.3, 1e-12));
    sum += r.epsilon();
  }
  EXPECT_LE(sum, 0.9);
  EXPECT_EQ(response.results(0).method(), "group_bound");
  EXPECT_EQ(response.results(1).method(), "group_bound");
  EXPECT_EQ(response.results(2).method(), "cover_bound");
  // The parts agree: I_R <= I_P <= 2 I_MI, I_R <= I_MI.
  const int64_t mi = response.results(0).value();
  const int64_t p = response.results(1).value();
  const int64_t rr = response.results(2).value();
  EXPECT_LE(rr, p);
  EXPECT_LE(rr, mi);
  EXPECT_LE(p, 2 * mi);
  for (const v1::MeasureResult& r : response.results()) {
    EXPECT_EQ(r.estimate(), v1::ESTIMATE_LOWER_BOUND);
  }
  EXPECT_DOUBLE_EQ(response.epsilon_charged(), 0.9);
  EXPECT_THAT(response.remaining_budget(), DoubleNear(0.1, 1e-12));
  EXPECT_EQ(response.request_id(), "report-1");
  std::vector<LedgerEntry> entries = Entries("alice");
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation,
            "QualityReport MI,P,R group_bound,cover_bound");
  EXPECT_DOUBLE_EQ(entries[0].epsilon, 0.9);

  v1::QualityReportResponse again;
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &again));
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(again.results(i).value(), response.results(i).value());
  }
  EXPECT_THAT(Entries("alice"), SizeIs(1));

  request.set_request_id("report-2");
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &again),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("remaining 0.1")));
}

TEST_F(BuyerServiceTest, QualityReportNamesBothMethods) {
  Grant("alice", 3.0);
  v1::QualityReportRequest request;
  request.set_dataset_id(kHospital);
  request.set_epsilon(0.9);
  request.set_request_id("report-basic");
  request.set_method(v1::SELECTION_METHOD_BASIC);
  request.set_repair_method(v1::REPAIR_METHOD_VERTEX_COVER);
  v1::QualityReportResponse response;
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response));
  ASSERT_THAT(response.results(), SizeIs(3));
  EXPECT_EQ(response.results(0).method(), "basic");
  EXPECT_EQ(response.results(1).method(), "basic");
  EXPECT_EQ(response.results(2).method(), "vertex_cover");
  EXPECT_EQ(response.results(2).estimate(), v1::ESTIMATE_UPPER_BOUND);
  ASSERT_THAT(Entries("alice"), SizeIs(1));
  EXPECT_EQ(Entries("alice")[0].operation,
            "QualityReport MI,P,R basic,vertex_cover");
  // The repair method is part of the identity.
  request.set_repair_method(v1::REPAIR_METHOD_COVER_BOUND);
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("report-basic")));

  // On an exact_repair dataset the default I_R method is exact.
  RegisterExactRepairDataset();
  Grant("alice", 1.0, kExact);
  v1::QualityReportRequest exact;
  exact.set_dataset_id(kExact);
  exact.set_epsilon(0.9);
  exact.set_request_id("report-exact");
  ASSERT_OK(
      QualityReportImpl(service_->core(), Buyer("alice"), exact, &response));
  ASSERT_THAT(response.results(), SizeIs(3));
  EXPECT_EQ(response.results(0).method(), "group_bound");
  EXPECT_EQ(response.results(2).method(), "exact");
  EXPECT_EQ(response.results(2).estimate(), v1::ESTIMATE_EXACT);
  LedgerFilter filter;
  filter.dataset_id = kExact;
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       ledger_->ListEntries(filter));
  ASSERT_THAT(entries, SizeIs(1));
  EXPECT_EQ(entries[0].operation, "QualityReport MI,P,R group_bound,exact");
}

TEST_F(BuyerServiceTest, QualityReportValidatesItsArguments) {
  Grant("alice", 1.0);
  v1::QualityReportRequest request;
  request.set_dataset_id(kHospital);
  request.set_request_id("qr-invalid");
  request.set_epsilon(-2);
  v1::QualityReportResponse response;
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  // Below the public floor (a third of the smallest double would be 0).
  request.set_epsilon(5e-324);
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("at least 1e-06")));
  request.set_epsilon(0.3);
  request.set_dataset_id("ghost");
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("'ghost'")));
  request.set_dataset_id(kHospital);
  request.set_method(static_cast<v1::SelectionMethod>(-3));
  EXPECT_THAT(
      QualityReportImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("method")));
  EXPECT_THAT(Entries(), SizeIs(0));
}

// ---- GetBudget --------------------------------------------------------------

TEST_F(BuyerServiceTest, GetBudgetShowsOnlyTheCallersOwnLedger) {
  v1::DatasetManifest m;
  m.set_dataset_id(kSmall);
  m.set_public_max_rows(10);
  m.set_infer_column_types(true);
  m.set_constraints("Zip -> City");
  ASSERT_THAT(registry_->Register(m, kSmallCsv), IsOk());
  Grant("alice", 1.0);
  Grant("alice", 2.0, kSmall);
  Grant("bob", 3.0);
  v1::MeasureInconsistencyResponse response;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_MI, 0.1, "a1"),
                                     &response));
  ASSERT_OK(MeasureInconsistencyImpl(
      service_->core(), Buyer("alice"),
      MeasureRequest(v1::MEASURE_P, 0.2, "a2", kSmall), &response));
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("bob"),
                                     MeasureRequest(v1::MEASURE_R, 0.3, "b1"),
                                     &response));

  v1::GetBudgetRequest request;
  v1::GetBudgetResponse budget;
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  ASSERT_THAT(budget.budgets(), SizeIs(2));
  EXPECT_EQ(budget.budgets(0).dataset_id(), kHospital);
  EXPECT_EQ(budget.budgets(0).buyer_id(), "alice");
  EXPECT_DOUBLE_EQ(budget.budgets(0).granted(), 1.0);
  EXPECT_THAT(budget.budgets(0).spent(), DoubleNear(0.1, 1e-12));
  EXPECT_THAT(budget.budgets(0).remaining(), DoubleNear(0.9, 1e-12));
  EXPECT_EQ(budget.budgets(1).dataset_id(), kSmall);
  EXPECT_EQ(budget.history_size(), 0);  // not asked for

  request.set_include_history(true);
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  ASSERT_THAT(budget.history(), SizeIs(2));
  EXPECT_EQ(budget.history(0).request_id(), "a2");  // newest first
  EXPECT_EQ(budget.history(1).request_id(), "a1");
  for (const v1::LedgerEntry& e : budget.history()) {
    EXPECT_EQ(e.buyer_id(), "alice");
    EXPECT_EQ(e.state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
  }

  request.set_dataset_id(kHospital);
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  ASSERT_THAT(budget.budgets(), SizeIs(1));
  ASSERT_THAT(budget.history(), SizeIs(1));
  EXPECT_EQ(budget.history(0).request_id(), "a1");

  request.set_dataset_id("");
  request.set_history_limit(1);
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  ASSERT_THAT(budget.history(), SizeIs(1));

  // Bob sees only his own.
  request.set_history_limit(0);
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("bob"), request, &budget));
  ASSERT_THAT(budget.budgets(), SizeIs(1));
  EXPECT_EQ(budget.budgets(0).buyer_id(), "bob");
  ASSERT_THAT(budget.history(), SizeIs(1));
  EXPECT_EQ(budget.history(0).request_id(), "b1");

  // A buyer without grants sees nothing (and no one else's).
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("carol"), request, &budget));
  EXPECT_EQ(budget.budgets_size(), 0);
  EXPECT_EQ(budget.history_size(), 0);
  ASSERT_THAT(registry_->Delete(kSmall), IsOk());
}

v1::ListReceiptsResponse Receipts(BuyerServiceImpl& service,
                                  const std::string& buyer,
                                  uint32_t page_size = 0,
                                  const std::string& page_token = "") {
  v1::ListReceiptsRequest request;
  request.set_dataset_id(kHospital);
  request.set_page_size(page_size);
  request.set_page_token(page_token);
  v1::ListReceiptsResponse response;
  EXPECT_OK(ListReceiptsImpl(service.core(), Buyer(buyer), request, &response));
  return response;
}

// Each receipt holds the answer as it was returned (bar the remaining
// budget, which is GetBudget's to say), newest first, in pages, and only
// the caller's; listing them charges nothing.
TEST_F(BuyerServiceTest, ListReceiptsReturnsTheCallersOwnAnswers) {
  using ::google::protobuf::util::MessageDifferencer;
  Grant("alice", 5);
  Grant("bob", 5);
  v1::MeasureInconsistencyResponse mi, r;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_MI, 0.1, "a1"),
                                     &mi));
  v1::QualityReportRequest report_request;
  report_request.set_dataset_id(kHospital);
  report_request.set_epsilon(0.3);
  report_request.set_request_id("a2");
  v1::QualityReportResponse report;
  ASSERT_OK(QualityReportImpl(service_->core(), Buyer("alice"), report_request,
                              &report));
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("alice"),
                                     MeasureRequest(v1::MEASURE_R, 0.2, "a3"),
                                     &r));
  v1::MeasureInconsistencyResponse theirs;
  ASSERT_OK(MeasureInconsistencyImpl(service_->core(), Buyer("bob"),
                                     MeasureRequest(v1::MEASURE_P, 0.4, "b1"),
                                     &theirs));
  const double remaining = Remaining("alice");

  const v1::ListReceiptsResponse all = Receipts(*service_, "alice");
  ASSERT_THAT(all.receipts(), SizeIs(3));
  EXPECT_EQ(all.next_page_token(), "");
  EXPECT_EQ(all.receipts(0).entry().request_id(), "a3");
  EXPECT_EQ(all.receipts(2).entry().request_id(), "a1");
  for (const v1::Receipt& receipt : all.receipts()) {
    EXPECT_EQ(receipt.entry().buyer_id(), "alice");
    EXPECT_EQ(receipt.entry().state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
  }
  // The answers, as returned: only remaining_budget is not kept.
  for (auto [receipt, returned] :
       {std::pair{all.receipts(2).measure_inconsistency(), mi},
        std::pair{all.receipts(0).measure_inconsistency(), r}}) {
    returned.clear_remaining_budget();
    returned.clear_remaining_budget_units();
    EXPECT_TRUE(MessageDifferencer::Equals(receipt, returned))
        << receipt.DebugString() << "\nvs\n"
        << returned.DebugString();
  }
  ASSERT_EQ(all.receipts(1).answer_case(), v1::Receipt::kQualityReport);
  report.clear_remaining_budget();
  report.clear_remaining_budget_units();
  EXPECT_TRUE(
      MessageDifferencer::Equals(all.receipts(1).quality_report(), report));
  EXPECT_EQ(all.receipts(1).entry().epsilon_units(), 300'000'000'000);

  // Pages of two: the token leads to the rest.
  const v1::ListReceiptsResponse first = Receipts(*service_, "alice", 2);
  ASSERT_THAT(first.receipts(), SizeIs(2));
  ASSERT_NE(first.next_page_token(), "");
  const v1::ListReceiptsResponse second =
      Receipts(*service_, "alice", 2, first.next_page_token());
  ASSERT_THAT(second.receipts(), SizeIs(1));
  EXPECT_EQ(second.receipts(0).entry().request_id(), "a1");
  EXPECT_EQ(second.next_page_token(), "");

  // Bob sees his own; carol, with nothing, an empty list; nobody paid.
  const v1::ListReceiptsResponse bobs = Receipts(*service_, "bob");
  ASSERT_THAT(bobs.receipts(), SizeIs(1));
  EXPECT_EQ(bobs.receipts(0).entry().request_id(), "b1");
  EXPECT_THAT(Receipts(*service_, "carol").receipts(), SizeIs(0));
  EXPECT_EQ(Remaining("alice"), remaining);
}

// Pages larger than the ledger batches the listing reads in (16): every
// receipt once, newest first, across batch and page boundaries.
TEST_F(BuyerServiceTest, ReceiptPagesSpanSeveralLedgerBatches) {
  Grant("alice", 10);
  constexpr int kReleases = 40;
  for (int i = 0; i < kReleases; ++i) {
    v1::MeasureInconsistencyResponse r;
    ASSERT_OK(MeasureInconsistencyImpl(
        service_->core(), Buyer("alice"),
        MeasureRequest(v1::MEASURE_R, 0.01, absl::StrCat("r", i)), &r));
  }
  std::vector<std::string> seen;
  std::string token;
  for (int page = 0; page < 3; ++page) {
    const v1::ListReceiptsResponse listed =
        Receipts(*service_, "alice", 25, token);
    for (const v1::Receipt& receipt : listed.receipts()) {
      seen.push_back(receipt.entry().request_id());
      EXPECT_EQ(receipt.answer_case(), v1::Receipt::kMeasureInconsistency);
    }
    EXPECT_EQ(listed.receipts_size(), page == 0 ? 25 : 15);
    token = listed.next_page_token();
    if (token.empty()) break;
  }
  ASSERT_EQ(seen.size(), static_cast<size_t>(kReleases));
  for (int i = 0; i < kReleases; ++i) {
    EXPECT_EQ(seen[i], absl::StrCat("r", kReleases - 1 - i));
  }
}

// A charge without an answer (the call ended after the computation began)
// is listed without one: a retry with its request_id returns it.
TEST_F(BuyerServiceTest, ReceiptOfAChargeWithoutAnswerHasNoAnswer) {
  Grant("alice", 1);
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = "alice";
  reserve.dataset_id = kHospital;
  reserve.request_id = "cut";
  reserve.fingerprint = "f";
  reserve.operation = "MeasureInconsistency MI group_bound";
  reserve.neighbouring = "tuple";
  reserve.epsilon = 0.5;
  ASSERT_OK_AND_ASSIGN(const core::ledger::Reservation reservation,
                       ledger_->Reserve(reserve));
  ASSERT_OK(ledger_->ChargeWithoutAnswer(*reservation.entry_id));
  const v1::ListReceiptsResponse listed = Receipts(*service_, "alice");
  ASSERT_THAT(listed.receipts(), SizeIs(1));
  EXPECT_EQ(listed.receipts(0).entry().state(), v1::LEDGER_ENTRY_STATE_CHARGED);
  EXPECT_EQ(listed.receipts(0).answer_case(), v1::Receipt::ANSWER_NOT_SET);
}

TEST_F(BuyerServiceTest, ListReceiptsValidation) {
  v1::ListReceiptsRequest request;
  v1::ListReceiptsResponse response;
  EXPECT_THAT(
      ListReceiptsImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  request.set_dataset_id("no-such-dataset");
  EXPECT_THAT(
      ListReceiptsImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("no-such-dataset")));
  request.set_dataset_id(kHospital);
  request.set_page_size(501);
  EXPECT_THAT(
      ListReceiptsImpl(service_->core(), Buyer("alice"), request, &response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("page_size")));
  request.set_page_size(0);
  for (const char* token : {"x", "-1", "0", "1.5"}) {
    request.set_page_token(token);
    EXPECT_THAT(
        ListReceiptsImpl(service_->core(), Buyer("alice"), request, &response),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("page_token")))
        << token;
  }
}

// The preview charges nothing and says what the release then charges and
// how loud its noise is at the theta the release picks.
TEST_F(BuyerServiceTest, PreviewCostIsWhatTheReleaseThenCharges) {
  Grant("alice", 5);
  for (const v1::Measure measure :
       {v1::MEASURE_MI, v1::MEASURE_P, v1::MEASURE_R}) {
    SCOPED_TRACE(v1::Measure_Name(measure));
    v1::PreviewCostRequest preview;
    *preview.mutable_measure_inconsistency() =
        MeasureRequest(measure, 0.5, "");  // no request_id needed
    v1::PreviewCostResponse cost;
    const double before = Remaining("alice");
    ASSERT_OK(
        PreviewCostImpl(service_->core(), Buyer("alice"), preview, &cost));
    EXPECT_EQ(Remaining("alice"), before);  // nothing charged or reserved
    EXPECT_EQ(cost.epsilon_charged_units(), 500'000'000'000);
    EXPECT_EQ(cost.charge_multiplier(), 1u);
    EXPECT_EQ(cost.charge_basis(), "");
    EXPECT_EQ(cost.remaining_budget(), before);
    EXPECT_TRUE(cost.fits_budget());
    ASSERT_THAT(cost.noise(), SizeIs(1));
    const v1::MeasureNoise& noise = cost.noise(0);
    EXPECT_EQ(noise.measure(), measure);

    v1::MeasureInconsistencyResponse released;
    ASSERT_OK(MeasureInconsistencyImpl(
        service_->core(), Buyer("alice"),
        MeasureRequest(measure, 0.5, absl::StrCat("p", measure)), &released));
    EXPECT_EQ(released.epsilon_charged_units(), cost.epsilon_charged_units());
    EXPECT_EQ(released.result().method(), noise.method());
    const uint32_t theta = released.result().theta();
    ASSERT_OK_AND_ASSIGN(
        const core::dp::DiscreteLaplace noise_at_theta,
        core::dp::DiscreteLaplace::ForSensitivity(
            noise.theta_coefficient() * theta + noise.sensitivity_constant(),
            noise.release_epsilon()));
    EXPECT_EQ(noise_at_theta.ConfidenceBound(0.95), released.result().bound95())
        << "theta " << theta;
    EXPECT_THAT(
        noise.noise_scale_per_theta() * theta + noise.noise_scale_at_zero(),
        DoubleNear(noise_at_theta.scale(), 1e-9 * noise_at_theta.scale()));
  }
  // A report: MI, P and R, each with its share; over budget: does not fit.
  v1::PreviewCostRequest preview;
  v1::QualityReportRequest* report = preview.mutable_quality_report();
  report->set_dataset_id(kHospital);
  report->set_epsilon(4.9);
  v1::PreviewCostResponse cost;
  ASSERT_OK(PreviewCostImpl(service_->core(), Buyer("alice"), preview, &cost));
  ASSERT_THAT(cost.noise(), SizeIs(3));
  EXPECT_EQ(cost.noise(2).measure(), v1::MEASURE_R);
  EXPECT_EQ(cost.noise(2).sensitivity_constant(), 1u);
  EXPECT_FALSE(cost.fits_budget());  // 3.5 left
  EXPECT_THAT(Entries("alice"), SizeIs(3));
}

TEST_F(BuyerServiceTest, PreviewCostRefusesWhatTheReleaseRefuses) {
  v1::PreviewCostRequest preview;
  v1::PreviewCostResponse cost;
  EXPECT_THAT(
      PreviewCostImpl(service_->core(), Buyer("alice"), preview, &cost),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("release")));
  *preview.mutable_measure_inconsistency() =
      MeasureRequest(v1::MEASURE_MI, 0, "");
  EXPECT_THAT(
      PreviewCostImpl(service_->core(), Buyer("alice"), preview, &cost),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  *preview.mutable_measure_inconsistency() =
      MeasureRequest(v1::MEASURE_MI, 1, "", "no-such-dataset");
  EXPECT_THAT(
      PreviewCostImpl(service_->core(), Buyer("alice"), preview, &cost),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("no-such-dataset")));
}

TEST_F(BuyerServiceTest, GetBudgetValidation) {
  v1::GetBudgetRequest request;
  v1::GetBudgetResponse budget;
  request.set_history_limit(10'001);
  EXPECT_THAT(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("history_limit must be at most 10000")));
  request.set_history_limit(10'000);
  EXPECT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  request.set_dataset_id("ghost");
  EXPECT_THAT(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'ghost'")));
  request.set_dataset_id("bad/id");
  EXPECT_THAT(
      GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  // A known dataset without a grant: an empty answer, not an error.
  request.set_dataset_id(kHospital);
  ASSERT_OK(GetBudgetImpl(service_->core(), Buyer("alice"), request, &budget));
  EXPECT_EQ(budget.budgets_size(), 0);
}

// ---- Conversions ------------------------------------------------------------

TEST(BuyerConvertTest, MeasuresAndMethods) {
  EXPECT_THAT(
      MeasureFromProto(v1::MEASURE_P),
      dpq::testing::IsOkAndHolds(core::measures::Measure::kProblematic));
  EXPECT_THAT(MeasureFromProto(v1::MEASURE_UNSPECIFIED),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("MEASURE_UNSPECIFIED")));
  EXPECT_EQ(MeasureToProto(core::measures::Measure::kRepair), v1::MEASURE_R);
  EXPECT_EQ(MeasureToProto(core::measures::Measure::kDrastic),
            v1::MEASURE_UNSPECIFIED);
  EXPECT_THAT(MethodFromProto(v1::SELECTION_METHOD_UNSPECIFIED),
              dpq::testing::IsOkAndHolds(
                  core::private_measures::SelectionMethod::kGroupBound));
  EXPECT_THAT(MethodFromProto(v1::SELECTION_METHOD_GROUP_BOUND),
              dpq::testing::IsOkAndHolds(
                  core::private_measures::SelectionMethod::kGroupBound));
  EXPECT_THAT(MethodFromProto(v1::SELECTION_METHOD_GEM),
              dpq::testing::IsOkAndHolds(
                  core::private_measures::SelectionMethod::kGem));
  EXPECT_THAT(MethodFromProto(v1::SELECTION_METHOD_OPTIMIZED),
              dpq::testing::IsOkAndHolds(
                  core::private_measures::SelectionMethod::kOptimized));
  EXPECT_THAT(MethodFromProto(static_cast<v1::SelectionMethod>(7)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("GROUP_BOUND, GEM, OPTIMIZED")));
  EXPECT_THAT(MethodFromProto(v1::SELECTION_METHOD_BASELINE),
              dpq::testing::IsOkAndHolds(
                  core::private_measures::SelectionMethod::kBaseline));
}

TEST(BuyerConvertTest, RepairMethodsDependOnExactRepair) {
  namespace pm = core::private_measures;
  using ::dpq::testing::IsOkAndHolds;
  EXPECT_THAT(RepairMethodFromProto(v1::REPAIR_METHOD_UNSPECIFIED, false),
              IsOkAndHolds(pm::RepairMethod::kCoverBound));
  EXPECT_THAT(RepairMethodFromProto(v1::REPAIR_METHOD_UNSPECIFIED, true),
              IsOkAndHolds(pm::RepairMethod::kExact));
  for (bool registered : {false, true}) {
    EXPECT_THAT(
        RepairMethodFromProto(v1::REPAIR_METHOD_COVER_BOUND, registered),
        IsOkAndHolds(pm::RepairMethod::kCoverBound));
    EXPECT_THAT(
        RepairMethodFromProto(v1::REPAIR_METHOD_VERTEX_COVER, registered),
        IsOkAndHolds(pm::RepairMethod::kVertexCover));
    EXPECT_THAT(
        RepairMethodFromProto(static_cast<v1::RepairMethod>(4), registered),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("but is 4")));
  }
  EXPECT_THAT(RepairMethodFromProto(v1::REPAIR_METHOD_EXACT, true),
              IsOkAndHolds(pm::RepairMethod::kExact));
  EXPECT_THAT(
      RepairMethodFromProto(v1::REPAIR_METHOD_EXACT, false),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exact_repair")));
}

TEST(BuyerConvertTest, MeasureResultCarriesTheEstimate) {
  namespace pm = core::private_measures;
  pm::PrivateMeasureResult result;
  result.value = 7;
  result.bound95 = 2;
  result.method = "exact";
  result.estimate = pm::Estimate::kExact;
  v1::MeasureResult r = ToMeasureResult(v1::MEASURE_R, result);
  EXPECT_EQ(r.estimate(), v1::ESTIMATE_EXACT);
  EXPECT_EQ(r.method(), "exact");
  EXPECT_EQ(r.theta(), 0u);
  result.estimate = pm::Estimate::kLowerBound;
  EXPECT_EQ(ToMeasureResult(v1::MEASURE_R, result).estimate(),
            v1::ESTIMATE_LOWER_BOUND);
  result.estimate = pm::Estimate::kUpperBound;
  EXPECT_EQ(ToMeasureResult(v1::MEASURE_R, result).estimate(),
            v1::ESTIMATE_UPPER_BOUND);
}

}  // namespace
}  // namespace dpq::server::buyer
