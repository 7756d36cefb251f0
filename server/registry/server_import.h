// Server-side imports: AdminService uploads by `server_path` (the CSV is
// read from the server's disk instead of the stream). An admin token must
// not turn into a way to read any file the server can read (docs/security.md,
// item 3: /proc/self/environ, /etc/shadow and DATA_DIR/admin.token were
// echoed back in error messages). So imports are off unless the operator
// names an import directory (--import-dir, config key import_dir); a
// server_path must resolve, symbolic links and ".." followed, to a regular
// file inside it and outside the data directory; and no error of a
// server_path registration quotes the file (cells, header names).
#ifndef DPQ_SERVER_REGISTRY_SERVER_IMPORT_H_
#define DPQ_SERVER_REGISTRY_SERVER_IMPORT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace dpq::server::registry {

// Where the CSV of a registration came from.
enum class CsvSource {
  kUpload,      // streamed by the client: errors may quote it
  kServerPath,  // read from the server's disk: errors never quote it
};

// The real path (no symbolic links, no "." or "..") of the file that
// `server_path` names: relative paths are relative to `import_dir`. Errors:
//  - kFailedPrecondition if `import_dir` is empty (imports are off; the
//    message says how to turn them on) or cannot be resolved;
//  - kInvalidArgument for an empty path or one with a NUL byte, and for a
//    path inside the import directory that is not a regular file;
//  - kPermissionDenied if the resolved path is outside `import_dir` (the
//    same message whether or not such a file exists, so it tells nothing
//    about files outside) or inside `data_dir`, even when the data
//    directory lies inside the import directory;
//  - kNotFound if it is inside the import directory but does not exist.
// A path checked here can still be swapped by someone who can write to the
// import directory between this check and the read; the reader opens it
// with O_NOFOLLOW, and writing there is the operator's privilege anyway.
absl::StatusOr<std::string> ResolveImportPath(const std::string& server_path,
                                              const std::string& import_dir,
                                              const std::string& data_dir);

// The content of the file `server_path` names (ResolveImportPath's checks
// and errors, unprefixed), opened without following a final symbolic link:
// a regular file of at most `max_bytes` bytes. Read errors are prefixed
// "server_path: " (kNotFound, kPermissionDenied, kInvalidArgument,
// kResourceExhausted naming max_csv_bytes). No error quotes the file.
absl::StatusOr<std::string> ReadImportFile(const std::string& server_path,
                                           const std::string& import_dir,
                                           const std::string& data_dir,
                                           uint64_t max_bytes);

// `status` (an error of building a dataset from a server_path file) with
// nothing of the file in it: the code, the field the message starts with
// ("csv", "constraints", "cube_dimensions", ...) and the line and column it
// names, if it starts with them, and a hint; everything else (quoted cells
// and header names, "known columns" lists, suggestions) is dropped. Only
// text the server writes before any quoted content is kept, so the file
// cannot smuggle anything into the result. OK stays OK.
absl::Status WithoutFileContent(const absl::Status& status);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_SERVER_IMPORT_H_
