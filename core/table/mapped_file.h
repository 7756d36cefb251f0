// A read-only memory mapping of a whole file: how the CSV reader streams a file
// from disk without reading it into memory first (docs/performance.md,
// "Memory"). The kernel pages the file in as the tokenizer walks it and may
// drop clean pages again under memory pressure, so a large file costs page
// cache, not the process's anonymous memory, and is never copied into a string.
#ifndef DPQ_CORE_TABLE_MAPPED_FILE_H_
#define DPQ_CORE_TABLE_MAPPED_FILE_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::table {

class MappedFile {
 public:
  // kNotFound if the file cannot be opened, kInvalidArgument for a
  // directory, kDataLoss if it cannot be mapped. An empty file maps to an
  // empty view. The file must not be truncated while mapped (dpq maps only
  // files it owns or the caller hands it).
  static absl::StatusOr<MappedFile> Open(const std::string& path);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Lets the kernel drop the pages wholly inside `part` (a part of view())
  // from this process's memory; reading them again faults them back in
  // from the page cache or the file. For data parsed once and no longer
  // needed soon.
  void Release(absl::string_view part) const;

  absl::string_view view() const {
    return absl::string_view(static_cast<const char*>(data_), size_);
  }

 private:
  MappedFile(void* data, size_t size) : data_(data), size_(size) {}
  void Unmap();

  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_MAPPED_FILE_H_
