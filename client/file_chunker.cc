#include "client/file_chunker.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

// Checks that `path` names a readable regular file; returns its size.
absl::StatusOr<uint64_t> RegularFileSize(const std::string& path,
                                         const std::string& flag) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) {
    return absl::NotFoundError(absl::StrCat("Cannot read ", flag, " file '",
                                            path, "': no such file."));
  }
  if (!std::filesystem::is_regular_file(st)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Cannot read ", flag, " file '", path, "': not a regular file."));
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::UnknownError(absl::StrCat("Cannot read ", flag, " file '",
                                           path, "': ", ec.message(), "."));
  }
  return static_cast<uint64_t>(size);
}

}  // namespace

absl::StatusOr<FileChunker> FileChunker::Open(const std::string& path,
                                              const std::string& flag,
                                              size_t chunk_bytes) {
  if (chunk_bytes == 0) {
    return absl::InvalidArgumentError("Chunk size must be positive, but is 0.");
  }
  ASSIGN_OR_RETURN(const uint64_t size, RegularFileSize(path, flag));
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!in->is_open()) {
    const int err = errno;
    const std::string reason = err != 0 ? std::strerror(err) : "cannot open";
    if (err == EACCES) {
      return absl::PermissionDeniedError(absl::StrCat(
          "Cannot read ", flag, " file '", path, "': ", reason, "."));
    }
    return absl::UnknownError(absl::StrCat("Cannot read ", flag, " file '",
                                           path, "': ", reason, "."));
  }
  return FileChunker(path, std::move(in), chunk_bytes, size);
}

absl::StatusOr<std::optional<std::string>> FileChunker::Next() {
  if (done_) return std::nullopt;
  std::string chunk(chunk_bytes_, '\0');
  in_->read(chunk.data(), static_cast<std::streamsize>(chunk_bytes_));
  const std::streamsize got = in_->gcount();
  if (in_->bad()) {
    done_ = true;
    return absl::DataLossError(absl::StrCat(
        "Read error in '", path_, "' after ", bytes_read_, " bytes."));
  }
  if (got < static_cast<std::streamsize>(chunk_bytes_)) done_ = true;
  if (got == 0) return std::nullopt;
  chunk.resize(static_cast<size_t>(got));
  bytes_read_ += static_cast<uint64_t>(got);
  return chunk;
}

absl::StatusOr<std::string> ReadSmallFile(const std::string& path,
                                          const std::string& flag,
                                          size_t max_bytes) {
  ASSIGN_OR_RETURN(FileChunker chunker, FileChunker::Open(path, flag));
  if (chunker.file_size() > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " file '", path, "' has ", chunker.file_size(),
                     " bytes; at most ", max_bytes, " are allowed."));
  }
  std::string text;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<std::string> chunk, chunker.Next());
    if (!chunk.has_value()) break;
    text += *chunk;
    if (text.size() > max_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, " file '", path, "' has more than ", max_bytes, " bytes."));
    }
  }
  return text;
}

}  // namespace dpq::client
