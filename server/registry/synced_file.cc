#include "server/registry/synced_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/parallel_for.h"
#include "core/util/prefault.h"
#include "core/util/status_macros.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;

std::string ErrnoText(int err) { return std::strerror(err); }

// Writes all of `content` to `fd`, retrying short writes and EINTR.
absl::Status WriteAll(int fd, const fs::path& path, absl::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrCat("Cannot write '", path.string(),
                                              "': ", ErrnoText(errno)));
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

// Files from this size on are read on several threads (ReadAll), in
// pieces of kReadPieceBytes.
constexpr uint64_t kParallelReadBytes = uint64_t{16} << 20;
constexpr size_t kReadPieceBytes = size_t{4} << 20;
constexpr int kMaxReadThreads = 4;

int ReadThreads() {
  return std::min(core::util::ResolveThreads(0), kMaxReadThreads);
}

// Reads bytes [0, size) of `fd` into `data` by pread on several threads.
// True if all were there; false if the file ended earlier (it shrank since
// fstat: the caller reads it again from the start).
absl::StatusOr<bool> PreadInParallel(int fd, const fs::path& path, char* data,
                                     size_t size) {
  std::atomic<bool> complete{true};
  std::atomic<int> error{0};
  const size_t pieces = (size + kReadPieceBytes - 1) / kReadPieceBytes;
  core::util::ParallelFor(pieces, ReadThreads(), [&](size_t i, int) {
    size_t done = i * kReadPieceBytes;
    const size_t end = std::min(size, done + kReadPieceBytes);
    while (done < end) {
      const ssize_t n =
          ::pread(fd, data + done, end - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = errno;
        return;
      }
      if (n == 0) {
        complete = false;
        return;
      }
      done += static_cast<size_t>(n);
    }
  });
  if (error != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot read '", path.string(), "': ", ErrnoText(error)));
  }
  return complete.load();
}

// Reads `fd` to its end, at most max_bytes + 1 bytes (one more than the
// limit, so the caller can tell a file that grew past it). `size_hint` is
// the size fstat saw. A large file is read on several threads first, then
// on from its end in case it grew.
absl::StatusOr<std::string> ReadAll(int fd, const fs::path& path,
                                    uint64_t size_hint, uint64_t max_bytes) {
  // Room for the read that checks for growth, so that it does not move
  // (copy) the whole text.
  constexpr uint64_t kGrowthProbe = 65536;
  std::string text;
  const uint64_t limit = max_bytes + 1;
  text.reserve(static_cast<size_t>(
      std::min(std::min(size_hint, limit) + kGrowthProbe, limit)));
  size_t done = 0;
  if (size_hint >= kParallelReadBytes) {
    // The fresh pages' faults on several threads, not in the memset of
    // resize (core/util/prefault.h).
    core::util::PrefaultForWriting(text.data(), static_cast<size_t>(size_hint),
                                   ReadThreads());
    text.resize(static_cast<size_t>(size_hint));
    ASSIGN_OR_RETURN(const bool complete,
                     PreadInParallel(fd, path, text.data(), text.size()));
    if (complete) done = text.size();
    // pread leaves the offset alone: read on from `done`.
    if (::lseek(fd, static_cast<off_t>(done), SEEK_SET) < 0) {
      return absl::InternalError(absl::StrCat("Cannot seek in '", path.string(),
                                              "': ", ErrnoText(errno)));
    }
  } else {
    text.resize(static_cast<size_t>(size_hint));
  }
  while (true) {
    if (done == text.size()) {
      // The file may have grown since fstat: read on, within the limit.
      if (text.size() >= limit) break;
      text.resize(std::min<uint64_t>(text.size() + kGrowthProbe, limit));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrCat("Cannot read '", path.string(),
                                              "': ", ErrnoText(errno)));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  text.resize(done);
  return text;
}

// The open file's size if it is a regular file within the limit.
absl::StatusOr<uint64_t> CheckedSize(int fd, const fs::path& path,
                                     uint64_t max_bytes) {
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", path.string(), "' is not a regular file."));
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "'", path.string(), "' has ", st.st_size,
        " bytes, above the server's limit of ", max_bytes, " bytes."));
  }
  return static_cast<uint64_t>(st.st_size);
}

}  // namespace

absl::Status FsyncDirectory(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat(
        "Cannot open '", dir.string(), "' to sync it: ", ErrnoText(errno)));
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) {
    return absl::InternalError(
        absl::StrCat("fsync of '", dir.string(), "' failed: ", ErrnoText(err)));
  }
  return absl::OkStatus();
}

absl::Status WriteFileSynced(const fs::path& path, absl::string_view content) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", path.string(),
                                            "': ", ErrnoText(errno)));
  }
  if (absl::Status written = WriteAll(fd, path, content); !written.ok()) {
    ::close(fd);
    return written;
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return absl::InternalError(absl::StrCat("fsync of '", path.string(),
                                            "' failed: ", ErrnoText(err)));
  }
  if (::close(fd) != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot close '", path.string(), "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

absl::Status ReplaceFileSynced(const fs::path& path,
                               absl::string_view content) {
  const fs::path temp = path.string() + ".tmp";
  RETURN_IF_ERROR(WriteFileSynced(temp, content));
  RETURN_IF_ERROR(RenamePath(temp, path));
  return FsyncDirectory(path.parent_path());
}

absl::StatusOr<std::string> ReadWholeFile(const fs::path& path,
                                          uint64_t max_bytes, bool no_follow) {
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (no_follow ? O_NOFOLLOW : 0));
  if (fd < 0) {
    const int err = errno;
    const std::string message =
        absl::StrCat("Cannot open '", path.string(), "': ", ErrnoText(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  absl::StatusOr<uint64_t> size = CheckedSize(fd, path, max_bytes);
  absl::StatusOr<std::string> text =
      size.ok() ? ReadAll(fd, path, *size, max_bytes) : size.status();
  ::close(fd);
  if (text.ok() && text->size() > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("'", path.string(), "' has more than ", max_bytes,
                     " bytes, the server's limit."));
  }
  return text;
}

absl::Status RenamePath(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("Cannot rename '", from.string(),
                                            "' to '", to.string(),
                                            "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

absl::Status RemoveTree(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot remove '", path.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::registry
