// The text in a protobuf message, checked and repaired by reflection, so
// that the encoding contract holds for every string a response carries
// (docs/security.md, "Text"): a `string` field with invalid UTF-8 makes
// the client's parser refuse the whole response, and one dataset's bad
// label once broke ListDatasets for every caller.
#ifndef DPQ_SERVER_PROTO_TEXT_H_
#define DPQ_SERVER_PROTO_TEXT_H_

#include <optional>
#include <string>

#include "google/protobuf/message.h"

namespace dpq::server {

// The first `string` field (depth first, in field-number order) whose
// value is not valid UTF-8 or holds a control character (C0, DEL, C1;
// core/util/text_check.h): its path (e.g. "cube_dimensions[0].labels[2]")
// and what is wrong with it ("character 3 is not valid UTF-8", "character 4
// is the control character U+001B"), or nullopt.
struct UnprintableText {
  std::string path;
  std::string problem;
};
std::optional<UnprintableText> FindUnprintableText(
    const google::protobuf::Message& message);

// True if some `string` field of `message` (nested and repeated ones
// included) is not valid UTF-8. Read-only, no copies.
bool HasInvalidUtf8(const google::protobuf::Message& message);

// Replaces the ill-formed bytes of every `string` field of `message`
// (nested and repeated ones included) by U+FFFD; returns how many fields
// it changed.
int RepairInvalidUtf8(google::protobuf::Message* message);

}  // namespace dpq::server

#endif  // DPQ_SERVER_PROTO_TEXT_H_
