// The server's diagnostic lines on stderr, one writer for all of them:
// "dpq-server: <text>", "dpq-server: warning: <text>" or
// "dpq-server: error: <text>", each one write of a whole line so that lines
// of concurrent threads never interleave. The request log
// (server/request_log.h) is separate: its lines are a format of their own.
//
// Why not a logging library: Abseil's logging (absl/log) first shipped in
// Abseil 20230125, and Debian 12 has 20220623; the other Debian option,
// glog, would add a runtime library and its own line format. This file is
// the one place to switch when the base image moves on.
#ifndef DPQ_CORE_UTIL_DIAGNOSTIC_LOG_H_
#define DPQ_CORE_UTIL_DIAGNOSTIC_LOG_H_

#include "absl/strings/string_view.h"

namespace dpq::core::util {

enum class LogSeverity { kInfo, kWarning, kError };

// Writes one line; `text` has no trailing newline.
void LogLine(LogSeverity severity, absl::string_view text);

inline void LogInfo(absl::string_view text) {
  LogLine(LogSeverity::kInfo, text);
}
inline void LogWarning(absl::string_view text) {
  LogLine(LogSeverity::kWarning, text);
}
inline void LogError(absl::string_view text) {
  LogLine(LogSeverity::kError, text);
}

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_DIAGNOSTIC_LOG_H_
