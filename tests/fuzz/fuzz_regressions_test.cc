// Replays every kept fuzz input (docs/fuzzing.md) through its target in
// the ordinary suites, plain and under ASan + UBSan: the reproducers of
// the crashes fixed (regressions/<target>/) and the committed seeds
// (seeds/<target>/). A target aborts on a broken invariant, which fails
// this test.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/fuzz/fuzz_targets.h"
#include "tests/testing/files.h"

namespace dpq::fuzz {
namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;
  int (*run)(const uint8_t*, size_t);
};

// For gtest's messages: the target's name, not its bytes.
void PrintTo(const Target& target, std::ostream* os) { *os << target.name; }

constexpr Target kTargets[] = {
    {"csv_reader", FuzzCsvReader},
    {"dc_native", FuzzDcNative},
    {"dc_fd", FuzzDcFd},
    {"dc_benchmark", FuzzDcBenchmark},
    {"manifest", FuzzManifest},
    {"config", FuzzConfig},
    {"edge_list", FuzzEdgeList},
    {"cube_dimension", FuzzCubeDimension},
    {"release_request", FuzzReleaseRequest},
    {"http_request", FuzzHttpRequest},
};

// The files under DPQ_FUZZ_DIR/<kind>/<target>, sorted.
std::vector<fs::path> Inputs(const char* kind, const char* target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(DPQ_FUZZ_DIR) / kind / target;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class FuzzInputsTest : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzInputsTest, KeptInputsPassTheirTarget) {
  size_t count = 0;
  for (const char* kind : {"regressions", "seeds"}) {
    for (const fs::path& path : Inputs(kind, GetParam().name)) {
      SCOPED_TRACE(path.string());
      const std::string bytes = ::dpq::testing::ReadFileOrEmpty(path);
      EXPECT_EQ(GetParam().run(reinterpret_cast<const uint8_t*>(bytes.data()),
                               bytes.size()),
                0);
      ++count;
    }
  }
  // Every target has seeds in the repository.
  EXPECT_GT(count, 0u) << GetParam().name;
}

TEST(FuzzTargetsTest, EmptyAndTinyInputsAreHandled) {
  const uint8_t bytes[] = {0, 1, 2, 3, 4, '\n', ',', '"'};
  for (const Target& target : kTargets) {
    SCOPED_TRACE(target.name);
    for (size_t size = 0; size <= sizeof(bytes); ++size) {
      EXPECT_EQ(target.run(bytes, size), 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzInputsTest, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace dpq::fuzz
