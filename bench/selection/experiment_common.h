// Small helpers shared by the selection experiment runners: flags, mean
// and standard error, CSV output. Experiments only.
#ifndef DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_COMMON_H_
#define DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_COMMON_H_

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace dpq::bench {

// --name=value or --name value from argv, else `fallback`.
inline std::string Flag(int argc, char** argv, const std::string& name,
                        const std::string& fallback) {
  const std::string prefix = "--" + name;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == prefix && i + 1 < argc) return argv[i + 1];
    if (arg.rfind(prefix + "=", 0) == 0) return arg.substr(prefix.size() + 1);
  }
  return fallback;
}

inline std::vector<std::string> ListFlag(int argc, char** argv,
                                         const std::string& name,
                                         const std::string& fallback) {
  return absl::StrSplit(Flag(argc, argv, name, fallback), ',',
                        absl::SkipEmpty());
}

inline std::vector<double> DoubleListFlag(int argc, char** argv,
                                          const std::string& name,
                                          const std::string& fallback) {
  std::vector<double> out;
  for (const std::string& s : ListFlag(argc, argv, name, fallback)) {
    out.push_back(std::strtod(s.c_str(), nullptr));
  }
  return out;
}

struct MeanAndError {
  double mean = 0;
  double stderr_of_mean = 0;
};

inline MeanAndError Summarize(const std::vector<double>& values) {
  MeanAndError m;
  if (values.empty()) return m;
  for (double v : values) m.mean += v;
  m.mean /= values.size();
  if (values.size() > 1) {
    double ss = 0;
    for (double v : values) ss += (v - m.mean) * (v - m.mean);
    m.stderr_of_mean = std::sqrt(ss / (values.size() - 1) / values.size());
  }
  return m;
}

// Appends one line to `path` (creating it with `header` first).
inline void AppendCsv(const std::string& path, const std::string& header,
                      const std::string& line) {
  FILE* probe = std::fopen(path.c_str(), "r");
  const bool exists = probe != nullptr;
  if (probe) std::fclose(probe);
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return;
  if (!exists) std::fprintf(f, "%s\n", header.c_str());
  std::fprintf(f, "%s\n", line.c_str());
  std::fclose(f);
}

}  // namespace dpq::bench

#endif  // DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_COMMON_H_
