// The usage texts of `dpq`: `dpq --help` (every command), `dpq CMD --help`
// (one command) and the hint after a usage error in `dpq admin`. They are
// built from each command's CommandInfo (synopsis and summary), in the
// order of client/commands/registry.
#ifndef DPQ_CLIENT_USAGE_H_
#define DPQ_CLIENT_USAGE_H_

#include <memory>
#include <string>
#include <vector>

#include "client/command.h"

namespace dpq::client {

// The full usage text: global flags, every command, the exit statuses.
std::string GeneralUsage(const std::vector<std::unique_ptr<Command>>& commands);

// "usage: dpq [global flags] SYNOPSIS\n  SUMMARY\n".
std::string CommandUsage(const CommandInfo& info);

// The synopses of the `dpq admin` commands.
std::string AdminUsage(const std::vector<std::unique_ptr<Command>>& commands);

// The hint after a usage error with no command recognised.
inline constexpr char kGeneralHint[] = "Run 'dpq --help' for usage.\n";

}  // namespace dpq::client

#endif  // DPQ_CLIENT_USAGE_H_
