#include "client/usage.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace dpq::client {
namespace {

bool IsAdmin(const CommandInfo& info) {
  return absl::StartsWith(info.name, "admin ");
}

}  // namespace

std::string GeneralUsage(
    const std::vector<std::unique_ptr<Command>>& commands) {
  std::string text =
      "usage: dpq [global flags] <command> [arguments] [flags]\n"
      "\n"
      "Global flags:\n"
      "  --server HOST:PORT   server address (env DPQ_SERVER; default "
      "localhost:50051)\n"
      "  --token T            bearer token (env DPQ_TOKEN)\n"
      "  --token-file F       read the bearer token from F\n"
      "                       (one trailing newline of a token is dropped;\n"
      "                       any other space or control byte is refused)\n"
      "  --ca F               PEM of the CA to trust (default: system roots)\n"
      "  --client-cert F --client-key F   client certificate (mTLS)\n"
      "  --tls-server-name N  expect certificate name N\n"
      "  --insecure           plaintext, no TLS (local demos only)\n"
      "  --json               print one JSON object instead of tables\n"
      "  --timeout SECONDS    deadline of each call (default 30; 600 for "
      "uploads)\n"
      "  --help               this text (or a command's usage)\n"
      "\n"
      "Commands:\n";
  for (const std::unique_ptr<Command>& command : commands) {
    absl::StrAppend(&text, "  dpq ", command->info().synopsis, "\n      ",
                    command->info().summary, "\n");
  }
  absl::StrAppend(&text,
                  "\nExit status: 0 success, 1 server or file error (one line "
                  "'dpq: <CODE>: <message>' on stderr), 2 usage error.\n");
  return text;
}

std::string CommandUsage(const CommandInfo& info) {
  return absl::StrCat("usage: dpq [global flags] ", info.synopsis, "\n  ",
                      info.summary, "\n");
}

std::string AdminUsage(const std::vector<std::unique_ptr<Command>>& commands) {
  std::string text = "usage: dpq [global flags] admin <subcommand> ...\n";
  for (const std::unique_ptr<Command>& command : commands) {
    if (IsAdmin(command->info())) {
      absl::StrAppend(&text, "  dpq ", command->info().synopsis, "\n");
    }
  }
  return text;
}

}  // namespace dpq::client
