// Streams an upload (RegisterDataset, ReplaceDataset): the header message,
// then the CSV in chunks, on gRPC's asynchronous client-streaming API,
// because the synchronous ClientWriter::Finish aborts the process when the
// server's reply does not parse; here that is an error like any other.
#ifndef DPQ_CLIENT_UPLOAD_STREAM_H_
#define DPQ_CLIENT_UPLOAD_STREAM_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "client/connection.h"
#include "client/file_chunker.h"
#include "client/grpc_status.h"
#include "core/util/status_macros.h"
#include "dpq/v1/admin_service.pb.h"
#include "grpcpp/client_context.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_stream.h"

namespace dpq::client {
namespace internal {

// Waits for the one operation in flight on `cq`; its `ok`.
bool Await(grpc::CompletionQueue& cq);

// Shuts `cq` down and drains it.
void Drain(grpc::CompletionQueue& cq);

}  // namespace internal

// What a reply that does not parse means: the server did what it was asked
// (its status is OK) but sent an answer this dpq cannot read, e.g. a text
// field that is not valid UTF-8. kInternal naming `rpc`.
absl::Status UnreadableAnswer(absl::string_view rpc);

// Sends `header`, then the chunks of `csv` (none if null: the server reads
// the file itself), and waits for the answer. `prepare` prepares the call
// (PrepareAsyncRegisterDataset or PrepareAsyncReplaceDataset of the admin
// stub); `rpc` names it in errors. A local read error cancels the call and
// is returned; otherwise the call's status (a server that closes the stream
// early stops the upload, and its status is returned).
template <typename Request, typename Response, typename PrepareCall>
absl::Status Upload(PrepareCall prepare, absl::string_view rpc,
                    const CallOptions& call,
                    const dpq::v1::DatasetUploadHeader& header,
                    FileChunker* csv, Response* response) {
  grpc::ClientContext context;
  PrepareContext(call, &context);
  grpc::CompletionQueue cq;
  std::unique_ptr<grpc::ClientAsyncWriterInterface<Request>> writer =
      prepare(&context, response, &cq);
  if (writer == nullptr) {
    return absl::InternalError("The upload stream could not be opened.");
  }
  // One operation at a time, so one tag serves them all.
  void* const tag = &context;
  writer->StartCall(tag);
  bool open = internal::Await(cq);
  if (open) {
    Request first;
    *first.mutable_header() = header;
    // The size hint lets the server reserve the CSV's memory once.
    if (csv != nullptr) first.mutable_header()->set_csv_bytes(csv->file_size());
    writer->Write(first, tag);
    open = internal::Await(cq);
  }
  absl::Status local = absl::OkStatus();
  while (open && csv != nullptr) {
    absl::StatusOr<std::optional<std::string>> chunk = csv->Next();
    if (!chunk.ok()) {
      local = chunk.status();
      context.TryCancel();
      break;
    }
    if (!chunk->has_value()) break;
    Request next;
    next.set_csv_chunk(std::move(**chunk));
    writer->Write(next, tag);
    open = internal::Await(cq);
  }
  if (open && local.ok()) {
    writer->WritesDone(tag);
    internal::Await(cq);
  }
  grpc::Status status;
  writer->Finish(&status, tag);
  // Finish fails only when the reply does not parse.
  const bool parsed = internal::Await(cq);
  writer.reset();
  internal::Drain(cq);
  RETURN_IF_ERROR(local);
  if (!parsed && status.ok()) return UnreadableAnswer(rpc);
  return FromGrpcStatus(status);
}

}  // namespace dpq::client

#endif  // DPQ_CLIENT_UPLOAD_STREAM_H_
