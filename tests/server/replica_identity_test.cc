// The replica id kept in the data directory and the DSN read from a file:
// stable across restarts, created once, and never echoed.
#include "server/replica_identity.h"

#include <sys/stat.h>

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/server/storage/test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server {
namespace {

using ::dpq::server::storage::testing::TempDir;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

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
  EXPECT_NE(::stat(dir.File("replica.id").c_str(), &info), 0);
}

TEST(ReplicaIdentityTest, GeneratedIdIsKeptAcrossRestarts) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(std::string first,
                       LoadOrCreateReplicaId(dir.path(), ""));
  EXPECT_THAT(first, MatchesRegex("replica-[0-9a-f]{16}"));
  struct stat info;
  ASSERT_EQ(::stat(dir.File("replica.id").c_str(), &info), 0);
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
  Write(dir.File("replica.id"), "not valid!\n");
  EXPECT_THAT(
      LoadOrCreateReplicaId(dir.path(), ""),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("replica.id")));
}

TEST(DatabaseDsnTest, FlagWinsFileIsReadAndNeverEchoed) {
  TempDir dir;
  EXPECT_EQ(*ResolveDatabaseDsn("dbname=a", ""), "dbname=a");
  EXPECT_EQ(*ResolveDatabaseDsn("", ""), "");
  Write(dir.File("dsn"), "  postgresql://u:s3cret@db/dpq  \nignored\n");
  ASSERT_OK_AND_ASSIGN(std::string dsn,
                       ResolveDatabaseDsn("", dir.File("dsn")));
  EXPECT_EQ(dsn, "postgresql://u:s3cret@db/dpq");
  Write(dir.File("empty"), "\n");
  absl::StatusOr<std::string> empty = ResolveDatabaseDsn("", dir.File("empty"));
  EXPECT_THAT(empty, StatusIs(absl::StatusCode::kInvalidArgument,
                              HasSubstr("is empty")));
  absl::StatusOr<std::string> missing =
      ResolveDatabaseDsn("", dir.File("missing"));
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("cannot be read")));
  Write(dir.File("secret"), std::string(5000, 'p'));
  absl::StatusOr<std::string> big = ResolveDatabaseDsn("", dir.File("secret"));
  EXPECT_THAT(
      big, StatusIs(absl::StatusCode::kInvalidArgument, Not(HasSubstr("ppp"))));
}

}  // namespace
}  // namespace dpq::server
