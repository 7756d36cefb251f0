#include "client/command_line.h"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/usage.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

constexpr absl::string_view kAdminPrefix = "admin ";

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool LooksLikeNumber(const std::string& text) {
  double unused;
  return absl::SimpleAtod(text, &unused);
}

// CLI11's message for a parse error it found, in dpq's words where CLI11
// 2.1's wording is known (a flag without its value, a value for a switch,
// a required flag missing); any other message as CLI11 wrote it.
std::string ParseErrorMessage(const CLI::ParseError& error,
                              const Command* selected) {
  std::string message = error.what();
  // "--measure: 1 required TEXT missing"
  if (const size_t colon = message.find(": ");
      colon != std::string::npos && absl::EndsWith(message, " missing") &&
      absl::StrContains(message, " required ")) {
    return absl::StrCat(message.substr(0, colon), " needs a value.");
  }
  // "json was given a disallowed flag override"
  constexpr absl::string_view kOverride =
      " was given a disallowed flag override";
  if (absl::EndsWith(message, kOverride)) {
    return absl::StrCat("--",
                        message.substr(0, message.size() - kOverride.size()),
                        " takes no value.");
  }
  // "--measure is required"
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
      selected != nullptr) {
    return absl::StrCat("dpq ", selected->info().name, ": ", message, ".");
  }
  return message;
}

// `args` with every `--name=` (an empty value) before `--` split into
// `--name` and "": CLI11 2.1 would read `--name=` as `--name` and take the
// next argument as its value, so that `--token="$UNSET" datasets` would send
// the token "datasets" instead of being refused as an empty token.
std::vector<std::string> SplitEmptyValues(
    const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.insert(out.end(), args.begin() + static_cast<ptrdiff_t>(i),
                 args.end());
      break;
    }
    if (absl::StartsWith(arg, "--") && arg.size() > 3 && arg.back() == '=' &&
        arg.find('=') == arg.size() - 1) {
      out.push_back(arg.substr(0, arg.size() - 1));
      out.emplace_back();
      continue;
    }
    out.push_back(arg);
  }
  return out;
}

}  // namespace

CommandLine::CommandLine(std::vector<std::unique_ptr<Command>> commands)
    : commands_(std::move(commands)),
      app_(std::make_unique<CLI::App>("dpq: the client of dpq-server", "dpq")) {
  // --help anywhere: CLI11 stops with CallForHelp; the usage is dpq's own.
  app_->set_help_flag("--help,-h", "this text (or a command's usage)");
  // Unknown flags and arguments are left for CheckExtras, which names them
  // with the command; fallthrough lets the global flags follow the command
  // (subcommands inherit both settings from the main app).
  app_->allow_extras();
  app_->fallthrough();
  // One command: after it, its words are arguments, never commands
  // (`dpq describe datasets` describes the dataset "datasets").
  app_->require_subcommand(0, 1);
  main_flags_ = std::make_unique<CommandFlags>(app_.get(), "");
  global_flags_.Define(*main_flags_);
  help_word_ = app_->add_subcommand("help", "the general usage");
  admin_ = app_->add_subcommand("admin", "the admin commands");
  admin_->require_subcommand(0, 1);
  for (const std::unique_ptr<Command>& command : commands_) {
    const std::string& name = command->info().name;
    CLI::App* parent = app_.get();
    std::string word = name;
    if (absl::StartsWith(name, kAdminPrefix)) {
      parent = admin_;
      word = name.substr(kAdminPrefix.size());
    }
    CLI::App* app = parent->add_subcommand(word, command->info().summary);
    command_flags_.push_back(std::make_unique<CommandFlags>(app, name));
    command_apps_.push_back(app);
    command->DefineFlags(*command_flags_.back());
  }
}

CommandLine::~CommandLine() = default;

void CommandLine::FindSelected() {
  selected_ = nullptr;
  selected_flags_ = nullptr;
  admin_selected_ = admin_->parsed();
  for (size_t i = 0; i < command_apps_.size(); ++i) {
    if (command_apps_[i]->parsed()) {
      selected_ = commands_[i].get();
      selected_flags_ = command_flags_[i].get();
      return;
    }
  }
}

absl::Status CommandLine::Parse(const std::vector<std::string>& args,
                                const EnvLookup& env) {
  // CLI11 takes the arguments last first.
  const std::vector<std::string> split = SplitEmptyValues(args);
  std::vector<std::string> reversed(split.rbegin(), split.rend());
  try {
    app_->parse(reversed);
  } catch (const CLI::CallForHelp&) {
    FindSelected();
    help_ = true;
    return absl::OkStatus();
  } catch (const CLI::ParseError& error) {
    FindSelected();
    // A missing argument first: `dpq measure` lacks its ID before its
    // flags.
    if (selected_flags_ != nullptr) {
      RETURN_IF_ERROR(selected_flags_->CheckArguments());
    }
    return Usage(ParseErrorMessage(error, selected_));
  }
  FindSelected();
  if (help_word_->parsed()) {
    help_ = true;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(CheckExtras());
  if (selected_ == nullptr) {
    if (admin_selected_) return Usage("'dpq admin' needs a subcommand.");
    return Usage("No command given.");
  }
  RETURN_IF_ERROR(main_flags_->Check());
  // `dpq health` sends no token, so a stray DPQ_TOKEN cannot break it.
  ASSIGN_OR_RETURN(global_, global_flags_.Resolve(
                                *main_flags_, env,
                                /*needs_token=*/selected_->info().service !=
                                    Service::kHealth));
  RETURN_IF_ERROR(selected_flags_->Check());
  return selected_->Validate(*selected_flags_);
}

absl::Status CommandLine::CheckExtras() const {
  for (const std::string& extra : app_->remaining()) {
    if (extra == "--") continue;  // the end of the flags, nothing more
    const bool is_flag =
        extra.size() > 1 && extra[0] == '-' && !LooksLikeNumber(extra);
    if (is_flag && !absl::StartsWith(extra, "--")) {
      return Usage(absl::StrCat("Unknown flag '", extra,
                                "' (flags are spelled --name)."));
    }
    if (is_flag) {
      const std::string name = extra.substr(0, extra.find('='));
      if (selected_ != nullptr) {
        return Usage(absl::StrCat("Unknown flag '", name, "' for 'dpq ",
                                  selected_->info().name, "'."));
      }
      return Usage(absl::StrCat("Unknown flag '", name, "'."));
    }
    if (selected_ == nullptr) {
      return Usage(absl::StrCat("Unknown command '",
                                admin_selected_ ? kAdminPrefix : "", extra,
                                "'."));
    }
    const std::string takes = selected_flags_->ArgumentsSynopsis();
    return Usage(absl::StrCat(
        "dpq ", selected_->info().name, " got unexpected argument '", extra,
        "'", takes.empty() ? "." : absl::StrCat(" (it takes ", takes, ").")));
  }
  return absl::OkStatus();
}

std::string CommandLine::HelpText() const {
  // `dpq admin --help` names no single command: the general usage.
  if (selected_ != nullptr) return CommandUsage(selected_->info());
  return GeneralUsage(commands_);
}

std::string CommandLine::usage_hint() const {
  if (selected_ != nullptr) return CommandUsage(selected_->info());
  if (admin_selected_) return AdminUsage(commands_);
  return kGeneralHint;
}

}  // namespace dpq::client
