// The rich error model from the real server (docs/errors.md): every
// refusal a client acts on carries a google.rpc.Status in the
// `grpc-status-details-bin` trailer, with an ErrorInfo (domain "dpq.v1",
// the reason, exact amounts) and the standard detail of its kind; and the
// `dpq` CLI shows them. Each test provokes reasons and decodes the trailer
// as any gRPC client would (grpc::Status::error_details).
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::grpc::StatusCode;
using ::testing::AllOf;
using ::testing::HasSubstr;

// The trailer's google.rpc.Status (code and message as the status's).
google::rpc::Status RichOf(const grpc::Status& status) {
  google::rpc::Status rich;
  EXPECT_TRUE(rich.ParseFromString(status.error_details())) << Describe(status);
  EXPECT_EQ(rich.code(), static_cast<int>(status.error_code()));
  EXPECT_EQ(rich.message(), status.error_message());
  return rich;
}

// The first detail of type D, if any.
template <typename D>
std::optional<D> DetailOf(const grpc::Status& status) {
  const google::rpc::Status rich = RichOf(status);
  for (const auto& any : rich.details()) {
    D detail;
    if (any.UnpackTo(&detail)) return detail;
  }
  return std::nullopt;
}

// The ErrorInfo, which every error has.
google::rpc::ErrorInfo InfoOf(const grpc::Status& status) {
  const std::optional<google::rpc::ErrorInfo> info =
      DetailOf<google::rpc::ErrorInfo>(status);
  EXPECT_TRUE(info.has_value()) << Describe(status);
  if (!info.has_value()) return {};
  EXPECT_EQ(info->domain(), "dpq.v1");
  return *info;
}

std::string Meta(const google::rpc::ErrorInfo& info, const std::string& key) {
  const auto it = info.metadata().find(key);
  return it == info.metadata().end() ? "(missing " + key + ")" : it->second;
}

// 4,000 people (as tests/integration/heavy_jobs_test.cc): Sex alternates
// F/M, Age 20..79, Label "yes" for Age >= 50.
std::string PeopleCsv() {
  std::string csv = "Sex,Age,Label\n";
  for (int i = 0; i < 4000; ++i) {
    const int age = 20 + i % 60;
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", age, ",",
                    age >= 50 ? "yes" : "no", "\n");
  }
  return csv;
}

// With `public_sex`, the cuboid [Sex] is public exactly: every release but
// ReleaseCuboids is then charged k_Q = 2 times its epsilon.
v1::DatasetManifest PeopleManifest(const std::string& id, bool public_sex) {
  v1::DatasetManifest m;
  m.set_dataset_id(id);
  m.set_constraints("Age -> Label\n");
  m.set_public_max_rows(10000);
  m.set_infer_column_types(true);
  for (const char* column : {"Sex", "Age", "Label"}) {
    v1::CubeDimension* dim = m.add_cube_dimensions();
    dim->set_column(column);
    dim->set_infer_domain(true);
  }
  if (public_sex) m.add_public_cuboids()->add_dimensions("Sex");
  return m;
}

v1::TrainDecisionTreeRequest Tree(const std::string& dataset, double epsilon,
                                  const std::string& request_id,
                                  int generations, int population) {
  v1::TrainDecisionTreeRequest request;
  request.set_dataset_id(dataset);
  request.set_label_column("Label");
  request.set_positive_class("yes");
  request.set_epsilon(epsilon);
  request.set_generations(generations);
  request.set_population(population);
  request.set_request_id(request_id);
  return request;
}

class RichErrorsTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    mallory_ = NewBuyer("mallory", "hospital", 1.5);
    ASSERT_FALSE(mallory_.empty());
  }

  grpc::Status Measure(const std::string& token, const std::string& dataset,
                       double epsilon, const std::string& request_id,
                       v1::Measure measure = v1::MEASURE_MI) {
    v1::MeasureInconsistencyResponse response;
    return client_->Measure(token, dataset, measure, epsilon, request_id,
                            &response);
  }

  grpc::Status Train(const std::string& token,
                     const v1::TrainDecisionTreeRequest& request,
                     std::chrono::milliseconds deadline) {
    auto context = Context(token, deadline);
    v1::TrainDecisionTreeResponse response;
    return client_->buyer(token).TrainDecisionTree(context.get(), request,
                                                   &response);
  }

  void RegisterPeople(const std::string& id, bool public_sex) {
    v1::RegisterDatasetResponse registered;
    ASSERT_THAT(client_->Register(admin_token_, PeopleManifest(id, public_sex),
                                  PeopleCsv(), &registered),
                GrpcOk());
  }

  std::string mallory_;
};

TEST_F(RichErrorsTest, NoGrantIsFailedPreconditionNamingTheDataset) {
  absl::StatusOr<std::string> poor = client_->CreateBuyer(admin_token_, "poor");
  ASSERT_TRUE(poor.ok()) << poor.status();
  const grpc::Status s = Measure(*poor, "hospital", 0.1, "p-1");
  EXPECT_THAT(s, GrpcIs(StatusCode::FAILED_PRECONDITION,
                        HasSubstr("Buyer 'poor' has no budget on dataset "
                                  "'hospital': nothing was granted")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "NO_BUDGET_GRANTED");
  EXPECT_EQ(Meta(info, "dataset_id"), "hospital");
  EXPECT_EQ(Meta(info, "request_id"), "p-1");
  EXPECT_EQ(Meta(info, "requested_epsilon"), "0.1");
  EXPECT_EQ(Meta(info, "requested_epsilon_units"), "100000000000");
  EXPECT_EQ(Meta(info, "granted_epsilon"), "0");
  const auto precondition = DetailOf<google::rpc::PreconditionFailure>(s);
  ASSERT_TRUE(precondition.has_value());
  EXPECT_EQ(precondition->violations(0).subject(),
            "buyer:poor/dataset:hospital");
}

TEST_F(RichErrorsTest, OverBudgetHasAQuotaFailureWithExactAmounts) {
  // 1.5 - 0.1 - 0.2 - 0.9 = 0.3 exactly.
  ASSERT_THAT(Measure(mallory_, "hospital", 0.1, "a"), GrpcOk());
  ASSERT_THAT(Measure(mallory_, "hospital", 0.2, "b"), GrpcOk());
  ASSERT_THAT(Measure(mallory_, "hospital", 0.9, "c"), GrpcOk());
  const grpc::Status s = Measure(mallory_, "hospital", 0.5, "d");
  EXPECT_THAT(s, GrpcIs(StatusCode::RESOURCE_EXHAUSTED,
                        HasSubstr("requested epsilon 0.5, remaining 0.3.")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "BUDGET_EXHAUSTED");
  EXPECT_EQ(Meta(info, "remaining_epsilon"), "0.3");
  EXPECT_EQ(Meta(info, "remaining_epsilon_units"), "300000000000");
  EXPECT_EQ(Meta(info, "requested_epsilon"), "0.5");
  EXPECT_EQ(info.metadata().count("charged_epsilon"), 0u);
  const auto quota = DetailOf<google::rpc::QuotaFailure>(s);
  ASSERT_TRUE(quota.has_value());
  EXPECT_EQ(quota->violations(0).subject(), "buyer:mallory/dataset:hospital");
  EXPECT_EQ(quota->violations(0).description(),
            "requested epsilon 0.5, remaining 0.3");
}

TEST_F(RichErrorsTest, DatasetCapHasAQuotaFailureOnTheDataset) {
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("hospital");
  cap.set_cap(0.25);
  v1::SetDatasetCapResponse capped;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).SetDatasetCap(context.get(), cap, &capped),
      GrpcOk());
  const grpc::Status s = Measure(mallory_, "hospital", 0.5, "capped");
  EXPECT_THAT(s, GrpcIs(StatusCode::RESOURCE_EXHAUSTED,
                        HasSubstr("Dataset cap reached")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "DATASET_CAP_REACHED");
  EXPECT_EQ(Meta(info, "cap_epsilon"), "0.25");
  EXPECT_EQ(Meta(info, "cap_remaining_epsilon"), "0.25");
  EXPECT_EQ(Meta(info, "remaining_epsilon"), "1.5");
  const auto quota = DetailOf<google::rpc::QuotaFailure>(s);
  ASSERT_TRUE(quota.has_value());
  EXPECT_EQ(quota->violations(0).subject(), "dataset:hospital");
}

TEST_F(RichErrorsTest, ReusedRequestIdIsRequestIdReused) {
  ASSERT_THAT(Measure(mallory_, "hospital", 0.5, "same-id"), GrpcOk());
  const grpc::Status s = Measure(mallory_, "hospital", 0.25, "same-id");
  EXPECT_THAT(s, GrpcIs(StatusCode::ALREADY_EXISTS, HasSubstr("same-id")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "REQUEST_ID_REUSED");
  EXPECT_EQ(Meta(info, "request_id"), "same-id");
  EXPECT_EQ(Meta(info, "dataset_id"), "hospital");
}

TEST_F(RichErrorsTest, BadArgumentsNameTheFieldPath) {
  grpc::Status s = Measure(mallory_, "hospital", 0, "zero");
  EXPECT_EQ(InfoOf(s).reason(), "INVALID_ARGUMENT");
  std::optional<google::rpc::BadRequest> bad =
      DetailOf<google::rpc::BadRequest>(s);
  ASSERT_TRUE(bad.has_value()) << Describe(s);
  EXPECT_EQ(bad->field_violations(0).field(), "epsilon");
  EXPECT_EQ(bad->field_violations(0).description(), s.error_message());

  s = Measure(mallory_, "../etc/passwd", 1, "bad-id");
  bad = DetailOf<google::rpc::BadRequest>(s);
  ASSERT_TRUE(bad.has_value()) << Describe(s);
  EXPECT_EQ(bad->field_violations(0).field(), "dataset_id");

  s = client_->Grant(admin_token_, "mallory", "hospital", -1);
  bad = DetailOf<google::rpc::BadRequest>(s);
  ASSERT_TRUE(bad.has_value()) << Describe(s);
  EXPECT_EQ(bad->field_violations(0).field(), "epsilon");

  ASSERT_NO_FATAL_FAILURE(RegisterPeople("people", false));
  ASSERT_THAT(client_->Grant(admin_token_, "mallory", "people", 1), GrpcOk());
  v1::ReleaseCuboidsRequest cuboids;
  cuboids.set_dataset_id("people");
  cuboids.add_cuboids()->add_dimensions("Sex");
  cuboids.add_cuboids()->add_dimensions("Height");
  cuboids.set_epsilon(0.5);
  cuboids.set_request_id("cub-1");
  v1::ReleaseCuboidsResponse released;
  auto context = Context(mallory_);
  s = client_->buyer(mallory_).ReleaseCuboids(context.get(), cuboids,
                                              &released);
  EXPECT_THAT(s, GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("Height")));
  bad = DetailOf<google::rpc::BadRequest>(s);
  ASSERT_TRUE(bad.has_value()) << Describe(s);
  EXPECT_EQ(bad->field_violations(0).field(), "cuboids[1].dimensions");
  EXPECT_EQ(Meta(InfoOf(s), "field"), "cuboids[1].dimensions");
}

TEST_F(RichErrorsTest, UnknownDatasetIsDatasetNotFoundWithResourceInfo) {
  const grpc::Status s = Measure(mallory_, "nosuch", 1, "nf");
  EXPECT_THAT(s, GrpcIs(StatusCode::NOT_FOUND, HasSubstr("nosuch")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "DATASET_NOT_FOUND");
  EXPECT_EQ(Meta(info, "dataset_id"), "nosuch");
  const auto resource = DetailOf<google::rpc::ResourceInfo>(s);
  ASSERT_TRUE(resource.has_value());
  EXPECT_EQ(resource->resource_type(), "dpq.v1.Dataset");
  EXPECT_EQ(resource->resource_name(), "nosuch");
}

TEST_F(RichErrorsTest, AuthenticationErrorsAreNamedByTheirCode) {
  const grpc::Status none = Measure("", "hospital", 1, "x");
  EXPECT_EQ(none.error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(InfoOf(none).reason(), "UNAUTHENTICATED");
  const grpc::Status denied =
      client_->Grant(mallory_, "mallory", "hospital", 100);
  EXPECT_EQ(denied.error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(InfoOf(denied).reason(), "PERMISSION_DENIED");
}

// "Every refusal about epsilon speaks in the buyer's numbers": a tree on a
// dataset with the public exact cuboid [Sex] is charged 2 x (epsilon +
// accuracy_epsilon); its refusal names the request's epsilon and the charge.
TEST_F(RichErrorsTest, ARefusedTreeNamesTheRequestAndTheCharge) {
  ASSERT_NO_FATAL_FAILURE(RegisterPeople("census", true));
  ASSERT_THAT(client_->Grant(admin_token_, "mallory", "census", 2), GrpcOk());
  v1::TrainDecisionTreeRequest tree = Tree("census", 0.75, "t-1", 2, 4);
  tree.set_accuracy_epsilon(0.5);
  const grpc::Status s = Train(mallory_, tree, std::chrono::seconds(30));
  EXPECT_THAT(s, GrpcIs(StatusCode::RESOURCE_EXHAUSTED,
                        HasSubstr("requested epsilon 0.75 (charged 2.5 = 2 x "
                                  "(0.75 + accuracy_epsilon 0.5): the dataset "
                                  "publishes an exact cuboid), remaining 2.")));
  const google::rpc::ErrorInfo info = InfoOf(s);
  EXPECT_EQ(info.reason(), "BUDGET_EXHAUSTED");
  EXPECT_EQ(Meta(info, "requested_epsilon"), "0.75");
  EXPECT_EQ(Meta(info, "charged_epsilon"), "2.5");
  EXPECT_EQ(Meta(info, "charged_epsilon_units"), "2500000000000");
  EXPECT_EQ(Meta(info, "remaining_epsilon"), "2");
}

// Both heavy-job slots are taken by mallory's long trees (per-buyer limit
// 2): a second call with a running request's id is REQUEST_IN_PROGRESS, and
// bob's tree is HEAVY_JOBS_BUSY; both say when to retry.
TEST_F(RichErrorsTest, BusyServerAndRunningRequestsSayWhenToRetry) {
  StopServer();
  ASSERT_NO_FATAL_FAILURE(StartServer(
      {"--max-heavy-jobs", "2", "--max-heavy-jobs-per-buyer", "2"}));
  ASSERT_NO_FATAL_FAILURE(RegisterPeople("people", false));
  ASSERT_THAT(client_->Grant(admin_token_, "mallory", "people", 100), GrpcOk());
  const std::string bob = NewBuyer("bob", "people", 100);
  ASSERT_FALSE(bob.empty());

  // Trees of many seconds, stopped by their deadlines.
  grpc::Status first, second;
  std::thread a([&] {
    first = Train(mallory_, Tree("people", 1, "m-1", 200, 1000),
                  std::chrono::milliseconds(6000));
  });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const grpc::Status running = Train(
      mallory_, Tree("people", 1, "m-1", 200, 1000), std::chrono::seconds(2));
  EXPECT_THAT(running,
              GrpcIs(StatusCode::ABORTED, HasSubstr("still in progress")));
  google::rpc::ErrorInfo info = InfoOf(running);
  EXPECT_EQ(info.reason(), "REQUEST_IN_PROGRESS");
  EXPECT_EQ(Meta(info, "request_id"), "m-1");
  EXPECT_TRUE(DetailOf<google::rpc::RetryInfo>(running).has_value());

  std::thread b([&] {
    second = Train(mallory_, Tree("people", 1, "m-2", 200, 1000),
                   std::chrono::milliseconds(4000));
  });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const grpc::Status busy =
      Train(bob, Tree("people", 1, "b-1", 2, 4), std::chrono::seconds(30));
  EXPECT_THAT(busy, GrpcIs(StatusCode::UNAVAILABLE,
                           AllOf(HasSubstr("max_heavy_jobs"),
                                 HasSubstr("nothing was charged"))));
  info = InfoOf(busy);
  EXPECT_EQ(info.reason(), "HEAVY_JOBS_BUSY");
  EXPECT_EQ(Meta(info, "limit"), "max_heavy_jobs");
  const auto retry = DetailOf<google::rpc::RetryInfo>(busy);
  ASSERT_TRUE(retry.has_value());
  EXPECT_EQ(retry->retry_delay().seconds(), 5);
  a.join();
  b.join();
  EXPECT_EQ(first.error_code(), StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(second.error_code(), StatusCode::DEADLINE_EXCEEDED);
}

// `dpq` prints the reason and the amounts on one more line, and with
// --json the whole error as an object on stdout.
TEST_F(RichErrorsTest, CliShowsTheReasonAndTheAmounts) {
  absl::StatusOr<std::string> poor = client_->CreateBuyer(admin_token_, "poor");
  ASSERT_TRUE(poor.ok()) << poor.status();
  CommandResult r = Dpq({"measure", "hospital", "--measure", "mi", "--epsilon",
                         "0.1", "--request-id", "cli-1"},
                        *poor);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("dpq: FAILED_PRECONDITION: Buyer 'poor' has "
                               "no budget on dataset 'hospital'"));
  EXPECT_THAT(r.err, HasSubstr("\ndpq: NO_BUDGET_GRANTED: dataset_id=hospital "
                               "granted_epsilon=0 request_id=cli-1 "
                               "requested_epsilon=0.1\n"));
  r = Dpq({"measure", "hospital", "--measure", "mi", "--epsilon", "0.1",
           "--request-id", "cli-2", "--json"},
          *poor);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.out, AllOf(HasSubstr("{\"error\":{\"code\":"
                                     "\"FAILED_PRECONDITION\""),
                           HasSubstr("\"reason\":\"NO_BUDGET_GRANTED\""),
                           HasSubstr("\"requested_epsilon_units\":"
                                     "\"100000000000\""),
                           HasSubstr("\"request_id\":\"cli-2\"")));
}

}  // namespace
}  // namespace dpq::integration
