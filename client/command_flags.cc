#include "client/command_flags.h"

#include <string>
#include <utility>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/utf8.h"
#include "core/util/status_macros.h"

namespace dpq::client {

CommandFlags::CommandFlags(CLI::App* app, std::string command_name)
    : app_(app), command_name_(std::move(command_name)) {}

void CommandFlags::Argument(const std::string& name, std::string* value,
                            bool optional) {
  // Not CLI11-required: CheckArguments names what is missing in dpq's words.
  CLI::Option* option = app_->add_option(name, *value);
  arguments_.push_back({name, value, option, optional});
}

void CommandFlags::Value(const std::string& name, std::string* value,
                         FlagText text, bool required) {
  CLI::Option* option = app_->add_option(name, *value);
  // Keep every occurrence: Check reports a second one.
  option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  if (required) option->required();
  flags_.push_back({name, option, /*repeatable=*/false,
                    /*sent=*/text == FlagText::kSent});
}

void CommandFlags::Repeated(const std::string& name,
                            std::vector<std::string>* values, FlagText text,
                            bool required) {
  CLI::Option* option = app_->add_option(name, *values);
  // One value per occurrence (`--dims A --dims B`), never `--dims A B`.
  option->allow_extra_args(false);
  if (required) option->required();
  flags_.push_back({name, option, /*repeatable=*/true,
                    /*sent=*/text == FlagText::kSent});
}

void CommandFlags::Switch(const std::string& name, bool* value) {
  CLI::Option* option = app_->add_flag(name, *value);
  // `--integral=false` would read as "not given": refused instead.
  option->disable_flag_override();
  flags_.push_back({name, option, /*repeatable=*/false, /*sent=*/false});
}

bool CommandFlags::Given(const std::string& name) const {
  for (const Entry& flag : flags_) {
    if (flag.name == name) return flag.option->count() > 0;
  }
  return false;
}

std::string CommandFlags::ArgumentsSynopsis() const {
  std::vector<std::string> names;
  for (const Positional& arg : arguments_) {
    names.push_back(arg.optional ? absl::StrCat("[", arg.name, "]") : arg.name);
  }
  return absl::StrJoin(names, " ");
}

absl::Status CommandFlags::CheckArguments() const {
  std::vector<std::string> given;
  bool missing = false;
  for (const Positional& arg : arguments_) {
    if (arg.option->count() > 0) {
      given.push_back(*arg.value);
    } else if (!arg.optional) {
      missing = true;
    }
  }
  if (!missing) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "dpq ", command_name_, " expects ", ArgumentsSynopsis(), ", but ",
      given.empty() ? std::string("nothing") : absl::StrJoin(given, " "),
      " was given."));
}

absl::Status CommandFlags::Check() const {
  RETURN_IF_ERROR(CheckArguments());
  for (const Entry& flag : flags_) {
    if (!flag.repeatable && flag.option->count() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag.name, " is given more than once."));
    }
  }
  // A proto string field must hold UTF-8: otherwise the server cannot parse
  // the request and answers with something unrelated.
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].option->count() == 0) continue;
    RETURN_IF_ERROR(CheckUtf8Value(
        absl::StrCat("Argument ", i + 1, " of 'dpq ", command_name_, "'"),
        *arguments_[i].value));
  }
  for (const Entry& flag : flags_) {
    if (!flag.sent) continue;
    for (const std::string& value : flag.option->results()) {
      RETURN_IF_ERROR(CheckUtf8Value(flag.name, value));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::client
