// Exact epsilon amounts through the real server and the `dpq` binary
// (docs/service.md, "Exact amounts"): every amount of a response carries
// its exact units of 10^-12 epsilon, the doubles beside them are the
// nearest doubles, and the CLI shows exact decimals, never float noise.
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/harness.h"
#include "tests/testing/status_matchers.h"

namespace dpq::integration {
namespace {

using grpc::StatusCode;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kUnits = 1'000'000'000'000;  // per epsilon

class ExactAmountsTest : public ServerFixture {};

// 20 - 1 - 1 - 1 - 0.9 - 0.5 in doubles is 15.600000000000001; the ledger
// counts units, so it is 15.6 exactly, in the API and in the CLI.
TEST_F(ExactAmountsTest, TwentyMinusFiveChargesIsExactly15Point6) {
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  const std::string token = NewBuyer("xavier", "hospital", 20);
  v1::MeasureInconsistencyResponse r;
  int n = 0;
  for (const double epsilon : {1.0, 1.0, 1.0, 0.9, 0.5}) {
    ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, epsilon,
                                 absl::StrCat("x-", ++n), &r),
                GrpcOk());
  }
  EXPECT_EQ(r.epsilon_charged_units(), kUnits / 2);
  EXPECT_EQ(r.remaining_budget_units(), 15'600'000'000'000);
  EXPECT_EQ(r.remaining_budget(), 15.6);
  EXPECT_EQ(r.result().epsilon_units(), kUnits / 2);

  ASSERT_OK_AND_ASSIGN(const v1::Budget budget,
                       client_->Budget(token, "hospital"));
  EXPECT_EQ(budget.granted_units(), 20 * kUnits);
  EXPECT_EQ(budget.spent_units(), 4'400'000'000'000);
  EXPECT_EQ(budget.reserved_units(), 0);
  EXPECT_EQ(budget.remaining_units(), 15'600'000'000'000);
  EXPECT_EQ(budget.remaining(), 15.6);
  EXPECT_EQ(budget.spent(), 4.4);

  // The ledger entries and the admin's dataset totals, exactly.
  ASSERT_OK_AND_ASSIGN(const std::vector<v1::LedgerEntry> entries,
                       client_->Ledger(admin_token_, "xavier", "hospital"));
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries[1].epsilon_units(), 900'000'000'000);  // newest first
  EXPECT_EQ(entries[1].epsilon(), 0.9);
  {
    v1::AdminListDatasetsResponse datasets;
    auto context = Context(admin_token_);
    ASSERT_THAT(
        client_->admin(admin_token_).ListDatasets(context.get(), {}, &datasets),
        GrpcOk());
    ASSERT_EQ(datasets.datasets_size(), 1);
    EXPECT_EQ(datasets.datasets(0).spent_all_buyers_units(), 4'400'000'000'000);
    EXPECT_EQ(datasets.datasets(0).cap_units(), 0);
  }

  CommandResult text = Dpq({"budget", "hospital"}, token);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("15.6"));
  EXPECT_THAT(text.out, HasSubstr("4.4"));
  EXPECT_THAT(text.out, Not(HasSubstr("15.600000")));
  CommandResult json =
      Dpq({"--json", "budget", "hospital", "--history"}, token);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"remaining\":15.6,"));
  EXPECT_THAT(json.out, HasSubstr("\"remainingUnits\":\"15600000000000\""));
  EXPECT_THAT(json.out, HasSubstr("\"spent\":4.4,"));
  EXPECT_THAT(json.out, HasSubstr("\"epsilon\":0.9,"));
  EXPECT_THAT(json.out, Not(HasSubstr("15.600000")));
  // A release's charge sentence too.
  CommandResult measure = Dpq({"measure", "hospital", "--measure", "mi",
                               "--epsilon", "0.1", "--request-id", "x-cli"},
                              token);
  ASSERT_EQ(measure.exit_code, 0) << measure.err;
  EXPECT_THAT(measure.out, HasSubstr("charged epsilon 0.1, remaining 15.5"));
}

// 1000 charges of 0.001 spend a grant of 1 exactly: nothing left, no
// tolerance, and one more unit is refused.
TEST_F(ExactAmountsTest, AThousandChargesOfAThousandthSumToOne) {
  v1::DatasetManifest manifest;
  manifest.set_dataset_id("zips");
  manifest.set_public_max_rows(10);
  manifest.set_infer_column_types(true);
  manifest.set_constraints("Zip -> City\n");
  v1::RegisterDatasetResponse registered;
  ASSERT_THAT(client_->Register(admin_token_, manifest,
                                "Zip,City\n10,a\n10,b\n20,c\n", &registered),
              GrpcOk());
  const std::string token = NewBuyer("yara", "zips", 1);
  constexpr int kThreads = 4;
  constexpr int kEach = 250;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        v1::MeasureInconsistencyResponse r;
        if (!client_
                 ->Measure(token, "zips", v1::MEASURE_MI, 0.001,
                           absl::StrCat("milli-", t, "-", i), &r)
                 .ok()) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  ASSERT_OK_AND_ASSIGN(const v1::Budget budget, client_->Budget(token, "zips"));
  EXPECT_EQ(budget.spent_units(), kUnits);
  EXPECT_EQ(budget.spent(), 1.0);
  EXPECT_EQ(budget.remaining_units(), 0);
  EXPECT_EQ(budget.remaining(), 0.0);
  v1::MeasureInconsistencyResponse r;
  EXPECT_THAT(
      client_->Measure(token, "zips", v1::MEASURE_MI, 1e-6, "one-more", &r),
      GrpcIs(StatusCode::RESOURCE_EXHAUSTED, ::testing::_));
}

}  // namespace
}  // namespace dpq::integration
