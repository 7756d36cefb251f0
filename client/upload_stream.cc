#include "client/upload_stream.h"

#include "absl/strings/str_cat.h"

namespace dpq::client {
namespace internal {

bool Await(grpc::CompletionQueue& cq) {
  void* tag = nullptr;
  bool ok = false;
  return cq.Next(&tag, &ok) && ok;
}

void Drain(grpc::CompletionQueue& cq) {
  cq.Shutdown();
  void* ignored_tag;
  bool ignored_ok;
  while (cq.Next(&ignored_tag, &ignored_ok)) {
  }
}

}  // namespace internal

absl::Status UnreadableAnswer(absl::string_view rpc) {
  return absl::InternalError(absl::StrCat(
      "The server reports that ", rpc,
      " succeeded, but its answer could not be parsed (for example, a text "
      "field that is not valid UTF-8), so dpq cannot show it."));
}

}  // namespace dpq::client
