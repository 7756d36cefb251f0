// The shared benchmark datasets (adult, flights, hospital, tax, selection)
// that tests labelled `shared-data` read from ../shared/data next to the
// repository (README, "All tests"). They are not part of the repository,
// so a test that needs them checks for them first and fails with a message
// that says what is missing and why, instead of failing obscurely on an
// empty table or skipping silently.
//
//   TEST(AccuracyTest, MarkdownHasOneLinePerGraph) {
//     ASSERT_TRUE(HasSharedData("hospital"));
//     ... SharedDataPath("hospital/dirty.csv") ...
//   }
// or, for a suite, the SharedDataSuite fixture below.
#ifndef DPQ_TESTS_TESTING_SHARED_DATA_H_
#define DPQ_TESTS_TESTING_SHARED_DATA_H_

#include <filesystem>
#include <string>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace dpq::testing {

// The directory of the shared datasets (DPQ_SHARED_DATA_DIR, set by
// tests/CMakeLists.txt to ../shared/data next to the source tree).
inline std::string SharedDataDir() { return DPQ_SHARED_DATA_DIR; }

// SharedDataDir() + "/" + relative.
inline std::string SharedDataPath(absl::string_view relative) {
  return SharedDataDir() + "/" + std::string(relative);
}

// Success if SharedDataPath(relative) exists (a file or a folder), else a
// failure saying so.
inline ::testing::AssertionResult HasSharedData(absl::string_view relative) {
  const std::string path = SharedDataPath(relative);
  std::error_code error;
  if (std::filesystem::exists(path, error)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << path << " not found: this test reads the shared datasets next to "
         << "the repository (../shared/data, ctest label shared-data; "
         << "`ctest -LE shared-data` runs the suite without them); see "
         << "README.md, \"All tests\".";
}

// A fixture for suites whose every test reads the shared datasets: each
// test fails at once with HasSharedData's message when they are missing.
//   class RNoiseTest : public dpq::testing::SharedDataSuite {};
//   TEST_F(RNoiseTest, IsDeterministicForASeed) { ... }
class SharedDataSuite : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(HasSharedData("")); }
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_SHARED_DATA_H_
