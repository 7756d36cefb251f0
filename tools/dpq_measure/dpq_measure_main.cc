// dpq-measure: flags -> options -> RunMeasureTool -> one JSON line.
// Exit status: 0 on success, 2 for usage errors, 1 for any other error.
#include <iostream>
#include <string>
#include <vector>

#include "core/util/memory_reuse.h"
#include "tools/dpq_measure/measure_tool.h"

int main(int argc, char** argv) {
  dpq::core::util::KeepFreedMemoryForReuse();
  using dpq::server::tools::MeasureToolUsage;
  const std::vector<std::string> args(argv, argv + argc);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << MeasureToolUsage();
      return 0;
    }
  }
  auto options = dpq::server::tools::ParseMeasureToolArgs(args);
  if (!options.ok()) {
    std::cerr << "dpq-measure: " << options.status().message() << "\n"
              << MeasureToolUsage();
    return 2;
  }
  std::vector<std::string> warnings;
  auto json = dpq::server::tools::RunMeasureTool(*options, &warnings);
  for (const std::string& w : warnings)
    std::cerr << "dpq-measure: warning: " << w << "\n";
  if (!json.ok()) {
    std::cerr << "dpq-measure: " << json.status().message() << "\n";
    return 1;
  }
  std::cout << *json << std::endl;
  return 0;
}
