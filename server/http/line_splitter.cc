#include "server/http/line_splitter.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace dpq::server::http {

absl::Status TooLargeError(int64_t limit, absl::string_view what) {
  return absl::ResourceExhaustedError(absl::StrCat(
      what, " exceeds ", limit,
      " bytes, the HTTP listener's limit for the server's max_message_bytes "
      "(4/3 of it plus 64 KiB: what base64 makes of a message)."));
}

absl::StatusOr<bool> LineSplitter::Next(std::string* line) {
  while (true) {
    const size_t newline = buffer_.find('\n', start_);
    if (newline == std::string::npos &&
        !(finished_ && start_ < buffer_.size())) {
      if (static_cast<int64_t>(buffer_.size() - start_) > limit_) {
        return TooLargeError(limit_, "A line of the streamed body");
      }
      // Keep only the unfinished line.
      buffer_.erase(0, start_);
      start_ = 0;
      return false;
    }
    const size_t stop = newline == std::string::npos ? buffer_.size() : newline;
    line->assign(buffer_, start_, stop - start_);
    start_ = newline == std::string::npos ? buffer_.size() : newline + 1;
    if (static_cast<int64_t>(line->size()) > limit_) {
      return TooLargeError(limit_, "A line of the streamed body");
    }
    if (!absl::StripAsciiWhitespace(*line).empty()) return true;
  }
}

}  // namespace dpq::server::http
