// `dpq describe`: a dataset's schema, constraints and public metadata.
#include "client/commands/describe.h"

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
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST(DescribeTextTest, OwnerTextIsEscapedEverywhere) {
  const auto resp = FromText<dpq::v1::DescribeDatasetResponse>(R"pb(
    dataset {
      dataset_id: "d"
      description: "line1\nconstraints:\n  1. forged"
      columns { name: "a\033[31m" type: COLUMN_TYPE_STRING }
      constraints: "a -> b\n  2. forged"
      cube_dimensions { column: "a\r" labels: "x\ny" labels: "\302\233" }
      public_cuboids {
        dimensions: "a\t"
        cells { values: "v\n" count: 3 }
      }
    }
  )pb");
  const std::string text = DescribeText(resp);
  EXPECT_THAT(text, HasSubstr("description:      line1\\nconstraints:\\n  "
                              "1. forged\n"));
  EXPECT_THAT(text, HasSubstr("  a\\x1b[31m  string\n"));
  EXPECT_THAT(text, HasSubstr("  1. a -> b\\n  2. forged\n"));
  EXPECT_THAT(text, HasSubstr("  a\\r: x\\ny, \\u009b\n"));
  EXPECT_THAT(text, HasSubstr("  1. a\\t\n"));
  EXPECT_THAT(text, HasSubstr("v\\n"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));
  EXPECT_THAT(text, Not(HasSubstr("\r")));
  EXPECT_THAT(text, Not(HasSubstr("\t")));
  EXPECT_THAT(text, Not(HasSubstr("\xc2\x9b")));
  // Exactly one "constraints:" heading and one numbered constraint.
  EXPECT_THAT(text, Not(HasSubstr("\n  2. forged")));
  EXPECT_EQ(text.find("\nconstraints:\n"), text.rfind("\nconstraints:\n"));
}

TEST(DescribeTextTest, HumanListsSchemaAndConstraints) {
  dpq::v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = HospitalInfo();
  const std::string text = DescribeText(resp);
  EXPECT_THAT(text, HasSubstr("dataset:          hospital\n"));
  EXPECT_THAT(text, HasSubstr("version:          2 (registered "
                              "2024-05-01T12:00:00Z)\n"));
  EXPECT_THAT(text, HasSubstr("public max rows:  1000\n"));
  EXPECT_THAT(text, HasSubstr("row count:        not public\n"));
  EXPECT_THAT(text, HasSubstr("measures:         MI, P, R\n"
                              "I_R released as:  a lower bound (cover_bound: "
                              "clique LP)\n"));
  EXPECT_THAT(text, HasSubstr("  NAME  TYPE\n  zip   int64\n  city  string\n"));
  EXPECT_THAT(text, HasSubstr("constraints:\n  1. zip -> city\n"));
}

TEST(DescribeTextTest, ExactRepairIsShownInTextAndJson) {
  dpq::v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = HospitalInfo();
  resp.mutable_dataset()->set_exact_repair(true);
  EXPECT_THAT(DescribeText(resp),
              HasSubstr("I_R released as:  the exact minimum repair (owner's "
                        "exact_repair)\n"));
  EXPECT_THAT(*ProtoJsonLine(resp), HasSubstr(R"("exactRepair":true,)"));
  // A graph has no I_R: no line for it.
  resp.mutable_dataset()->set_kind(dpq::v1::DATASET_KIND_GRAPH);
  EXPECT_THAT(DescribeText(resp), Not(HasSubstr("I_R released as")));
}

const char kCubeInfo[] = R"pb(
  dataset_id: "adult"
  public_max_rows: 50000
  version: 1
  kind: DATASET_KIND_TABLE
  columns { name: "Sex" type: COLUMN_TYPE_STRING }
  columns { name: "Age" type: COLUMN_TYPE_INT64 }
  constraints: "Sex -> Sex"
  cube_dimensions { column: "Sex" labels: "F" labels: "M" }
  cube_dimensions {
    column: "Age"
    labels: "[0,30)"
    labels: "[30,100]"
    labels: "other"
  }
  public_cuboids {
    dimensions: "Sex"
    cells { values: "F" count: 400 }
    cells { values: "M" count: 600 }
  }
  supported_releases: "ReleaseCuboids"
  supported_releases: "TrainDecisionTree"
)pb";

TEST(DescribeCubeTest, HumanShowsKindDimensionsExactCuboidsAndReleases) {
  v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = FromText<v1::DatasetInfo>(kCubeInfo);
  const std::string text = DescribeText(resp);
  EXPECT_THAT(text, HasSubstr("kind:             table\n"
                              "privacy unit:     -\n"
                              "releases:         ReleaseCuboids, "
                              "TrainDecisionTree\n"));
  EXPECT_THAT(text, HasSubstr("cube dimensions:\n"
                              "  Sex: F, M\n"
                              "  Age: [0,30), [30,100], other\n"
                              "public exact cuboids:\n"
                              "  1. Sex\n"
                              "     Sex  COUNT\n"
                              "     F    400\n"
                              "     M    600\n"));
}

TEST(DescribeCubeTest, GraphShowsKindPrivacyUnitAndReleasesOnly) {
  v1::DescribeDatasetResponse resp;
  v1::DatasetInfo* d = resp.mutable_dataset();
  d->set_dataset_id("karate");
  d->set_kind(v1::DATASET_KIND_GRAPH);
  d->set_neighbouring("one edge added or removed (edge-DP)");
  d->add_supported_releases("SelectInfluentialNodes");
  const std::string text = DescribeText(resp);
  EXPECT_THAT(text, HasSubstr("kind:             graph\n"
                              "privacy unit:     one edge added or removed "
                              "(edge-DP)\n"
                              "releases:         SelectInfluentialNodes\n"));
  // None of a table's parts.
  for (const char* table_part : {"public max rows", "columns:", "constraints:",
                                 "cube dimensions:", "public exact cuboids:"}) {
    EXPECT_THAT(text, Not(HasSubstr(table_part)));
  }
}

// The response message itself: a cuboid's cells carry their values in the
// order of its dimensions.
TEST(DescribeCubeTest, JsonHasKindDimensionsCuboidsAndReleases) {
  v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = FromText<v1::DatasetInfo>(kCubeInfo);
  const std::string json = *ProtoJsonLine(resp);
  EXPECT_THAT(json, StartsWith(R"j({"dataset":{"datasetId":"adult",)j"));
  EXPECT_THAT(
      json,
      HasSubstr(
          R"j("kind":"DATASET_KIND_TABLE",)j"
          R"j("cubeDimensions":[{"column":"Sex","labels":["F","M"]},)j"
          R"j({"column":"Age","labels":["[0,30)","[30,100]","other"]}],)j"
          R"j("publicCuboids":[{"dimensions":["Sex"],"cells":[)j"
          R"j({"values":["F"],"count":400},{"values":["M"],"count":600}]}],)j"
          R"j("supportedReleases":["ReleaseCuboids","TrainDecisionTree"],)j"
          R"j("chargeMultiplier":0,"nodeCount":"0","exactRepair":false}})j"));
}

TEST(DescribeCubeTest, TableWithoutCubeSaysNone) {
  v1::DescribeDatasetResponse resp;
  resp.mutable_dataset()->set_dataset_id("plain");
  EXPECT_THAT(DescribeText(resp),
              HasSubstr("cube dimensions:\n  (none)\n"
                        "public exact cuboids:\n  (none)\n"));
}

TEST(DescribeCubeTest, JsonOfTheApexCuboidHasNoValues) {
  v1::DescribeDatasetResponse resp;
  resp.mutable_dataset()->add_public_cuboids()->add_cells()->set_count(1000);
  EXPECT_THAT(*ProtoJsonLine(resp),
              HasSubstr(R"j("publicCuboids":[{"dimensions":[],"cells":[)j"
                        R"j({"values":[],"count":1000}]}])j"));
}

}  // namespace
}  // namespace dpq::client
