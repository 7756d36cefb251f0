// The arguments and flags of one command, declared on its CLI11
// subcommand. CLI11 does the parsing (`--flag value`, `--flag=value`,
// repeated flags, `--`); the values stay text, converted by each command's
// Validate (client/flag_values.h), so that every usage error names the flag
// and the value the way dpq always has. What this class adds to CLI11 is
// the checks every command shares (Check):
//   - a missing or extra argument, named with the command's synopsis;
//   - a flag that may be given once given twice;
//   - text sent in a proto `string` field that is not UTF-8.
#ifndef DPQ_CLIENT_COMMAND_FLAGS_H_
#define DPQ_CLIENT_COMMAND_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace dpq::client {

// What a flag's value is. kSent: text that goes into a proto `string` field,
// so it must be UTF-8. kLocal: a local file path (any bytes), or a number
// or name that dpq parses itself.
enum class FlagText { kSent, kLocal };

class CommandFlags {
 public:
  // `app`: the command's CLI11 subcommand; `command_name`: "measure",
  // "admin register", for messages.
  CommandFlags(CLI::App* app, std::string command_name);

  // A positional argument, named e.g. "ID" in messages. Arguments are sent
  // in proto string fields (or parsed as numbers): they must be UTF-8.
  void Argument(const std::string& name, std::string* value,
                bool optional = false);
  // --name VALUE, at most once. `required`: CLI11 refuses the command line
  // without it.
  void Value(const std::string& name, std::string* value, FlagText text,
             bool required = false);
  // --name VALUE, any number of times, in order (`required`: at least
  // once).
  void Repeated(const std::string& name, std::vector<std::string>* values,
                FlagText text, bool required = false);
  // --name (no value), at most once.
  void Switch(const std::string& name, bool* value);

  // Whether --name was given (also with an empty value).
  bool Given(const std::string& name) const;

  // After parsing: the shared checks (see the file comment), in the order
  // missing argument, flag given twice, text not UTF-8.
  absl::Status Check() const;

  // The missing-argument check alone (asked first when CLI11 refused the
  // command line, so that a missing argument is what is reported).
  absl::Status CheckArguments() const;

  // "ID", "BUYER ID EPS", "[ID]": the arguments the command takes ("" if
  // none).
  std::string ArgumentsSynopsis() const;

 private:
  struct Entry {
    std::string name;
    CLI::Option* option;
    bool repeatable;
    bool sent;  // text sent in a proto string field
  };
  struct Positional {
    std::string name;
    std::string* value;
    CLI::Option* option;
    bool optional;
  };
  CLI::App* app_;
  std::string command_name_;
  std::vector<Entry> flags_;
  std::vector<Positional> arguments_;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMAND_FLAGS_H_
