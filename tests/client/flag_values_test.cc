// The values of dpq's flags, parsed from their text (client/flag_values).
#include "client/flag_values.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ParseCubeDimensionTest, InferredBinnedAndDeclaredDomains) {
  absl::StatusOr<v1::CubeDimension> inferred = ParseCubeDimension(" Sex ");
  ASSERT_TRUE(inferred.ok()) << inferred.status();
  EXPECT_EQ(inferred->column(), "Sex");
  EXPECT_THAT(inferred->bin_edges(), IsEmpty());
  EXPECT_THAT(inferred->domain(), IsEmpty());

  absl::StatusOr<v1::CubeDimension> binned =
      ParseCubeDimension("Age:0, 30,60,1e2");
  ASSERT_TRUE(binned.ok()) << binned.status();
  EXPECT_EQ(binned->column(), "Age");
  EXPECT_THAT(binned->bin_edges(), ElementsAre(0, 30, 60, 100));
  EXPECT_THAT(binned->domain(), IsEmpty());

  absl::StatusOr<v1::CubeDimension> declared =
      ParseCubeDimension("State=CA | NY|New Mexico");
  ASSERT_TRUE(declared.ok()) << declared.status();
  EXPECT_EQ(declared->column(), "State");
  EXPECT_THAT(declared->domain(), ElementsAre("CA", "NY", "New Mexico"));
  EXPECT_THAT(declared->bin_edges(), IsEmpty());
}

TEST(ParseCubeDimensionTest, MalformedValuesAreUsageErrors) {
  EXPECT_THAT(ParseCubeDimension(""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("expects COL=V1|V2|..., COL:E0,E1,... or "
                                 "COL=*")));
  EXPECT_THAT(ParseCubeDimension(":1,2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--cube-dimension")));
  EXPECT_THAT(
      ParseCubeDimension("Age:0,ten"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Age: bin edge 'ten' is not a finite number")));
  EXPECT_THAT(ParseCubeDimension("Age:0,inf"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("bin edge 'inf'")));
  EXPECT_THAT(
      ParseCubeDimension("Age:"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bin edge ''")));
  EXPECT_THAT(ParseCubeDimension("Sex=F||M"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Sex: empty domain value in 'Sex=F||M'")));
}

TEST(ParseNameListTest, TrimsAndRejectsEmptyItemsAndRepeats) {
  EXPECT_THAT(*ParseNameList("--dims", " Sex, Age ", false),
              ElementsAre("Sex", "Age"));
  EXPECT_THAT(*ParseNameList("--dims", "", true), IsEmpty());
  EXPECT_THAT(ParseNameList("--features", "", false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--features expects a comma-separated list")));
  EXPECT_THAT(ParseNameList("--dims", "A,,B", true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--dims: empty name in 'A,,B'")));
  EXPECT_THAT(ParseNameList("--dims", "A,B,A", true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--dims: 'A' is given twice")));
}

TEST(ParseNumberListTest, FiniteNumbersOnly) {
  EXPECT_THAT(*ParseNumberList("--weights", "1, 0.5,-2"),
              ElementsAre(1, 0.5, -2));
  for (const std::string bad : {"", "1,", "1,x", "nan", "1,inf"}) {
    SCOPED_TRACE(bad);
    EXPECT_THAT(ParseNumberList("--weights", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("--weights expects comma-separated finite "
                                   "numbers")));
  }
}

TEST(ParseNumberTest, FiniteNumbersAndUnsignedIntegers) {
  EXPECT_THAT(ParseNumber("--epsilon", "-1.5"), IsOkAndHolds(-1.5));
  EXPECT_THAT(ParseNumber("EPS", "1e999"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("EPS expects a finite number, got '1e999'")));
  EXPECT_THAT(ParseUint64("--k", "12"), IsOkAndHolds(12u));
  for (const std::string bad : {"", "+1", "-1", "1.5", "x"}) {
    SCOPED_TRACE(bad);
    EXPECT_THAT(ParseUint64("--k", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("--k expects a non-negative integer")));
  }
  EXPECT_THAT(ParseUint32("--limit", "4294967295"), IsOkAndHolds(4294967295u));
  EXPECT_THAT(ParseUint32("--limit", "4294967296"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--limit must be at most 4294967295")));
}

TEST(ParseNamesTest, MeasuresMethodsAndModesIgnoreCase) {
  EXPECT_THAT(ParseMeasureName("MI"), IsOkAndHolds(v1::MEASURE_MI));
  EXPECT_THAT(ParseMethodName("Hierarchical"),
              IsOkAndHolds(v1::SELECTION_METHOD_HIERARCHICAL));
  EXPECT_THAT(ParseRepairMethodName("EXACT"),
              IsOkAndHolds(v1::REPAIR_METHOD_EXACT));
  EXPECT_THAT(ParseKindName("Graph"), IsOkAndHolds(v1::DATASET_KIND_GRAPH));
  EXPECT_THAT(ParseApproachName("pareto"),
              IsOkAndHolds(v1::SELECTION_APPROACH_PARETO));
  EXPECT_THAT(ParseSensitivityName("LOCAL"),
              IsOkAndHolds(v1::SENSITIVITY_MODE_LOCAL));
  EXPECT_THAT(ParseObjectiveName("egocentric_density"),
              IsOkAndHolds(v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY));
  EXPECT_THAT(ParseKindName("tree"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--kind must be one of table, graph; got "
                                 "'tree'")));
}

}  // namespace
}  // namespace dpq::client
