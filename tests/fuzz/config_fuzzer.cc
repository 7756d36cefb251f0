// Fuzz target: dpq-server's --config file (server/config.h). Invariants:
// a refused text is kInvalidArgument whose message starts with the file's
// name; an accepted one is accepted again on top of its own result, and
// each of its settings alone on the defaults. The same lines as command
// line flags (`--key=value`) are parsed too, never with --config (which
// would read a file).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "server/config.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

constexpr absl::string_view kSource = "fuzz.conf";

void CheckText(absl::string_view text) {
  server::Options options;
  const absl::Status status = server::ApplyConfigText(text, kSource, &options);
  if (!status.ok()) {
    CheckError(status);
    FUZZ_CHECK(status.code() == absl::StatusCode::kInvalidArgument);
    FUZZ_CHECK_MSG(absl::StartsWith(status.message(), kSource),
                   status.ToString());
    return;
  }
  FUZZ_CHECK(server::ApplyConfigText(text, kSource, &options).ok());
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = line.substr(0, line.find('#'));
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    const size_t equals = line.find('=');
    FUZZ_CHECK(equals != absl::string_view::npos);
    server::Options fresh;
    const absl::Status one = server::ApplySetting(
        absl::StripAsciiWhitespace(line.substr(0, equals)),
        absl::StripAsciiWhitespace(line.substr(equals + 1)), &fresh);
    FUZZ_CHECK_MSG(one.ok(), one.ToString());
  }
}

void CheckCommandLine(absl::string_view text) {
  std::vector<std::string> args = {"dpq-server"};
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StrContains(line, "config") || args.size() > 64) return;
    args.emplace_back(line);
  }
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  argv.push_back(nullptr);
  absl::StatusOr<server::CommandLine> parsed =
      server::ParseCommandLine(static_cast<int>(args.size()), argv.data());
  if (!parsed.ok()) {
    CheckError(parsed.status());
    FUZZ_CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace

int FuzzConfig(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  CheckText(text);
  CheckCommandLine(text);
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzConfig)
