// Durable file operations for the data directory (dataset_directory.h):
// whole-file reads with a size limit, writes that reach the disk before
// they return (fsync), atomic renames and removals. The data directory
// holds private rows, so every file is created with mode 0600.
//
// Errors are kInternal naming the path and the system's reason, except
// where a contract below says otherwise.
#ifndef DPQ_SERVER_REGISTRY_SYNCED_FILE_H_
#define DPQ_SERVER_REGISTRY_SYNCED_FILE_H_

#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::registry {

// Flushes a directory's entries (new, renamed and removed names) to disk.
absl::Status FsyncDirectory(const std::filesystem::path& dir);

// Creates (or truncates) `path` with `content`, mode 0600, and fsyncs it.
// The caller fsyncs the directory once its files are written.
absl::Status WriteFileSynced(const std::filesystem::path& path,
                             absl::string_view content);

// Replaces `path` atomically: writes `path`.tmp, fsyncs it, renames it over
// `path` and fsyncs the directory. Readers see the old or the new content.
absl::Status ReplaceFileSynced(const std::filesystem::path& path,
                               absl::string_view content);

// The whole content of a regular file of at most `max_bytes` bytes (also
// if it grows while being read). kNotFound if it does not exist,
// kPermissionDenied if it cannot be opened otherwise, kInvalidArgument if
// it is not a regular file, kResourceExhausted above the limit (a caller
// with a named limit says which: ReadImportFile).
// `no_follow`: a symbolic link as the last component is refused (a path
// resolved and checked earlier, then swapped for a link).
absl::StatusOr<std::string> ReadWholeFile(const std::filesystem::path& path,
                                          uint64_t max_bytes,
                                          bool no_follow = false);

// rename(2): atomic within one file system.
absl::Status RenamePath(const std::filesystem::path& from,
                        const std::filesystem::path& to);

// Removes a file or a directory tree; OK if it does not exist.
absl::Status RemoveTree(const std::filesystem::path& path);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_SYNCED_FILE_H_
