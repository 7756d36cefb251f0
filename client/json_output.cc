#include "client/json_output.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/exact_json.h"
#include "core/util/status_macros.h"
#include "google/protobuf/util/json_util.h"

namespace dpq::client {

absl::StatusOr<std::string> ProtoJsonLine(
    const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = false;
  std::string json;
  // protobuf 3.21's own util::Status, not absl::Status.
  const auto status =
      google::protobuf::util::MessageToJsonString(message, &json, options);
  if (!status.ok()) {
    return absl::InternalError(
        absl::StrCat("Cannot print the ", message.GetTypeName(),
                     " as JSON: ", std::string(status.message())));
  }
  // Exact epsilon amounts, never a double's float noise.
  ASSIGN_OR_RETURN(std::string exact, WithExactAmounts(json));
  return exact + "\n";
}

std::string JsonLine(const core::util::JsonObjectWriter& writer) {
  return writer.Finish() + "\n";
}

absl::StatusOr<CommandOutput> ResponseOutput(
    const google::protobuf::Message& response, bool json,
    absl::FunctionRef<std::string()> table) {
  if (!json) return CommandOutput{table()};
  ASSIGN_OR_RETURN(std::string text, ProtoJsonLine(response));
  return CommandOutput{std::move(text)};
}

}  // namespace dpq::client
