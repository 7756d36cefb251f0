// dpq-r2t: flags -> options -> RunR2tTool. Exit 0 on success, 2 for usage
// errors, 1 otherwise.
#include <iostream>
#include <string>
#include <vector>

#include "bench/r2t/r2t_tool.h"

int main(int argc, char** argv) {
  using dpq::bench::r2t::R2tToolUsage;
  const std::vector<std::string> args(argv, argv + argc);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << R2tToolUsage();
      return 0;
    }
  }
  auto options = dpq::bench::r2t::ParseR2tToolArgs(args);
  if (!options.ok()) {
    std::cerr << "dpq-r2t: " << options.status().message() << "\n"
              << R2tToolUsage();
    return 2;
  }
  if (absl::Status s = dpq::bench::r2t::RunR2tTool(*options, std::cout);
      !s.ok()) {
    std::cerr << "dpq-r2t: " << s.message() << "\n";
    return 1;
  }
  return 0;
}
