// A `dpq` command line, parsed with CLI11: the global flags on the main
// app, one CLI11 subcommand per command (`admin` groups the admin ones),
// --help/-h and the word `help`. Global flags may come before or after the
// command; `--flag value` and `--flag=value` both work; `--` ends the
// flags. What CLI11 cannot know is added here in dpq's words: unknown flags
// and commands, missing or extra arguments, flags given twice, the
// environment ($DPQ_SERVER, $DPQ_TOKEN) and each command's own checks. A
// parse error is a usage error (`dpq` exits 2); nothing here touches the
// network or reads files.
#ifndef DPQ_CLIENT_COMMAND_LINE_H_
#define DPQ_CLIENT_COMMAND_LINE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/command.h"
#include "client/command_flags.h"
#include "client/global_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace dpq::client {

class CommandLine {
 public:
  // `commands`: every command (client/commands/registry.h), in usage order.
  explicit CommandLine(std::vector<std::unique_ptr<Command>> commands);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Parses `args` (without the program name); call once. OK: either help()
  // or command() is set, its values checked by its Validate. Otherwise
  // kInvalidArgument with a message naming the offending flag, argument or
  // value, and usage_hint() says what to print after it.
  absl::Status Parse(const std::vector<std::string>& args,
                     const EnvLookup& env);

  // --help, -h or `dpq help`: print HelpText(), run nothing.
  bool help() const { return help_; }
  // The usage of the command asked about, else the general usage.
  std::string HelpText() const;
  // The command to run; nullptr before a successful Parse and for help.
  Command* command() const { return help_ ? nullptr : selected_; }
  // The global options, resolved (after a successful Parse).
  const GlobalOptions& global() const { return global_; }
  // After a failed Parse: the usage of the command recognised so far, the
  // admin commands' synopses, or "Run 'dpq --help' for usage.".
  std::string usage_hint() const;

 private:
  // Finds the command CLI11 selected (sets selected_, selected_flags_,
  // admin_selected_).
  void FindSelected();
  // The first argument CLI11 could not place, as a usage error.
  absl::Status CheckExtras() const;

  std::vector<std::unique_ptr<Command>> commands_;
  std::unique_ptr<CLI::App> app_;
  CLI::App* admin_ = nullptr;
  CLI::App* help_word_ = nullptr;
  // One per command, in the order of commands_, and the main app's.
  std::vector<std::unique_ptr<CommandFlags>> command_flags_;
  std::vector<CLI::App*> command_apps_;
  std::unique_ptr<CommandFlags> main_flags_;
  GlobalFlags global_flags_;

  GlobalOptions global_;
  bool help_ = false;
  bool admin_selected_ = false;
  Command* selected_ = nullptr;
  const CommandFlags* selected_flags_ = nullptr;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMAND_LINE_H_
