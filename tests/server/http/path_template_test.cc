#include "server/http/path_template.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::http {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Optional;
using ::testing::Pair;

TEST(PathTemplateTest, BindsVariablesAndMatchesTheVerb) {
  ASSERT_OK_AND_ASSIGN(
      PathTemplate t, PathTemplate::Parse("/v1/datasets/{dataset_id}:measure"));
  EXPECT_THAT(t.Match("/v1/datasets/hospital:measure"),
              Optional(ElementsAre(Pair("dataset_id", "hospital"))));
  EXPECT_EQ(t.Match("/v1/datasets/hospital"), std::nullopt);
  EXPECT_EQ(t.Match("/v1/datasets/hospital:report"), std::nullopt);
  EXPECT_EQ(t.Match("/v1/datasets/:measure"), std::nullopt);
  EXPECT_EQ(t.Match("/v1/datasets/a/b:measure"), std::nullopt);
  EXPECT_THAT(t.variables(), ElementsAre("dataset_id"));
}

TEST(PathTemplateTest, AVariableWithoutAVerbTakesNoColon) {
  ASSERT_OK_AND_ASSIGN(PathTemplate t,
                       PathTemplate::Parse("/v1/datasets/{dataset_id}"));
  EXPECT_THAT(t.Match("/v1/datasets/hospital"),
              Optional(ElementsAre(Pair("dataset_id", "hospital"))));
  // That path belongs to the template with the verb.
  EXPECT_EQ(t.Match("/v1/datasets/hospital:measure"), std::nullopt);
  EXPECT_EQ(t.Match("/v1/datasets/"), std::nullopt);
  EXPECT_EQ(t.Match("/v1/datasets"), std::nullopt);
}

TEST(PathTemplateTest, LiteralsAndStarVariables) {
  ASSERT_OK_AND_ASSIGN(PathTemplate t,
                       PathTemplate::Parse("/v1/costs:preview"));
  EXPECT_THAT(t.Match("/v1/costs:preview"), Optional(ElementsAre()));
  EXPECT_EQ(t.Match("/v1/costs"), std::nullopt);
  ASSERT_OK_AND_ASSIGN(PathTemplate star,
                       PathTemplate::Parse("/v1/buyers/{buyer.id=*}/x"));
  EXPECT_THAT(star.Match("/v1/buyers/bob/x"),
              Optional(ElementsAre(Pair("buyer.id", "bob"))));
}

TEST(PathTemplateTest, RefusesWhatItCannotServe) {
  for (const char* bad :
       {"v1/x", "/", "/v1//x", "/v1/{name=**}", "/v1/{a}b", "/v1/x{a}",
        "/v1/{1a}", "/v1/x:", "/v1/*", "/v1/{a=shelves/*}"}) {
    EXPECT_THAT(PathTemplate::Parse(bad),
                StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_))
        << bad;
  }
}

}  // namespace
}  // namespace dpq::server::http
