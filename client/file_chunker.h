// Reads a local file as a sequence of fixed-size chunks, for streaming a CSV
// to AdminService.RegisterDataset/ReplaceDataset without holding it in
// memory.
#ifndef DPQ_CLIENT_FILE_CHUNKER_H_
#define DPQ_CLIENT_FILE_CHUNKER_H_

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace dpq::client {

// 1 MiB: the chunk size `dpq admin register` sends (the server accepts up
// to 4 MiB per message).
inline constexpr size_t kUploadChunkBytes = size_t{1} << 20;

class FileChunker {
 public:
  // Opens `path` for reading. kNotFound if it does not exist,
  // kInvalidArgument if it is not a regular file or chunk_bytes is 0,
  // kPermissionDenied/kUnknown if it cannot be opened. Messages name `flag`
  // (e.g. "--data") and the path.
  static absl::StatusOr<FileChunker> Open(
      const std::string& path, const std::string& flag,
      size_t chunk_bytes = kUploadChunkBytes);

  FileChunker(FileChunker&&) = default;
  FileChunker& operator=(FileChunker&&) = default;

  // The next chunk: exactly chunk_bytes bytes except for the last (non-empty)
  // chunk; std::nullopt once the whole file was returned (an empty file
  // yields no chunk). kDataLoss on a read error.
  absl::StatusOr<std::optional<std::string>> Next();

  // Bytes returned so far.
  uint64_t bytes_read() const { return bytes_read_; }
  // The file's size when it was opened.
  uint64_t file_size() const { return file_size_; }

 private:
  FileChunker(std::string path, std::unique_ptr<std::ifstream> in,
              size_t chunk_bytes, uint64_t file_size)
      : path_(std::move(path)),
        in_(std::move(in)),
        chunk_bytes_(chunk_bytes),
        file_size_(file_size) {}

  std::string path_;
  std::unique_ptr<std::ifstream> in_;
  size_t chunk_bytes_;
  uint64_t file_size_;
  uint64_t bytes_read_ = 0;
  bool done_ = false;
};

// Reads a whole (small) local text file, e.g. the --constraints file. Same
// errors as FileChunker::Open, plus kInvalidArgument above `max_bytes`.
absl::StatusOr<std::string> ReadSmallFile(const std::string& path,
                                          const std::string& flag,
                                          size_t max_bytes = size_t{16} << 20);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_FILE_CHUNKER_H_
