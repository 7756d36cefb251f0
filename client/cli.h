// `dpq`, the client CLI for buyers and admins, as a function: RunCli parses
// the arguments (client/command_line.h), reads local files, calls the
// server through the stubs that CliEnv supplies (a real gRPC channel by
// default; gMock stubs in tests) and prints tables or one JSON object. Each
// command is one file under client/commands/.
//
// Exit status: 0 success; 1 a server or gRPC error (one line
// `dpq: <CODE>: <message>` on stderr) or a local file error (same form,
// before any RPC); 2 a usage error (message plus a usage hint on stderr).
#ifndef DPQ_CLIENT_CLI_H_
#define DPQ_CLIENT_CLI_H_

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/connection.h"
#include "client/file_chunker.h"
#include "client/global_options.h"

namespace dpq::client {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;

// What RunCli needs from the outside world.
struct CliEnv {
  // Environment variables (DPQ_SERVER, DPQ_TOKEN).
  EnvLookup getenv;
  // Opens a connection; called at most once per run, after all local
  // checks passed.
  std::function<absl::StatusOr<Connection>(const ConnectionOptions&)> connect;
  // A fresh request id for a release without --request-id.
  std::function<std::string()> new_request_id;
  // Size of the CSV chunks of an upload.
  size_t upload_chunk_bytes = kUploadChunkBytes;
};

// The real environment: std::getenv, ConnectGrpc, GenerateRequestId().
CliEnv DefaultCliEnv();

// Runs one `dpq` command line (`args` without the program name). Output goes
// to `out`, diagnostics to `err`; returns the exit status.
int RunCli(const std::vector<std::string>& args, const CliEnv& env,
           std::ostream& out, std::ostream& err);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_CLI_H_
