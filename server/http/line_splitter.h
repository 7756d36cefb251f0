// A streamed upload's body as lines (newline-delimited JSON, one request
// message per line, as grpc-gateway streams them), from the pieces the
// HTTP server hands over, each line within a byte limit so that a client
// cannot make the listener buffer without bound.
#ifndef DPQ_SERVER_HTTP_LINE_SPLITTER_H_
#define DPQ_SERVER_HTTP_LINE_SPLITTER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::http {

class LineSplitter {
 public:
  explicit LineSplitter(int64_t limit) : limit_(limit) {}

  // Appends the next piece of the body.
  void Append(absl::string_view piece) {
    buffer_.append(piece.data(), piece.size());
  }
  // Marks the end of the body: what follows the last newline is a line.
  void Finish() { finished_ = true; }

  // true with the next non-blank line in `*line`; false when no whole line
  // is buffered (or none is left after Finish);
  // kResourceExhausted naming the limit for a line longer than it.
  absl::StatusOr<bool> Next(std::string* line);

 private:
  int64_t limit_;
  std::string buffer_;
  size_t start_ = 0;
  bool finished_ = false;
};

// The message of a body or line above `limit` bytes.
absl::Status TooLargeError(int64_t limit, absl::string_view what);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_LINE_SPLITTER_H_
