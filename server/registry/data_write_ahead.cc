#include "server/registry/data_write_ahead.h"

#include <sys/resource.h>
#include <unistd.h>

#include <utility>

#include "server/registry/synced_file.h"

namespace dpq::server::registry {

DataWriteAhead::DataWriteAhead(std::filesystem::path path,
                               absl::string_view data)
    : path_(std::move(path)) {
  writer_ = std::thread([this, data] {
    // The lowest CPU priority for this thread only (Linux applies
    // PRIO_PROCESS with a thread id to that thread): the copy into the page
    // cache then fills the cores the build leaves idle (the single-threaded
    // steps of the graph and of the cover bound's LP) instead of slowing
    // the build; it still gets a share of a busy machine, so it always
    // finishes. Failing to lower it only costs speed.
    setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
    written_ = WriteFileSynced(path_, data);
  });
}

DataWriteAhead::~DataWriteAhead() {
  if (writer_.joinable()) writer_.join();
  // Best effort: a file left behind has a work name, removed by Recover at
  // the next start.
  if (!taken_) RemoveTree(path_).IgnoreError();
}

absl::StatusOr<std::filesystem::path> DataWriteAhead::Wait() {
  if (writer_.joinable()) writer_.join();
  if (!written_.ok()) return written_;
  return path_;
}

}  // namespace dpq::server::registry
