// What `dpq --json` prints: exactly one JSON object on one line.
//
// A command whose answer is a response message prints it through
// protobuf's own JSON mapping (google::protobuf::util::MessageToJsonString),
// the canonical proto3 JSON that other gRPC tools such as grpcurl print:
// lowerCamelCase field names, 64-bit integers as strings, enum values by
// name, Timestamps in RFC 3339, and every field, zero values included
// (always_print_primitive_fields), so that a script sees `"replayed":false`
// rather than nothing. Control characters (C0, C1) become \uXXXX escapes,
// so the JSON cannot act on a terminal. Epsilon amounts are exact decimals
// from their *_units siblings (client/exact_json.h): "remaining":15.6,
// never 15.600000000000001. A command whose answer is an empty
// message (admin delete, revoke-buyer, set-cap) prints a small object of
// its own instead (JsonLine).
#ifndef DPQ_CLIENT_JSON_OUTPUT_H_
#define DPQ_CLIENT_JSON_OUTPUT_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "client/command.h"
#include "core/util/json_writer.h"
#include "google/protobuf/message.h"

namespace dpq::client {

// `message` in the canonical proto3 JSON mapping (above), one line ending
// in '\n'. kInternal if protobuf cannot print it.
absl::StatusOr<std::string> ProtoJsonLine(
    const google::protobuf::Message& message);

// The object `writer` built, one line ending in '\n'.
std::string JsonLine(const core::util::JsonObjectWriter& writer);

// The output of a command that prints `response`: its JSON with `json`,
// else `table()` (the text for people).
absl::StatusOr<CommandOutput> ResponseOutput(
    const google::protobuf::Message& response, bool json,
    absl::FunctionRef<std::string()> table);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_JSON_OUTPUT_H_
