// One `dpq` command: its arguments and flags, its call and its output. Each
// command lives in client/commands/<name>.{h,cc}; client/commands/registry
// lists them, client/command_line parses a command line into one of them,
// and RunCli (client/cli.h) runs it:
//
//   DefineFlags -> (parse) -> Validate -> ReadFiles -> (connect) -> Run
//
// Validate errors are usage errors (exit 2); ReadFiles and Run errors are
// reported as one `dpq: <CODE>: <message>` line (exit 1).
#ifndef DPQ_CLIENT_COMMAND_H_
#define DPQ_CLIENT_COMMAND_H_

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/connection.h"
#include "client/grpc_status.h"
#include "grpcpp/client_context.h"

namespace dpq::client {

class CommandFlags;

// The default per-call deadline, and the longer one of uploads (they build
// the conflict graph before they return).
inline constexpr int kDefaultTimeoutSeconds = 30;
inline constexpr int kDefaultUploadTimeoutSeconds = 600;

// The service a command calls.
enum class Service { kHealth, kBuyer, kAdmin };

// What a command is, for the usage text and for RunCli.
struct CommandInfo {
  // "measure", "admin register": the words after `dpq`.
  std::string name;
  // The synopsis after "dpq " and a summary (which may span lines, each
  // continuation indented by six spaces), for `dpq --help`.
  std::string synopsis;
  std::string summary;
  Service service = Service::kBuyer;
  // Releases spend budget and carry a request id: --request-id, else one
  // RunCli generates (and names in the error line if the outcome is
  // uncertain).
  bool release = false;
  // The per-call deadline without --timeout.
  int default_timeout_seconds = kDefaultTimeoutSeconds;
};

// What a command prints on stdout, and a failure to report after it
// (health: the server answered but is not SERVING).
struct CommandOutput {
  std::string text;
  absl::Status failure = absl::OkStatus();
};

// Everything Run needs besides the command's own arguments.
struct RunContext {
  const Connection& connection;
  CallOptions call;
  // --json: one JSON object instead of tables.
  bool json = false;
  // Releases: the request id to send (--request-id or a generated one).
  std::string request_id;
};

class Command {
 public:
  explicit Command(CommandInfo info) : info_(std::move(info)) {}
  virtual ~Command() = default;
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  const CommandInfo& info() const { return info_; }

  // Declares the command's arguments and flags; the parsed values land in
  // the command's members.
  virtual void DefineFlags(CommandFlags& flags) = 0;

  // Converts and checks the parsed values (numbers, names, combinations),
  // before anything is read or sent; `flags` says which flags were given.
  // kInvalidArgument: a usage error.
  virtual absl::Status Validate(const CommandFlags& /*flags*/) {
    return absl::OkStatus();
  }

  // Reads the local files the command sends, before connecting. Errors
  // name the flag and the file.
  virtual absl::Status ReadFiles(size_t /*upload_chunk_bytes*/) {
    return absl::OkStatus();
  }

  // Releases: the --request-id given, "" if none.
  virtual std::string GivenRequestId() const { return ""; }

  // Calls the server and renders its answer.
  virtual absl::StatusOr<CommandOutput> Run(const RunContext& context) = 0;

 private:
  CommandInfo info_;
};

// Calls the unary RPC `method` of `stub` with a fresh context (deadline and,
// on plaintext channels, the token); the gRPC status converted.
template <typename Stub, typename Request, typename Response>
absl::Status UnaryCall(const CallOptions& call, Stub& stub,
                       grpc::Status (Stub::*method)(grpc::ClientContext*,
                                                    const Request&, Response*),
                       const Request& request, Response* response) {
  grpc::ClientContext context;
  PrepareContext(call, &context);
  return FromGrpcStatus((stub.*method)(&context, request, response));
}

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMAND_H_
