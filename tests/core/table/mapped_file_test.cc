#include "core/table/mapped_file.h"

#include <filesystem>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::core::table {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;
using ::testing::HasSubstr;

class MappedFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    WriteFileOrDie(path, bytes);
    return path.string();
  }

  TempDir temp_dir_{"dpq-mapped-file"};
  const fs::path dir_{temp_dir_.path()};
};

TEST_F(MappedFileTest, ViewIsTheFileBytesIncludingNul) {
  const std::string bytes =
      std::string("a,b\n1,\0x\n", 9) + std::string(70000, 'z');
  absl::StatusOr<MappedFile> file = MappedFile::Open(Write("f.csv", bytes));
  ASSERT_OK(file.status());
  EXPECT_EQ(file->view(), bytes);
}

TEST_F(MappedFileTest, EmptyFileIsAnEmptyView) {
  absl::StatusOr<MappedFile> file = MappedFile::Open(Write("empty.csv", ""));
  ASSERT_OK(file.status());
  EXPECT_TRUE(file->view().empty());
}

TEST_F(MappedFileTest, MovedFromFileIsEmptyAndTheTargetKeepsTheMapping) {
  absl::StatusOr<MappedFile> file = MappedFile::Open(Write("m.csv", "x,y\n"));
  ASSERT_OK(file.status());
  MappedFile moved = std::move(*file);
  EXPECT_TRUE(file->view().empty());
  EXPECT_EQ(moved.view(), "x,y\n");
  MappedFile other = std::move(*MappedFile::Open(Write("n.csv", "1\n")));
  other = std::move(moved);
  EXPECT_EQ(other.view(), "x,y\n");
}

TEST_F(MappedFileTest, MissingFileDirectoryAndDeviceAreClearErrors) {
  EXPECT_THAT(MappedFile::Open((dir_ / "nope.csv").string()),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("nope.csv")));
  EXPECT_THAT(MappedFile::Open(dir_.string()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("it is a directory")));
  EXPECT_THAT(MappedFile::Open("/dev/null"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a regular file")));
}

TEST_F(MappedFileTest, ReleasedPagesReadBackUnchanged) {
  std::string bytes;
  for (int i = 0; i < 50000; ++i) bytes += std::to_string(i) + ",x\n";
  absl::StatusOr<MappedFile> file = MappedFile::Open(Write("r.csv", bytes));
  ASSERT_OK(file.status());
  const absl::string_view view = file->view();
  file->Release(view.substr(100, 200000));  // unaligned both ends
  file->Release(view);
  EXPECT_EQ(view, bytes);
}

}  // namespace
}  // namespace dpq::core::table
