#include "client/file_chunker.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) /
          ("file_chunker_test_" + name))
      .string();
}

std::string WriteFile(const std::string& name, const std::string& content) {
  const std::string path = TempPath(name);
  ::dpq::testing::WriteFileOrDie(path, content);
  return path;
}

// Some bytes where position matters (so a reordering would show).
std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>((i * 7 + i / 251) % 256);
  return s;
}

std::vector<std::string> AllChunks(FileChunker& chunker) {
  std::vector<std::string> chunks;
  while (true) {
    absl::StatusOr<std::optional<std::string>> chunk = chunker.Next();
    EXPECT_TRUE(chunk.ok()) << chunk.status();
    if (!chunk.ok() || !chunk->has_value()) break;
    chunks.push_back(**chunk);
  }
  return chunks;
}

TEST(FileChunkerTest, SplitsIntoFullChunksAndARemainderInOrder) {
  const std::string content = Pattern(10 * 1024 + 5);
  const std::string path = WriteFile("remainder", content);
  absl::StatusOr<FileChunker> chunker = FileChunker::Open(path, "--data", 1024);
  ASSERT_TRUE(chunker.ok()) << chunker.status();
  EXPECT_EQ(chunker->file_size(), content.size());
  const std::vector<std::string> chunks = AllChunks(*chunker);
  ASSERT_EQ(chunks.size(), 11u);
  std::string joined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].size(), i < 10 ? 1024u : 5u) << "chunk " << i;
    joined += chunks[i];
  }
  EXPECT_EQ(joined, content);
  EXPECT_EQ(chunker->bytes_read(), content.size());
  // Exhausted stays exhausted.
  absl::StatusOr<std::optional<std::string>> after = chunker->Next();
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->has_value());
}

TEST(FileChunkerTest, ExactMultipleHasNoEmptyTrailingChunk) {
  const std::string content = Pattern(3 * 512);
  const std::string path = WriteFile("exact", content);
  absl::StatusOr<FileChunker> chunker = FileChunker::Open(path, "--data", 512);
  ASSERT_TRUE(chunker.ok());
  const std::vector<std::string> chunks = AllChunks(*chunker);
  ASSERT_EQ(chunks.size(), 3u);
  for (const std::string& c : chunks) EXPECT_EQ(c.size(), 512u);
  EXPECT_EQ(chunks[0] + chunks[1] + chunks[2], content);
}

TEST(FileChunkerTest, DefaultChunkIsOneMebibyte) {
  EXPECT_EQ(kUploadChunkBytes, 1048576u);
  const std::string content = Pattern(kUploadChunkBytes + 1);
  const std::string path = WriteFile("mib", content);
  absl::StatusOr<FileChunker> chunker = FileChunker::Open(path, "--data");
  ASSERT_TRUE(chunker.ok());
  const std::vector<std::string> chunks = AllChunks(*chunker);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].size(), kUploadChunkBytes);
  EXPECT_EQ(chunks[1].size(), 1u);
}

TEST(FileChunkerTest, EmptyFileYieldsNoChunk) {
  const std::string path = WriteFile("empty", "");
  absl::StatusOr<FileChunker> chunker = FileChunker::Open(path, "--data", 16);
  ASSERT_TRUE(chunker.ok());
  EXPECT_TRUE(AllChunks(*chunker).empty());
}

TEST(FileChunkerTest, MissingFileIsNotFoundNamingFlagAndPath) {
  EXPECT_THAT(FileChunker::Open(TempPath("does_not_exist.csv"), "--data"),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("--data file '" +
                                 TempPath("does_not_exist.csv") + "'")));
}

TEST(FileChunkerTest, DirectoryIsRejected) {
  EXPECT_THAT(FileChunker::Open(::testing::TempDir(), "--data"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a regular file")));
}

TEST(FileChunkerTest, ZeroChunkSizeIsRejected) {
  const std::string path = WriteFile("zero", "abc");
  EXPECT_THAT(
      FileChunker::Open(path, "--data", 0),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Chunk size")));
}

TEST(ReadSmallFileTest, ReadsWholeFileAndEnforcesLimit) {
  const std::string path = WriteFile("small", "A -> B\nC -> D\n");
  absl::StatusOr<std::string> text = ReadSmallFile(path, "--constraints");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "A -> B\nC -> D\n");
  EXPECT_THAT(ReadSmallFile(path, "--constraints", 4),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--constraints file")));
  EXPECT_THAT(
      ReadSmallFile(TempPath("nope.dc"), "--constraints"),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("--constraints")));
}

}  // namespace
}  // namespace dpq::client
