#include "core/util/diagnostic_log.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"

namespace dpq::core::util {
namespace {

absl::string_view PrefixOf(LogSeverity severity) {
  switch (severity) {
    case LogSeverity::kInfo:
      return "dpq-server: ";
    case LogSeverity::kWarning:
      return "dpq-server: warning: ";
    case LogSeverity::kError:
      return "dpq-server: error: ";
  }
  return "dpq-server: ";
}

}  // namespace

void LogLine(LogSeverity severity, absl::string_view text) {
  // One fwrite of the whole line: stdio locks the stream per call.
  const std::string line = absl::StrCat(PrefixOf(severity), text, "\n");
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace dpq::core::util
