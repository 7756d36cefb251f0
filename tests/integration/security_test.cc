// Regression tests for the adversarial test's findings that the server
// fixes (docs/security.md): each reproduces the attack over the wire
// against the real dpq-server.
#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

class SecurityTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    buyer_token_ = NewBuyer("mallory", "hospital", 5);
    ASSERT_FALSE(buyer_token_.empty());
  }

  // A two-column table manifest with FD a -> b and a cube over `a`.
  static v1::DatasetManifest SmallManifest(const std::string& id) {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_description("small");
    m.set_constraints("a -> b\n");
    m.set_public_max_rows(10);
    m.set_infer_column_types(true);
    v1::CubeDimension* dim = m.add_cube_dimensions();
    dim->set_column("a");
    dim->set_infer_domain(true);
    return m;
  }

  // Both listings work for everyone, and `id` is not in them.
  void ExpectListingsWorkWithout(const std::string& id) {
    v1::ListDatasetsResponse buyer_list;
    auto c1 = Context(buyer_token_);
    ASSERT_THAT(
        client_->buyer(buyer_token_).ListDatasets(c1.get(), {}, &buyer_list),
        GrpcOk());
    v1::AdminListDatasetsResponse admin_list;
    auto c2 = Context(admin_token_);
    ASSERT_THAT(
        client_->admin(admin_token_).ListDatasets(c2.get(), {}, &admin_list),
        GrpcOk());
    for (const auto& d : buyer_list.datasets()) EXPECT_NE(d.dataset_id(), id);
    for (const auto& d : admin_list.datasets()) {
      EXPECT_NE(d.dataset().dataset_id(), id);
    }
  }

  std::string buyer_token_;
};

// Finding 1: a Latin-1 CSV with a cube dimension broke listing for every
// caller. The contract now: CSV files are UTF-8, refused otherwise at
// registration with line and column, and nothing of the file is echoed.
TEST_F(SecurityTest, Latin1CsvIsRefusedWithLineAndColumnAndListingStillWorks) {
  v1::RegisterDatasetResponse r;
  EXPECT_THAT(client_->Register(admin_token_, SmallManifest("bad"),
                                "a,b\n\xff\xfe,2\n1,3\n", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     AllOf(HasSubstr("csv: line 2, column 1"),
                           HasSubstr("UTF-8"), Not(HasSubstr("\xff")))));
  // A header cell with \xff (the finding's second form).
  EXPECT_THAT(
      client_->Register(admin_token_, SmallManifest("bad"),
                        "a,\xff\n1,2\n1,3\n", &r),
      GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("csv: line 1, column 2")));
  ExpectListingsWorkWithout("bad");
  // The same data in UTF-8 registers.
  EXPECT_THAT(client_->Register(admin_token_, SmallManifest("good"),
                                "a,b\n\xC3\xBF\xC3\xBE,2\n1,3\n", &r),
              GrpcOk());
}

// Finding 7: owner text with control characters forged rows on a buyer's
// terminal. Registration refuses it, naming the field.
TEST_F(SecurityTest, ControlCharactersInPublishedTextAreRefused) {
  v1::RegisterDatasetResponse r;
  v1::DatasetManifest m = SmallManifest("esc");
  m.set_description("clean\x1b[2J\nhospital  1  table  fake row");
  EXPECT_THAT(client_->Register(admin_token_, m, "a,b\nx,2\n", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     AllOf(HasSubstr("DatasetInfo.description"),
                           HasSubstr("control character U+001B"))));
  // A C1 control (U+009B, CSI) in a cell that becomes a public cube label.
  EXPECT_THAT(client_->Register(admin_token_, SmallManifest("csi"),
                                "a,b\nx\xC2\x9B"
                                "2J,2\n",
                                &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     AllOf(HasSubstr("cube_dimensions[0].labels"),
                           HasSubstr("U+009B"))));
  // A line break in a column name.
  EXPECT_THAT(client_->Register(admin_token_, SmallManifest("lf"),
                                "\"x\ny\",a,b\n1,x,2\n", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     HasSubstr("control character U+000A")));
  // A graph's node labels are published by SelectInfluentialNodes.
  v1::DatasetManifest g;
  g.set_dataset_id("net");
  g.set_kind(v1::DATASET_KIND_GRAPH);
  g.add_node_labels("alice");
  g.add_node_labels("bob\x1b[31m");
  EXPECT_THAT(client_->Register(admin_token_, g,
                                "source,target\nalice,bob\x1b[31m\n", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("Node label 2")));
  ExpectListingsWorkWithout("esc");
}

// Finding 9: a manifest string with invalid UTF-8 cannot be parsed by the
// server; it said "The upload stream is empty".
TEST_F(SecurityTest, UnparseableUploadHeaderGetsAnAccurateMessage) {
  v1::DatasetManifest m = SmallManifest("dc");
  m.set_constraints("a -> b\xff\n");
  v1::RegisterDatasetResponse r;
  EXPECT_THAT(client_->Register(admin_token_, m, "a,b\nx,2\n", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     AllOf(HasSubstr("could not be parsed"),
                           HasSubstr("valid UTF-8"))));
}

// Finding 5: epsilon 1e-300 was reserved, then refused and refunded, and
// the message quoted an internal sub-epsilon. Every release refuses it
// before reserving, in the buyer's numbers, and the ledger stays empty.
TEST_F(SecurityTest, TinyEpsilonIsRefusedBeforeAnyReservation) {
  const auto expect_refused = [&](const grpc::Status& status) {
    EXPECT_THAT(status, GrpcIs(StatusCode::INVALID_ARGUMENT,
                               AllOf(HasSubstr("at least 1e-06"),
                                     HasSubstr("but is 1e-300"))));
  };
  v1::MeasureInconsistencyResponse measure;
  expect_refused(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI,
                                  1e-300, "tiny-1", &measure));
  v1::QualityReportRequest report;
  report.set_dataset_id("hospital");
  report.set_epsilon(1e-300);
  report.set_request_id("tiny-2");
  v1::QualityReportResponse report_response;
  auto c = Context(buyer_token_);
  expect_refused(client_->buyer(buyer_token_)
                     .QualityReport(c.get(), report, &report_response));
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "mallory", "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  EXPECT_TRUE(entries->empty()) << entries->size() << " ledger entries";
  absl::StatusOr<v1::Budget> budget = client_->Budget(buyer_token_, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_EQ(budget->remaining(), 5);
}

}  // namespace
}  // namespace dpq::integration
