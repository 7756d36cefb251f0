// UTF-8 checks for the text `dpq` puts into proto `string` fields. The
// server's protobuf library refuses to parse a message whose string field
// is not valid UTF-8, and then reports something unrelated ("The upload
// stream is empty"); so `dpq` refuses such text itself, before any call, and
// says where the bad byte is.
#ifndef DPQ_CLIENT_UTF8_H_
#define DPQ_CLIENT_UTF8_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::client {

// (The UTF-8 primitives themselves are core/util/text_check.h.)

// OK if `value` is valid UTF-8; otherwise kInvalidArgument
// "<what> is not valid UTF-8: byte N is 0xHH." (`what` names the flag or
// argument, e.g. "--description").
absl::Status CheckUtf8Value(absl::string_view what, absl::string_view value);

// OK if `text`, the contents of the local file `path` (given with `flag`),
// is valid UTF-8; otherwise kInvalidArgument
// "PATH:LINE:COLUMN: not valid UTF-8 (byte 0xHH); <flag> files must be UTF-8
// text." LINE and COLUMN count from 1; COLUMN counts code points.
absl::Status CheckUtf8File(absl::string_view flag, absl::string_view path,
                           absl::string_view text);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_UTF8_H_
