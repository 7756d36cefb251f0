#include "server/registry/server_import.h"

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;
using ::testing::AllOf;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::Not;

// DIR/import (with data.csv), DIR/data (the data directory, with
// admin.token) and DIR/outside.csv.
class ResolveImportPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(import_dir());
    fs::create_directories(data_dir());
    WriteFileOrDie(import_dir() / "data.csv", "a,b\n1,2\n");
    WriteFileOrDie(data_dir() / "admin.token", "secret");
    WriteFileOrDie(dir_ / "outside.csv", "x\n");
  }
  fs::path import_dir() const { return dir_ / "import"; }
  fs::path data_dir() const { return dir_ / "data"; }
  absl::StatusOr<std::string> Resolve(const std::string& path) const {
    return ResolveImportPath(path, import_dir().string(), data_dir().string());
  }
  std::string Real(const fs::path& path) const {
    return fs::canonical(path).string();
  }

  TempDir temp_dir_{"dpq-import"};
  const fs::path dir_{temp_dir_.path()};
};

TEST_F(ResolveImportPathTest, IsOffWithoutAnImportDirectory) {
  EXPECT_THAT(ResolveImportPath((import_dir() / "data.csv").string(), "",
                                data_dir().string()),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("off"), HasSubstr("--import-dir"),
                             HasSubstr("import_dir"))));
}

TEST_F(ResolveImportPathTest, AcceptsAFileInsideByAbsoluteOrRelativePath) {
  const std::string real = Real(import_dir() / "data.csv");
  EXPECT_THAT(Resolve((import_dir() / "data.csv").string()),
              IsOkAndHolds(real));
  EXPECT_THAT(Resolve("data.csv"), IsOkAndHolds(real));
  EXPECT_THAT(Resolve("./sub/../data.csv"),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));  // no "sub"
  fs::create_directory(import_dir() / "sub");
  EXPECT_THAT(Resolve("./sub/../data.csv"), IsOkAndHolds(real));
  // A link that stays inside is fine.
  fs::create_symlink("data.csv", import_dir() / "alias.csv");
  EXPECT_THAT(Resolve("alias.csv"), IsOkAndHolds(real));
}

TEST_F(ResolveImportPathTest, RefusesPathsOutside) {
  for (const std::string& path :
       {std::string("/proc/self/environ"), std::string("/etc/shadow"),
        (dir_ / "outside.csv").string(), std::string("../outside.csv"),
        (import_dir() / ".." / "outside.csv").string(),
        std::string("../data/admin.token"), std::string("/")}) {
    EXPECT_THAT(Resolve(path),
                StatusIs(absl::StatusCode::kPermissionDenied,
                         HasSubstr("outside the import directory")))
        << path;
  }
}

TEST_F(ResolveImportPathTest, RefusesSymbolicLinksThatEscape) {
  fs::create_symlink("/proc/self/environ", import_dir() / "environ.csv");
  fs::create_symlink(data_dir() / "admin.token", import_dir() / "token.csv");
  fs::create_symlink(dir_, import_dir() / "up");
  for (const char* path : {"environ.csv", "token.csv", "up/outside.csv"}) {
    EXPECT_THAT(Resolve(path),
                StatusIs(absl::StatusCode::kPermissionDenied,
                         HasSubstr("outside the import directory")))
        << path;
  }
}

// A missing file outside gets the same answer as an existing one, so a
// refusal tells nothing about files elsewhere.
TEST_F(ResolveImportPathTest, SaysNotFoundOnlyInsideTheImportDirectory) {
  EXPECT_THAT(Resolve("missing.csv"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("does not exist in the import directory")));
  const absl::Status existing = Resolve("../outside.csv").status();
  const absl::Status missing = Resolve("../missing.csv").status();
  EXPECT_EQ(existing.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(missing.code(), existing.code());
  EXPECT_THAT(std::string(missing.message()),
              HasSubstr("outside the import directory"));
}

TEST_F(ResolveImportPathTest, RefusesWhatIsNotARegularFile) {
  fs::create_directory(import_dir() / "dir.csv");
  ASSERT_EQ(::mkfifo((import_dir() / "fifo.csv").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", import_dir() / "zero.csv");
  for (const char* path : {"dir.csv", "fifo.csv"}) {
    EXPECT_THAT(Resolve(path), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("not a regular file")))
        << path;
  }
  EXPECT_THAT(Resolve("zero.csv"), StatusIs(absl::StatusCode::kPermissionDenied,
                                            ::testing::_));  // outside
}

// The data directory (ledger, tokens, stored datasets) is never imported,
// even when the operator put it inside the import directory.
TEST_F(ResolveImportPathTest, RefusesTheDataDirectoryEvenInsideIt) {
  const fs::path inner_data = import_dir() / "data";
  fs::create_directories(inner_data / "datasets" / "zips");
  WriteFileOrDie(inner_data / "admin.token", "secret");
  WriteFileOrDie(inner_data / "datasets" / "zips" / "data.csv", "a\n1\n");
  for (const char* path :
       {"data/admin.token", "data/datasets/zips/data.csv", "data"}) {
    EXPECT_THAT(
        ResolveImportPath(path, import_dir().string(), inner_data.string()),
        StatusIs(absl::StatusCode::kPermissionDenied,
                 HasSubstr("data directory")))
        << path;
  }
  // Also through a link to it.
  fs::create_symlink(inner_data / "admin.token", import_dir() / "t.csv");
  EXPECT_THAT(
      ResolveImportPath("t.csv", import_dir().string(), inner_data.string()),
      StatusIs(absl::StatusCode::kPermissionDenied,
               HasSubstr("data directory")));
}

TEST_F(ResolveImportPathTest, RefusesEmptyPathsAndNulBytes) {
  EXPECT_THAT(Resolve(""),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(Resolve(std::string("data.csv\0../../etc/passwd", 25)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NUL")));
}

TEST(WithoutFileContentTest, KeepsCodeFieldLineAndColumnOnly) {
  const absl::Status cell = absl::InvalidArgumentError(
      "csv: line 3, column 2 (\"secret-name\"): \"secret-cell\" is not an "
      "int64 (the type declared in the schema)");
  EXPECT_THAT(WithoutFileContent(cell),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("csv, line 3, column 2: the file "
                                       "named by server_path was refused"),
                             Not(HasSubstr("secret")))));
  const absl::Status header = absl::InvalidArgumentError(
      "csv: line 1: column 2 of the header has an empty name");
  EXPECT_THAT(WithoutFileContent(header),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("csv, line 1, column 2: ")));
  const absl::Status known = absl::InvalidArgumentError(
      "constraints: Unknown column 'Zip' at line 1 (known columns: "
      "PATH=/usr/bin, HOME=/root); did you mean 'zip'?");
  EXPECT_THAT(WithoutFileContent(known),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("constraints: the file"),
                             Not(HasSubstr("PATH")), Not(HasSubstr("zip")))));
  const absl::Status cuboid = absl::ResourceExhaustedError(
      "public_cuboids[1]: too many distinct values");
  EXPECT_THAT(WithoutFileContent(cuboid),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       AllOf(HasSubstr("public_cuboids[1]: the file"),
                             Not(HasSubstr("distinct")))));
  EXPECT_TRUE(WithoutFileContent(absl::OkStatus()).ok());
}

// Only the server's own prefix is read: text from the file cannot pass
// itself off as a field or a location.
TEST(WithoutFileContentTest, FileTextCannotPassForAFieldOrLocation) {
  for (const char* message :
       {"secret: line 9, column 9", "\"csv: line 1\" is not a column",
        "Unknown column 'line 42'", "csvx: line 5",
        "csv: secret line 5, column 6"}) {
    const absl::Status redacted =
        WithoutFileContent(absl::InvalidArgumentError(message));
    EXPECT_THAT(std::string(redacted.message()),
                AllOf(Not(HasSubstr("secret")), Not(HasSubstr("line 9")),
                      Not(HasSubstr("line 42")), Not(HasSubstr("line 5")),
                      Not(HasSubstr("csvx")), Not(HasSubstr("line 1\""))))
        << message;
  }
  EXPECT_THAT(
      std::string(
          WithoutFileContent(absl::InvalidArgumentError("x")).message()),
      Eq("the file named by server_path was refused. Errors of a server_path "
         "import never quote the file (cells, header names), so the details "
         "are withheld: check the file where you can read it, e.g. register "
         "it by upload (dpq admin register --data FILE) or run dpq-measure "
         "on it."));
}

}  // namespace
}  // namespace dpq::server::registry
