// The replica id kept in the data directory and the DSN read from a file:
// stable across restarts, created once, and never echoed.
#include "server/replica_identity.h"

#include <sys/stat.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server {
namespace {

using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

TEST(ReplicaIdentityTest, ValidIds) {
  EXPECT_TRUE(IsValidReplicaId("dpq-1"));
  EXPECT_TRUE(IsValidReplicaId("a.b_C-9"));
  EXPECT_TRUE(IsValidReplicaId(std::string(64, 'x')));
  EXPECT_FALSE(IsValidReplicaId(""));
  EXPECT_FALSE(IsValidReplicaId(std::string(65, 'x')));
  EXPECT_FALSE(IsValidReplicaId("a b"));
  EXPECT_FALSE(IsValidReplicaId("a/b"));
}

TEST(ReplicaIdentityTest, ConfiguredIdWinsAndWritesNothing) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(std::string id,
                       LoadOrCreateReplicaId(dir.path(), "dpq-2"));
  EXPECT_EQ(id, "dpq-2");
  struct stat info;
  EXPECT_NE(::stat(dir.Sub("replica.id").c_str(), &info), 0);
}

TEST(ReplicaIdentityTest, GeneratedIdIsKeptAcrossRestarts) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(std::string first,
                       LoadOrCreateReplicaId(dir.path(), ""));
  EXPECT_THAT(first, MatchesRegex("replica-[0-9a-f]{16}"));
  struct stat info;
  ASSERT_EQ(::stat(dir.Sub("replica.id").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  ASSERT_OK_AND_ASSIGN(std::string again,
                       LoadOrCreateReplicaId(dir.path(), ""));
  EXPECT_EQ(again, first);
  TempDir other;
  ASSERT_OK_AND_ASSIGN(std::string another,
                       LoadOrCreateReplicaId(other.path(), ""));
  EXPECT_NE(another, first) << "two data directories, two replicas";
}

TEST(ReplicaIdentityTest, CorruptIdFileIsAnErrorNamingIt) {
  TempDir dir;
  WriteFileOrDie(dir.Sub("replica.id"), "not valid!\n");
  EXPECT_THAT(
      LoadOrCreateReplicaId(dir.path(), ""),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("replica.id")));
}

TEST(DatabaseDsnTest, FlagWinsFileIsReadAndNeverEchoed) {
  TempDir dir;
  EXPECT_EQ(*ResolveDatabaseDsn("dbname=a", ""), "dbname=a");
  EXPECT_EQ(*ResolveDatabaseDsn("", ""), "");
  WriteFileOrDie(dir.Sub("dsn"), "  postgresql://u:s3cret@db/dpq  \nignored\n");
  ASSERT_OK_AND_ASSIGN(std::string dsn, ResolveDatabaseDsn("", dir.Sub("dsn")));
  EXPECT_EQ(dsn, "postgresql://u:s3cret@db/dpq");
  WriteFileOrDie(dir.Sub("empty"), "\n");
  absl::StatusOr<std::string> empty = ResolveDatabaseDsn("", dir.Sub("empty"));
  EXPECT_THAT(empty, StatusIs(absl::StatusCode::kInvalidArgument,
                              HasSubstr("is empty")));
  absl::StatusOr<std::string> missing =
      ResolveDatabaseDsn("", dir.Sub("missing"));
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("cannot be read")));
  WriteFileOrDie(dir.Sub("secret"), std::string(5000, 'p'));
  absl::StatusOr<std::string> big = ResolveDatabaseDsn("", dir.Sub("secret"));
  EXPECT_THAT(
      big, StatusIs(absl::StatusCode::kInvalidArgument, Not(HasSubstr("ppp"))));
}

}  // namespace
}  // namespace dpq::server
