// Parsing `dpq` command lines in tests: ParsedLine runs CommandLine::Parse
// with every command and an environment of our choosing; command<T>() is
// the command parsed (with its request()), or nullptr. ParsedRequest<T> is
// that request straight away.
#ifndef DPQ_TESTS_CLIENT_PARSE_TESTING_H_
#define DPQ_TESTS_CLIENT_PARSE_TESTING_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "client/command_line.h"
#include "client/commands/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {

// An environment lookup over `vars`.
inline EnvLookup TestEnv(std::map<std::string, std::string> vars = {}) {
  return [vars = std::move(vars)](
             const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

class ParsedLine {
 public:
  explicit ParsedLine(const std::vector<std::string>& args,
                      std::map<std::string, std::string> env = {})
      : line_(std::make_unique<CommandLine>(AllCommands())),
        status_(line_->Parse(args, TestEnv(std::move(env)))) {}

  bool ok() const { return status_.ok(); }
  const absl::Status& status() const { return status_; }
  const CommandLine& line() const { return *line_; }
  const GlobalOptions& global() const { return line_->global(); }
  // The parsed command as a T; nullptr if it is another (or none).
  template <typename T>
  const T* command() const {
    return dynamic_cast<const T*>(line_->command());
  }

 private:
  std::unique_ptr<CommandLine> line_;
  absl::Status status_;
};

// The request of the T command `args` parse into; a parse error, or
// another command, fails the test (and gives an empty request).
template <typename T>
auto ParsedRequest(const std::vector<std::string>& args) {
  using Request = std::decay_t<decltype(std::declval<const T&>().request())>;
  ParsedLine p(args);
  EXPECT_TRUE(p.ok()) << p.status();
  const T* command = p.command<T>();
  EXPECT_NE(command, nullptr);
  return command == nullptr ? Request() : command->request();
}

// `args` is a usage error (kInvalidArgument) whose message has `fragment`.
inline void ExpectUsageError(const std::vector<std::string>& args,
                             const std::string& fragment) {
  std::string joined;
  for (const std::string& a : args) joined += "[" + a + "]";
  SCOPED_TRACE(joined);
  EXPECT_THAT(ParsedLine(args).status(),
              ::dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                       ::testing::HasSubstr(fragment)));
}

}  // namespace dpq::client

#endif  // DPQ_TESTS_CLIENT_PARSE_TESTING_H_
