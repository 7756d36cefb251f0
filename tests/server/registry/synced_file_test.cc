#include "server/registry/synced_file.h"

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::HasSubstr;

class ReadWholeFileTest : public ::testing::Test {
 protected:
  // Bytes that differ at every position, so that a piece read to the
  // wrong place shows.
  static std::string RandomBytes(size_t size) {
    std::mt19937_64 rng(size);
    std::string out(size, '\0');
    for (char& c : out) c = static_cast<char>(rng());
    return out;
  }

  TempDir temp_dir_{"dpq-synced-file"};
  const fs::path dir_{temp_dir_.path()};
};

// Small files are read in one go; from 16 MiB on, in 4 MiB pieces on
// several threads. Sizes around those boundaries, and an empty file.
TEST_F(ReadWholeFileTest, ReadsEveryByteAtEverySize) {
  for (size_t size :
       {size_t{0}, size_t{1}, size_t{65536}, size_t{65537},
        (size_t{16} << 20) - 1, size_t{16} << 20, (size_t{21} << 20) + 12345}) {
    SCOPED_TRACE(size);
    const std::string content = RandomBytes(size);
    const fs::path path = dir_ / "file";
    ASSERT_TRUE(WriteFileSynced(path, content).ok());
    absl::StatusOr<std::string> read = ReadWholeFile(path, size);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->size(), content.size());
    EXPECT_TRUE(*read == content);
  }
}

TEST_F(ReadWholeFileTest, RefusesAFileAboveTheLimit) {
  const fs::path path = dir_ / "file";
  ASSERT_TRUE(WriteFileSynced(path, RandomBytes(size_t{17} << 20)).ok());
  EXPECT_THAT(ReadWholeFile(path, (size_t{17} << 20) - 1),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("above the server's limit")));
}

// A file that holds more than fstat says (as files in /proc do: size 0) is
// read to its end, within the limit.
TEST_F(ReadWholeFileTest, ReadsPastTheSizeFstatReports) {
  absl::StatusOr<std::string> status =
      ReadWholeFile("/proc/self/status", 1 << 20);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_THAT(*status, HasSubstr("Name:"));
  EXPECT_THAT(ReadWholeFile("/proc/self/status", 4),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("more than 4 bytes")));
}

}  // namespace
}  // namespace dpq::server::registry
