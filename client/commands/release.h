// What the releases (measure, report, cuboids, tree, top-nodes) share: the
// --request-id flag and the closing lines of their output.
#ifndef DPQ_CLIENT_COMMANDS_RELEASE_H_
#define DPQ_CLIENT_COMMANDS_RELEASE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/command_flags.h"
#include "client/format.h"

namespace dpq::client {

// --request-id R: the idempotency key of a release (docs/service.md). A
// retry with the same id returns the recorded answer at no charge; without
// the flag RunCli generates an id and prints it.
class RequestIdFlag {
 public:
  void Define(CommandFlags& flags);
  // If given: 1-128 printable ASCII characters (ValidateRequestId).
  absl::Status Validate(const CommandFlags& flags) const;
  // The id given, "" if none.
  const std::string& value() const { return value_; }

 private:
  std::string value_;
};

// "charged epsilon 1, remaining 2", or for a replayed answer "charged
// epsilon 0 (recorded answer of an earlier call), remaining 2": the
// amounts exact, from their *_units fields (FormatEpsilon). `Response` is
// any release response message.
std::string ChargeSentence(absl::string_view charged,
                           absl::string_view remaining, bool replayed);
template <typename Response>
std::string ChargeSentence(const Response& response) {
  return ChargeSentence(FormatEpsilon(response.epsilon_charged_units(),
                                      response.epsilon_charged()),
                        FormatEpsilon(response.remaining_budget_units(),
                                      response.remaining_budget()),
                        response.replayed());
}

// The closing lines of a release: its charge sentence and "request id: R".
// `Response` is any release response message.
template <typename Response>
void AppendChargeLines(const Response& response, std::string* out) {
  absl::StrAppend(out, ChargeSentence(response), "\n",
                  "request id: ", OrDash(response.request_id()), "\n");
}

// The request id a release's answer names: the server's, else the one sent
// (a server may leave it out).
template <typename Response>
void FillRequestId(const std::string& sent, Response* response) {
  if (response->request_id().empty()) response->set_request_id(sent);
}

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_RELEASE_H_
