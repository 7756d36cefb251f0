// ReleaseCuboids on the UCI Adult table in ../shared/data next to the
// repository (label shared-data).
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"
#include "core/table/csv_reader.h"
#include "gtest/gtest.h"
#include "tests/core/cube/cube_test_util.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/shared_data.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::SeededUrbg;
using testing::ExpectConsistent;

// Real data: UCI Adult (32,561 rows) with inferred domains, Q = {Sex, Race},
// {Race, Education}, three requested cuboids; consistent to 1e-9.
TEST(CuboidReleaseAdultTest, ReleasesConsistentCuboidsOnAdult) {
  ASSERT_TRUE(::dpq::testing::HasSharedData("adult/adult.csv"));
  ASSERT_OK_AND_ASSIGN(
      table::Table t,
      table::ReadCsvFile(::dpq::testing::SharedDataPath("adult/adult.csv")));
  ASSERT_OK_AND_ASSIGN(
      CubeSchema schema,
      BuildCubeSchema(
          t, {testing::InferredSpec("Sex"), testing::InferredSpec("Race"),
              testing::InferredSpec("Education"),
              testing::Spec("Age", {0, 20, 30, 40, 50, 60, 100})}));
  CuboidReleaseOptions options;
  options.epsilon = 1;
  options.public_exact_cuboids = {{"Sex", "Race"}, {"Race", "Education"}};
  SeededUrbg urbg(13);
  const absl::Time start = absl::Now();
  ASSERT_OK_AND_ASSIGN(
      CuboidRelease r,
      ReleaseCuboids(
          t, schema,
          {{"Sex", "Education", "Age"}, {"Education", "Sex"}, {"Age", "Race"}},
          options, urbg));
  RecordProperty(
      "release_ms",
      std::to_string(absl::ToDoubleMilliseconds(absl::Now() - start)));
  // size({Sex}) = 3 (F, M and the "other" cell every inferred domain has),
  // size({Education}) = 17: 2 min(3, 17) = 6.
  EXPECT_EQ(r.sensitivity, 6);
  // {Sex, Education} is not public; its parts {Sex} and {Education} are.
  for (int i : {0, 1}) {
    ExpectConsistent(t, schema, r.cuboids[i], {"Sex"});
    ExpectConsistent(t, schema, r.cuboids[i], {"Education"});
  }
  ExpectConsistent(t, schema, r.cuboids[2], {"Race"});
  ExpectConsistent(t, schema, r.cuboids[2], {});
}

}  // namespace
}  // namespace dpq::core::cube
