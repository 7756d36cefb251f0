// `dpq receipts`: flags, the request sent, the table and JSON.
#include "client/commands/receipts.h"

#include <string>

#include "client/cli.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"
#include "tests/client/proto_text_testing.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::DoAll;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

// Three receipts: a measure, a quality report and a charge without an
// answer (the call ended; a retry returns it), and a next page.
v1::ListReceiptsResponse AliceReceipts() {
  return FromText<v1::ListReceiptsResponse>(R"pb(
    receipts {
      entry {
        entry_id: 9
        request_id: "cut"
        operation: "MeasureInconsistency P group_bound"
        epsilon: 0.5
        epsilon_units: 500000000000
        state: LEDGER_ENTRY_STATE_CHARGED
        created_at { seconds: 1714564900 }
      }
    }
    receipts {
      entry {
        entry_id: 8
        request_id: "r-2"
        operation: "QualityReport MI,P,R group_bound,cover_bound"
        epsilon: 0.9
        epsilon_units: 900000000000
        state: LEDGER_ENTRY_STATE_COMMITTED
        created_at { seconds: 1714564860 }
      }
      quality_report {
        results { measure: MEASURE_MI value: 11725 }
        results { measure: MEASURE_P value: 1073 }
        results { measure: MEASURE_R value: 390 }
      }
    }
    receipts {
      entry {
        entry_id: 7
        request_id: "r-1"
        operation: "MeasureInconsistency MI group_bound"
        epsilon: 1
        epsilon_units: 1000000000000
        state: LEDGER_ENTRY_STATE_COMMITTED
        created_at { seconds: 1714564800 }
      }
      measure_inconsistency {
        result {
          measure: MEASURE_MI
          value: 11715
          lower95: 11442
          upper95: 100215
          upper_proved: true
        }
      }
    }
    next_page_token: "7"
  )pb");
}

TEST(ParseBuyerTest, Receipts) {
  ParsedLine line(
      {"receipts", "hospital", "--limit", "20", "--page-token", "31"});
  ASSERT_TRUE(line.ok()) << line.status();
  const v1::ListReceiptsRequest& request =
      line.command<ReceiptsCommand>()->request();
  EXPECT_EQ(request.dataset_id(), "hospital");
  EXPECT_EQ(request.page_size(), 20u);
  EXPECT_EQ(request.page_token(), "31");
  ExpectUsageError({"receipts"}, "ID");
  ExpectUsageError({"receipts", "hospital", "--limit", "x"},
                   "--limit expects a non-negative integer, got 'x'");
}

TEST(ReceiptsTextTest, OneLinePerReleaseWithItsAnswerAndTheNextPage) {
  v1::ListReceiptsRequest request;
  request.set_dataset_id("hospital");
  EXPECT_EQ(
      ReceiptsText(AliceReceipts(), request),
      "ENTRY  CREATED               OPERATION                      "
      "               EPSILON  STATE      REQUEST_ID  ANSWER\n"
      "9      2024-05-01T12:01:40Z  MeasureInconsistency P group_bo"
      "und            0.5      CHARGED    cut         -\n"
      "8      2024-05-01T12:01:00Z  QualityReport MI,P,R group_boun"
      "d,cover_bound  0.9      COMMITTED  r-2         MI 11725, P 1073, R 390\n"
      "7      2024-05-01T12:00:00Z  MeasureInconsistency MI group_b"
      "ound           1        COMMITTED  r-1         MI 11715 (11442 to "
      "100215)\n"
      "Older releases: dpq receipts hospital --page-token 7\n");
  EXPECT_EQ(ReceiptsText(v1::ListReceiptsResponse(), request),
            "No releases of yours on hospital.\n");
}

TEST_F(CliTest, ReceiptsSendsTheDatasetAndPageAndPrintsJson) {
  v1::ListReceiptsRequest sent;
  const v1::ListReceiptsResponse resp = AliceReceipts();
  EXPECT_CALL(*buyer_, ListReceipts(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"receipts", "hospital", "--limit", "3", "--json"}), kExitOk);
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_EQ(sent.page_size(), 3u);
  EXPECT_EQ(out(), *ProtoJsonLine(resp));
}

}  // namespace
}  // namespace dpq::client
