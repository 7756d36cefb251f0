#include "core/table/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace dpq::core::table {
namespace {

// Closes the descriptor on every path out of Open: the mapping stays valid
// without it.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<MappedFile> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat("Cannot open CSV file '", path,
                                            "': ", std::strerror(errno)));
  }
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    return absl::DataLossError(absl::StrCat("Cannot stat CSV file '", path,
                                            "': ", std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot read CSV file '", path, "': it is a directory"));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Cannot read CSV file '", path, "': it is not a regular file"));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) return MappedFile(nullptr, 0);
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) {
    return absl::DataLossError(absl::StrCat("Cannot map CSV file '", path,
                                            "': ", std::strerror(errno)));
  }
  // The tokenizer reads front to back, twice: let the kernel read ahead.
  ::madvise(data, size, MADV_SEQUENTIAL);
  return MappedFile(data, size);
}

void MappedFile::Release(absl::string_view part) const {
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(part.data());
  const uintptr_t end = begin + part.size();
  const uintptr_t first = (begin + page - 1) / page * page;
  const uintptr_t last = end / page * page;
  const uintptr_t mapped = reinterpret_cast<uintptr_t>(data_);
  if (first >= last || first < mapped || last > mapped + size_) return;
  // The mapping is private and never written: dropped pages come back
  // unchanged from the file.
  ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    Unmap();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { Unmap(); }

void MappedFile::Unmap() {
  if (data_ != nullptr) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace dpq::core::table
