// A version's data.csv written to disk while the version is still being
// built: the write and its fsync (about 0.1-0.2 s for 80 MB) overlap the
// parse and the conflict graph instead of following them
// (docs/performance.md "Registration"). DatasetDirectory::Publish then
// moves the synced file into the version by a rename.
#ifndef DPQ_SERVER_REGISTRY_DATA_WRITE_AHEAD_H_
#define DPQ_SERVER_REGISTRY_DATA_WRITE_AHEAD_H_

#include <filesystem>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::registry {

class DataWriteAhead {
 public:
  // Starts writing `data` (which must outlive this object) to `path`, mode
  // 0600, then fsyncs it, on a thread of its own. `path` is a work file of
  // the data directory that Recover removes after a crash.
  DataWriteAhead(std::filesystem::path path, absl::string_view data);
  // Waits for the thread; removes the file unless Publish took it (a build
  // that failed leaves nothing behind).
  ~DataWriteAhead();

  DataWriteAhead(const DataWriteAhead&) = delete;
  DataWriteAhead& operator=(const DataWriteAhead&) = delete;

  // Waits for the write: the synced file's path, or the write's error
  // (kInternal naming the path).
  absl::StatusOr<std::filesystem::path> Wait();
  // The file was renamed into a version: the destructor leaves it alone.
  void Taken() { taken_ = true; }

 private:
  const std::filesystem::path path_;
  absl::Status written_;
  std::thread writer_;
  bool taken_ = false;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATA_WRITE_AHEAD_H_
