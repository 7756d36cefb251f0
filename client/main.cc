// dpq: the client CLI (see client/cli.h).
#include <iostream>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/connection.h"

int main(int argc, char** argv) {
  dpq::client::QuietLibraryLogs();
  std::vector<std::string> args(argv + 1, argv + argc);
  return dpq::client::RunCli(args, dpq::client::DefaultCliEnv(), std::cout,
                             std::cerr);
}
