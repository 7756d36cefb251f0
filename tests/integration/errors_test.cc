// Every error code a caller can get (docs/security.md, "Roles"), from the real
// server: UNAUTHENTICATED,
// PERMISSION_DENIED, INVALID_ARGUMENT naming the field, NOT_FOUND,
// ALREADY_EXISTS, RESOURCE_EXHAUSTED (budget and upload size),
// FAILED_PRECONDITION (no grant). Their details: rich_errors_test.cc.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::_;
using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;

class ErrorsTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    buyer_token_ = NewBuyer("mallory", "hospital", 1.5);
    ASSERT_FALSE(buyer_token_.empty());
  }

  grpc::Status ListDatasetsAs(const std::string& token) {
    v1::ListDatasetsResponse response;
    auto context = Context(token);
    return client_->buyer(token).ListDatasets(context.get(), {}, &response);
  }

  // Every AdminService RPC, called with `token` and harmless arguments.
  std::vector<std::pair<std::string, grpc::Status>> EveryAdminRpc(
      const std::string& token) {
    std::vector<std::pair<std::string, grpc::Status>> out;
    auto& admin = client_->admin(token);
    {
      v1::RegisterDatasetResponse r;
      out.emplace_back(
          "RegisterDataset",
          client_->Register(token, HospitalManifest("x"), "a,b\n1,2\n", &r));
    }
    {
      v1::ReplaceDatasetResponse r;
      out.emplace_back("ReplaceDataset",
                       client_->Replace(token, HospitalManifest("hospital"),
                                        "a,b\n1,2\n", &r));
    }
    {
      v1::DeleteDatasetRequest q;
      q.set_dataset_id("hospital");
      v1::DeleteDatasetResponse r;
      auto c = Context(token);
      out.emplace_back("DeleteDataset", admin.DeleteDataset(c.get(), q, &r));
    }
    {
      v1::AdminListDatasetsResponse r;
      auto c = Context(token);
      out.emplace_back("ListDatasets", admin.ListDatasets(c.get(), {}, &r));
    }
    {
      v1::CreateBuyerRequest q;
      q.set_name("eve");
      v1::CreateBuyerResponse r;
      auto c = Context(token);
      out.emplace_back("CreateBuyer", admin.CreateBuyer(c.get(), q, &r));
    }
    {
      v1::RevokeBuyerRequest q;
      q.set_buyer_id("mallory");
      v1::RevokeBuyerResponse r;
      auto c = Context(token);
      out.emplace_back("RevokeBuyer", admin.RevokeBuyer(c.get(), q, &r));
    }
    {
      v1::ListBuyersResponse r;
      auto c = Context(token);
      out.emplace_back("ListBuyers", admin.ListBuyers(c.get(), {}, &r));
    }
    out.emplace_back("GrantBudget",
                     client_->Grant(token, "mallory", "hospital", 100));
    {
      v1::SetBudgetRequest q;
      q.set_buyer_id("mallory");
      q.set_dataset_id("hospital");
      q.set_granted(100);
      v1::SetBudgetResponse r;
      auto c = Context(token);
      out.emplace_back("SetBudget", admin.SetBudget(c.get(), q, &r));
    }
    {
      v1::SetDatasetCapRequest q;
      q.set_dataset_id("hospital");
      q.set_cap(100);
      v1::SetDatasetCapResponse r;
      auto c = Context(token);
      out.emplace_back("SetDatasetCap", admin.SetDatasetCap(c.get(), q, &r));
    }
    {
      v1::ListLedgerResponse r;
      auto c = Context(token);
      out.emplace_back("ListLedger", admin.ListLedger(c.get(), {}, &r));
    }
    {
      v1::ListAuditLogResponse r;
      auto c = Context(token);
      out.emplace_back("ListAuditLog", admin.ListAuditLog(c.get(), {}, &r));
    }
    return out;
  }

  std::string buyer_token_;
};

TEST_F(ErrorsTest, NoTokenIsUnauthenticated) {
  EXPECT_THAT(ListDatasetsAs(""), GrpcIs(StatusCode::UNAUTHENTICATED, _));
  v1::MeasureInconsistencyResponse r;
  EXPECT_THAT(client_->Measure("", "hospital", v1::MEASURE_MI, 1, "x", &r),
              GrpcIs(StatusCode::UNAUTHENTICATED, _));
  for (const auto& [rpc, status] : EveryAdminRpc("")) {
    EXPECT_THAT(status, GrpcIs(StatusCode::UNAUTHENTICATED, _)) << rpc;
  }
}

TEST_F(ErrorsTest, BadTokenIsUnauthenticated) {
  const std::string wrong = "dpq_" + std::string(64, 'a');
  EXPECT_THAT(ListDatasetsAs(wrong), GrpcIs(StatusCode::UNAUTHENTICATED, _));
  EXPECT_THAT(ListDatasetsAs("not-a-token"),
              GrpcIs(StatusCode::UNAUTHENTICATED, _));
  // A token with one digit changed.
  std::string altered = buyer_token_;
  altered.back() = altered.back() == '0' ? '1' : '0';
  EXPECT_THAT(ListDatasetsAs(altered), GrpcIs(StatusCode::UNAUTHENTICATED, _));
  // The right token in the wrong scheme.
  v1::ListDatasetsResponse response;
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Basic " + buyer_token_);
  EXPECT_THAT(
      client_->buyer(buyer_token_).ListDatasets(&context, {}, &response),
      GrpcIs(StatusCode::UNAUTHENTICATED, _));
}

TEST_F(ErrorsTest, RevokedTokenIsUnauthenticated) {
  ASSERT_THAT(ListDatasetsAs(buyer_token_), GrpcOk());
  v1::RevokeBuyerRequest revoke;
  revoke.set_buyer_id("mallory");
  v1::RevokeBuyerResponse revoked;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).RevokeBuyer(context.get(), revoke, &revoked),
      GrpcOk());
  EXPECT_THAT(ListDatasetsAs(buyer_token_),
              GrpcIs(StatusCode::UNAUTHENTICATED, _));
  v1::MeasureInconsistencyResponse r;
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, 1,
                               "after-revoke", &r),
              GrpcIs(StatusCode::UNAUTHENTICATED, _));
}

TEST_F(ErrorsTest, BuyerOnEveryAdminRpcIsPermissionDenied) {
  for (const auto& [rpc, status] : EveryAdminRpc(buyer_token_)) {
    EXPECT_THAT(status, GrpcIs(StatusCode::PERMISSION_DENIED, _)) << rpc;
  }
  // Nothing changed.
  absl::StatusOr<v1::Budget> budget = client_->Budget(buyer_token_, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->granted(), 1.5);
  ASSERT_THAT(ListDatasetsAs(buyer_token_), GrpcOk()) << "not revoked";
}

TEST_F(ErrorsTest, BadMeasureArgumentsNameTheField) {
  v1::MeasureInconsistencyResponse r;
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, bad,
                                 "bad-eps", &r),
                GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("epsilon")))
        << bad;
  }
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital",
                               v1::MEASURE_UNSPECIFIED, 1, "no-measure", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("measure")));
  EXPECT_THAT(client_->Measure(buyer_token_, "../etc/passwd", v1::MEASURE_MI, 1,
                               "bad-id", &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("dataset_id")));
  EXPECT_THAT(
      client_->Measure(buyer_token_, "", v1::MEASURE_MI, 1, "empty-id", &r),
      GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("dataset_id")));
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, 1,
                               std::string(200, 'r'), &r),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("request_id")));

  v1::QualityReportRequest report;
  report.set_dataset_id("hospital");
  report.set_epsilon(-0.5);
  v1::QualityReportResponse report_response;
  auto context = Context(buyer_token_);
  EXPECT_THAT(client_->buyer(buyer_token_)
                  .QualityReport(context.get(), report, &report_response),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("epsilon")));

  // Nothing was charged or left reserved by any of them.
  absl::StatusOr<v1::Budget> budget = client_->Budget(buyer_token_, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 0);
  EXPECT_DOUBLE_EQ(budget->reserved(), 0);
}

TEST_F(ErrorsTest, BadAdminArgumentsNameTheField) {
  EXPECT_THAT(client_->Grant(admin_token_, "mallory", "hospital", -1),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("epsilon")));
  EXPECT_THAT(client_->Grant(admin_token_, "mallory", "hospital",
                             std::numeric_limits<double>::quiet_NaN()),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("epsilon")));
  v1::CreateBuyerRequest bad_name;
  bad_name.set_name("no spaces allowed");
  v1::CreateBuyerResponse created;
  auto context = Context(admin_token_);
  EXPECT_THAT(client_->admin(admin_token_)
                  .CreateBuyer(context.get(), bad_name, &created),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("name")));
  v1::RegisterDatasetResponse registered;
  v1::DatasetManifest manifest = HospitalManifest("bad/id");
  EXPECT_THAT(
      client_->Register(admin_token_, manifest,
                        ReadFileOrEmpty(HospitalCsvPath()), &registered),
      GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("dataset_id")));
  manifest = HospitalManifest("zero_n");
  manifest.set_public_max_rows(0);
  manifest.set_infer_column_types(true);
  EXPECT_THAT(
      client_->Register(admin_token_, manifest,
                        ReadFileOrEmpty(HospitalCsvPath()), &registered),
      GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("public_max_rows")));
  manifest = HospitalManifest("bad_dc");
  manifest.set_constraints("t1&t2&EQ(t1.NoSuchColumn,t2.NoSuchColumn)");
  EXPECT_THAT(
      client_->Register(admin_token_, manifest,
                        ReadFileOrEmpty(HospitalCsvPath()), &registered),
      GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("NoSuchColumn")));
  EXPECT_THAT(client_->RegisterHospital(admin_token_, "hospital"),
              GrpcIs(StatusCode::ALREADY_EXISTS, HasSubstr("hospital")));
}

TEST_F(ErrorsTest, UnknownDatasetIsNotFound) {
  v1::MeasureInconsistencyResponse r;
  EXPECT_THAT(
      client_->Measure(buyer_token_, "nosuch", v1::MEASURE_MI, 1, "nf", &r),
      GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  v1::DescribeDatasetRequest describe;
  describe.set_dataset_id("nosuch");
  v1::DescribeDatasetResponse described;
  auto context = Context(buyer_token_);
  EXPECT_THAT(client_->buyer(buyer_token_)
                  .DescribeDataset(context.get(), describe, &described),
              GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  v1::QualityReportRequest report;
  report.set_dataset_id("nosuch");
  report.set_epsilon(1);
  report.set_request_id("nosuch-1");
  v1::QualityReportResponse report_response;
  context = Context(buyer_token_);
  EXPECT_THAT(client_->buyer(buyer_token_)
                  .QualityReport(context.get(), report, &report_response),
              GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  v1::DeleteDatasetRequest del;
  del.set_dataset_id("nosuch");
  v1::DeleteDatasetResponse deleted;
  context = Context(admin_token_);
  EXPECT_THAT(
      client_->admin(admin_token_).DeleteDataset(context.get(), del, &deleted),
      GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  v1::ReplaceDatasetResponse replaced;
  EXPECT_THAT(client_->Replace(admin_token_, HospitalManifest("nosuch"),
                               ReadFileOrEmpty(HospitalCsvPath()), &replaced),
              GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  EXPECT_THAT(client_->Grant(admin_token_, "mallory", "nosuch", 1),
              GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  EXPECT_THAT(client_->Grant(admin_token_, "nobody", "hospital", 1),
              GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nobody")));
  v1::RevokeBuyerRequest revoke;
  revoke.set_buyer_id("nobody");
  v1::RevokeBuyerResponse revoked;
  context = Context(admin_token_);
  EXPECT_THAT(
      client_->admin(admin_token_).RevokeBuyer(context.get(), revoke, &revoked),
      GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nobody")));
}

TEST_F(ErrorsTest, ReusedRequestIdWithOtherParametersIsAlreadyExists) {
  v1::MeasureInconsistencyResponse first;
  ASSERT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, 0.5,
                               "same-id", &first),
              GrpcOk());
  v1::MeasureInconsistencyResponse r;
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_P, 0.5,
                               "same-id", &r),
              GrpcIs(StatusCode::ALREADY_EXISTS, HasSubstr("same-id")));
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, 0.25,
                               "same-id", &r),
              GrpcIs(StatusCode::ALREADY_EXISTS, HasSubstr("same-id")));
  v1::QualityReportRequest report;
  report.set_dataset_id("hospital");
  report.set_epsilon(0.5);
  report.set_request_id("same-id");
  v1::QualityReportResponse report_response;
  auto context = Context(buyer_token_);
  EXPECT_THAT(client_->buyer(buyer_token_)
                  .QualityReport(context.get(), report, &report_response),
              GrpcIs(StatusCode::ALREADY_EXISTS, HasSubstr("same-id")));
  absl::StatusOr<v1::Budget> budget = client_->Budget(buyer_token_, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 0.5) << "only the first was charged";
}

TEST_F(ErrorsTest, OverBudgetIsResourceExhaustedWithTheRemainingBudget) {
  v1::MeasureInconsistencyResponse r;
  ASSERT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_MI, 1.25,
                               "ok-1", &r),
              GrpcOk());
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 0.25);
  EXPECT_THAT(client_->Measure(buyer_token_, "hospital", v1::MEASURE_R, 1,
                               "over-1", &r),
              GrpcIs(StatusCode::RESOURCE_EXHAUSTED, HasSubstr("0.25")));
  v1::QualityReportRequest report;
  report.set_dataset_id("hospital");
  report.set_epsilon(0.3);
  report.set_request_id("over-2");
  v1::QualityReportResponse report_response;
  auto context = Context(buyer_token_);
  EXPECT_THAT(client_->buyer(buyer_token_)
                  .QualityReport(context.get(), report, &report_response),
              GrpcIs(StatusCode::RESOURCE_EXHAUSTED, HasSubstr("0.25")));
  // A buyer without any grant on the dataset.
  absl::StatusOr<std::string> poor = client_->CreateBuyer(admin_token_, "poor");
  ASSERT_TRUE(poor.ok()) << poor.status();
  // Not "exhausted": nothing was ever granted (docs/errors.md).
  EXPECT_THAT(
      client_->Measure(*poor, "hospital", v1::MEASURE_MI, 0.1, "p-1", &r),
      GrpcIs(StatusCode::FAILED_PRECONDITION,
             HasSubstr("nothing was granted")));
  // Refusals charged nothing and left nothing reserved; the ledger holds
  // the one committed release only.
  absl::StatusOr<v1::Budget> budget = client_->Budget(buyer_token_, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 1.25);
  EXPECT_DOUBLE_EQ(budget->reserved(), 0);
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "mallory", "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  int committed = 0;
  for (const v1::LedgerEntry& e : *entries) {
    committed += e.state() == v1::LEDGER_ENTRY_STATE_COMMITTED;
  }
  EXPECT_EQ(committed, 1);
}

}  // namespace
}  // namespace dpq::integration
