// Checks a bearer token before it goes into gRPC metadata. gRPC aborts the
// whole process (exit 134, no message) on a metadata value with a control
// or non-ASCII byte, and with GRPC_VERBOSITY=debug it logs the value; so
// `dpq` checks the token itself and never prints it or its bytes.
#ifndef DPQ_CLIENT_TOKEN_H_
#define DPQ_CLIENT_TOKEN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::client {

// The token in `raw`, from `source` (e.g. "--token", "DPQ_TOKEN",
// "--token-file 'admin.token'"), with one trailing "\n" or "\r\n" dropped
// (as `$(cat token)` or a file saved by an editor leaves it). Every other
// byte must be printable ASCII without space (0x21-0x7E; server tokens are
// "dpq_" and 64 hex digits). kInvalidArgument otherwise, or if nothing is
// left; the message names `source` and the position of the bad byte (from
// 1) and its kind (space, control character, non-ASCII byte), never the
// token or the byte itself.
absl::StatusOr<std::string> CleanToken(absl::string_view raw,
                                       absl::string_view source);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_TOKEN_H_
