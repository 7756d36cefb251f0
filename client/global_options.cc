#include "client/global_options.h"

#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/file_chunker.h"
#include "client/flag_values.h"
#include "client/terminal_text.h"
#include "client/tls_files.h"
#include "client/token.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

std::optional<std::string> NonEmptyEnv(const EnvLookup& env,
                                       const std::string& name) {
  if (!env) return std::nullopt;
  std::optional<std::string> value = env(name);
  if (value.has_value() && value->empty()) return std::nullopt;
  return value;
}

// The token from --token-file: the whole file, one trailing newline dropped
// (see CleanToken).
absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text,
                   ReadSmallFile(path, "--token-file", /*max_bytes=*/4096));
  return CleanToken(text, absl::StrCat("--token-file '", path, "'"));
}

}  // namespace

void GlobalFlags::Define(CommandFlags& flags) {
  flags.Value("--server", &server_, FlagText::kLocal);
  flags.Value("--token", &token_, FlagText::kLocal);
  flags.Value("--token-file", &token_file_, FlagText::kLocal);
  flags.Value("--ca", &ca_file_, FlagText::kLocal);
  flags.Value("--client-cert", &client_cert_file_, FlagText::kLocal);
  flags.Value("--client-key", &client_key_file_, FlagText::kLocal);
  flags.Value("--tls-server-name", &tls_server_name_, FlagText::kLocal);
  flags.Switch("--insecure", &insecure_);
  flags.Switch("--json", &json_);
  flags.Value("--timeout", &timeout_, FlagText::kLocal);
}

absl::StatusOr<GlobalOptions> GlobalFlags::Resolve(const CommandFlags& flags,
                                                   const EnvLookup& env,
                                                   bool needs_token) const {
  GlobalOptions g;
  if (flags.Given("--server")) {
    g.server = server_;
  } else if (std::optional<std::string> s = NonEmptyEnv(env, "DPQ_SERVER")) {
    g.server = *s;
  }
  if (g.server.empty()) return Usage("--server must not be empty.");
  if (flags.Given("--token") && flags.Given("--token-file")) {
    return Usage("Give either --token or --token-file, not both.");
  }
  if (flags.Given("--token")) {
    if (token_.empty()) return Usage("--token must not be empty.");
    if (needs_token) {
      ASSIGN_OR_RETURN(g.token, CleanToken(token_, "--token"));
    }
  } else if (flags.Given("--token-file")) {
    if (token_file_.empty()) return Usage("--token-file must not be empty.");
    g.token_file = token_file_;
  } else if (std::optional<std::string> t = NonEmptyEnv(env, "DPQ_TOKEN");
             needs_token && t.has_value()) {
    ASSIGN_OR_RETURN(g.token, CleanToken(*t, "DPQ_TOKEN"));
  }
  g.ca_file = ca_file_;
  g.client_cert_file = client_cert_file_;
  g.client_key_file = client_key_file_;
  g.tls_server_name = tls_server_name_;
  g.insecure = insecure_;
  g.json = json_;
  if (g.client_cert_file.empty() != g.client_key_file.empty()) {
    return Usage("--client-cert and --client-key go together: give both.");
  }
  if (g.insecure) {
    for (const char* tls_flag :
         {"--ca", "--client-cert", "--client-key", "--tls-server-name"}) {
      if (flags.Given(tls_flag)) {
        return Usage(
            absl::StrCat(tls_flag, " cannot be combined with --insecure."));
      }
    }
  }
  if (flags.Given("--timeout")) {
    ASSIGN_OR_RETURN(const double seconds, ParseNumber("--timeout", timeout_));
    if (seconds <= 0) {
      return Usage(
          absl::StrCat("--timeout must be positive, but is ", timeout_, "."));
    }
    g.timeout = absl::Seconds(seconds);
  }
  return g;
}

absl::StatusOr<ConnectionSetup> PrepareConnection(const GlobalOptions& g,
                                                  const CommandInfo& command,
                                                  std::ostream& err) {
  ConnectionSetup setup;
  ConnectionOptions& c = setup.connection;
  c.target = NormalizeTarget(g.server);
  c.insecure = g.insecure;
  c.tls_server_name = g.tls_server_name;
  if (command.service != Service::kHealth) {  // health never sends a token
    if (!g.token_file.empty()) {
      ASSIGN_OR_RETURN(c.token, ReadTokenFile(g.token_file));
    } else {
      c.token = g.token;
    }
  }
  if (!g.ca_file.empty()) {
    ASSIGN_OR_RETURN(c.root_certs_pem, ReadCaFile(g.ca_file));
  }
  if (!g.client_cert_file.empty()) {
    ASSIGN_OR_RETURN(
        const ClientCertificate cert,
        ReadClientCertificate(g.client_cert_file, g.client_key_file));
    c.client_cert_pem = cert.chain_pem;
    c.client_key_pem = cert.key_pem;
  }
  setup.call.timeout =
      g.timeout.value_or(absl::Seconds(command.default_timeout_seconds));
  if (c.insecure) {
    setup.call.plaintext_token = c.token;
    if (!c.token.empty() && !IsLoopbackTarget(c.target)) {
      err << "dpq: warning: sending the bearer token in plaintext to "
          << TerminalSafe(c.target)
          << " (--insecure); anyone on the path can read it.\n";
    }
  }
  return setup;
}

}  // namespace dpq::client
