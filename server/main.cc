// dpq-server: flags -> Options -> Server::BuildAndStart -> wait for SIGTERM
// or SIGINT -> drain -> exit 0.
#include <signal.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/config.h"
#include "server/server.h"

int main(int argc, char** argv) {
  absl::StatusOr<dpq::server::CommandLine> command_line =
      dpq::server::ParseCommandLine(argc, argv);
  if (!command_line.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n",
                 std::string(command_line.status().message()).c_str());
    return 2;
  }
  if (command_line->help) {
    std::fputs(dpq::server::Usage().c_str(), stdout);
    return 0;
  }
  const dpq::server::Options& options = command_line->options;
  if (absl::Status valid = dpq::server::ValidateOptions(options); !valid.ok()) {
    std::fprintf(stderr, "dpq-server: %s See dpq-server --help.\n",
                 std::string(valid.message()).c_str());
    return 2;
  }

  // Block the stop signals in every thread (gRPC's threads inherit the
  // mask), then wait for them synchronously below: no async handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  absl::StatusOr<std::unique_ptr<dpq::server::Server>> server =
      dpq::server::Server::BuildAndStart(options);
  if (!server.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n", server.status().ToString().c_str());
    return 1;
  }
  if ((*server)->created_admin_token()) {
    std::fprintf(stderr, "dpq-server: created admin token in %s\n",
                 (*server)->admin_token_path().c_str());
  }
  std::fprintf(stderr, "dpq-server listening on %s\n",
               (*server)->address().c_str());
  std::fflush(stderr);

  int signal_number = 0;
  while (sigwait(&stop_signals, &signal_number) != 0) {
  }
  std::fprintf(stderr, "dpq-server: %s received, draining for up to %llds\n",
               signal_number == SIGTERM ? "SIGTERM" : "SIGINT",
               static_cast<long long>(options.drain_seconds));
  (*server)->Shutdown(absl::Now() + absl::Seconds(options.drain_seconds));
  (*server)->Wait();
  server->reset();
  std::fprintf(stderr, "dpq-server: stopped\n");
  return 0;
}
