// The flags valid with every `dpq` command (--server, --token, TLS files,
// --insecure, --json, --timeout), resolved with the environment ($DPQ_SERVER,
// $DPQ_TOKEN), and the connection they describe.
#ifndef DPQ_CLIENT_GLOBAL_OPTIONS_H_
#define DPQ_CLIENT_GLOBAL_OPTIONS_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/command.h"
#include "client/command_flags.h"
#include "client/connection.h"

namespace dpq::client {

// The server address without --server and $DPQ_SERVER.
inline constexpr char kDefaultServer[] = "localhost:50051";

// Looks up an environment variable; std::nullopt if unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The resolved global options.
struct GlobalOptions {
  // host:port; --server, else env DPQ_SERVER, else kDefaultServer.
  std::string server = kDefaultServer;
  // The bearer token: --token, else env DPQ_TOKEN (checked by CleanToken:
  // one trailing newline dropped; left empty for `dpq health`, which sends
  // none). Empty: none.
  std::string token;
  // --token-file: read the token from this file instead (the whole file,
  // checked by CleanToken when it is read).
  std::string token_file;
  // PEM of the CA to trust (--ca); empty: the system roots.
  std::string ca_file;
  // mTLS: client certificate chain and key (PEM), both or neither.
  std::string client_cert_file;
  std::string client_key_file;
  // Overrides the TLS server name checked against the certificate.
  std::string tls_server_name;
  // Plaintext (--insecure).
  bool insecure = false;
  // One JSON object on stdout instead of tables (--json).
  bool json = false;
  // Per-call deadline (--timeout SECONDS); unset: the command's default.
  std::optional<absl::Duration> timeout;
};

// The global flags as given, declared on the main CLI11 app.
class GlobalFlags {
 public:
  void Define(CommandFlags& flags);

  // The options from the flags, with the environment filling in what they
  // leave out. `needs_token`: false for `dpq health`, which sends none (so
  // a stray DPQ_TOKEN cannot break a health probe). kInvalidArgument (a
  // usage error) for an empty --server/--token/--token-file, --token with
  // --token-file, a token byte CleanToken refuses, --client-cert without
  // --client-key (or the reverse), a TLS flag with --insecure, or a
  // --timeout that is not a positive number.
  absl::StatusOr<GlobalOptions> Resolve(const CommandFlags& flags,
                                        const EnvLookup& env,
                                        bool needs_token) const;

  // Whether --json was given (for the error path, before Resolve).
  bool json() const { return json_; }

 private:
  std::string server_;
  std::string token_;
  std::string token_file_;
  std::string ca_file_;
  std::string client_cert_file_;
  std::string client_key_file_;
  std::string tls_server_name_;
  std::string timeout_;
  bool insecure_ = false;
  bool json_ = false;
};

// What a command's calls need: the channel and the per-call options.
struct ConnectionSetup {
  ConnectionOptions connection;
  CallOptions call;
};

// Reads the token file, the CA and the client certificate (errors name the
// flag and the file) and settles the deadline (--timeout, else the
// command's default). With --insecure, a token for a host that is not this
// machine gets a warning on `err`.
absl::StatusOr<ConnectionSetup> PrepareConnection(const GlobalOptions& global,
                                                  const CommandInfo& command,
                                                  std::ostream& err);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_GLOBAL_OPTIONS_H_
