// `dpq datasets`: the table and the JSON of the datasets for sale.
#include "client/commands/datasets.h"

#include <map>
#include <string>
#include <vector>

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
using ::testing::HasSubstr;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(DatasetsTextTest, TableHidesRowCountUnlessPublic) {
  dpq::v1::ListDatasetsResponse resp;
  *resp.add_datasets() = HospitalInfo();
  dpq::v1::DatasetInfo* tax = resp.add_datasets();
  tax->set_dataset_id("tax");
  tax->set_public_max_rows(200000);
  tax->set_row_count_public(true);
  tax->set_row_count(199999);
  tax->set_version(1);
  EXPECT_EQ(
      DatasetsText(resp),
      "ID        VERSION  KIND   MAX_ROWS  ROWS    MEASURES  DESCRIPTION\n"
      "hospital  2        table  1000      -       MI,P,R    Hospital "
      "\"quality\" data\n"
      "tax       1        table  200000    199999  -         -\n");
}

// Every field, with its proto3 default when unset: a private row count is
// "rowCount":"0" next to "rowCountPublic":false. (protobuf prints message
// fields such as registeredAt after the others, and '>' as \u003e.)
TEST(DatasetsTextTest, JsonIsTheProtoMappingWithEveryField) {
  dpq::v1::ListDatasetsResponse resp;
  *resp.add_datasets() = HospitalInfo();
  EXPECT_EQ(*ProtoJsonLine(resp),
            R"({"datasets":[{"datasetId":"hospital",)"
            R"("description":"Hospital \"quality\" data",)"
            R"("columns":[{"name":"zip","type":"COLUMN_TYPE_INT64"},)"
            R"({"name":"city","type":"COLUMN_TYPE_STRING"}],)"
            R"("constraints":["zip -\u003e city"],"publicMaxRows":"1000",)"
            R"("rowCountPublic":false,"rowCount":"0",)"
            R"("supportedMeasures":["MEASURE_MI","MEASURE_P","MEASURE_R"],)"
            R"j("neighbouring":"one row added or removed (unbounded DP)",)j"
            R"("version":"2","kind":"DATASET_KIND_UNSPECIFIED",)"
            R"("cubeDimensions":[],"publicCuboids":[],"supportedReleases":[],)"
            R"("chargeMultiplier":0,"nodeCount":"0","exactRepair":false,)"
            R"("registeredAt":"2024-05-01T12:00:00Z"}],"nextPageToken":""})"
            "\n");
  EXPECT_EQ(*ProtoJsonLine(dpq::v1::ListDatasetsResponse()),
            "{\"datasets\":[],\"nextPageToken\":\"\"}\n");
}

TEST(DatasetsTextTest, GraphsShowTheirKindAndNoRowBound) {
  v1::ListDatasetsResponse resp;
  v1::DatasetInfo* net = resp.add_datasets();
  net->set_dataset_id("net");
  net->set_version(1);
  net->set_kind(v1::DATASET_KIND_GRAPH);
  EXPECT_EQ(DatasetsText(resp),
            "ID   VERSION  KIND   MAX_ROWS  ROWS  MEASURES  DESCRIPTION\n"
            "net  1        graph  -         -     -         -\n");
}

TEST_F(CliTest, DatasetsAndDescribePrintServerData) {
  v1::ListDatasetsResponse list;
  v1::DatasetInfo* info = list.add_datasets();
  info->set_dataset_id("hospital");
  info->set_public_max_rows(1000);
  info->set_version(1);
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SetArgPointee<2>(list), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"datasets"}), kExitOk);
  EXPECT_EQ(out(), DatasetsText(list));
  EXPECT_EQ(Run({"datasets", "--json"}), kExitOk);
  EXPECT_EQ(out(), *ProtoJsonLine(list));
  EXPECT_THAT(out(), HasSubstr(R"({"datasets":[{"datasetId":"hospital",)"));

  v1::DescribeDatasetRequest sent;
  v1::DescribeDatasetResponse described;
  *described.mutable_dataset() = *info;
  EXPECT_CALL(*buyer_, DescribeDataset(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(described),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"describe", "hospital"}), kExitOk);
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_THAT(out(), HasSubstr("dataset:          hospital\n"));
}

}  // namespace
}  // namespace dpq::client
