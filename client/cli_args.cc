#include "client/cli_args.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/request_id.h"
#include "core/util/status_macros.h"

namespace dpq::client {
namespace {

struct FlagSpec {
  const char* name;  // with the leading "--"
  bool takes_value;
  bool repeatable;
};

struct CommandSpec {
  Command command;
  bool admin;        // under `dpq admin`
  const char* name;  // e.g. "register"
  int min_args;
  int max_args;
  const char* args;  // e.g. "ID"
  std::vector<FlagSpec> flags;
  const char* synopsis;  // after "dpq "
  const char* summary;
};

const std::vector<FlagSpec>& GlobalFlags() {
  static const auto* const kFlags = new std::vector<FlagSpec>{
      {"--server", true, false},          {"--token", true, false},
      {"--token-file", true, false},      {"--ca", true, false},
      {"--client-cert", true, false},     {"--client-key", true, false},
      {"--tls-server-name", true, false}, {"--insecure", false, false},
      {"--json", false, false},           {"--timeout", true, false},
      {"--help", false, false},
  };
  return *kFlags;
}

std::vector<FlagSpec> UploadFlags() {
  return {{"--data", true, false},
          {"--server-path", true, false},
          {"--constraints", true, false},
          {"--schema", true, false},
          {"--public-max-rows", true, false},
          {"--description", true, false},
          {"--row-count-public", false, false},
          {"--null-value", true, true}};
}

const std::vector<CommandSpec>& Commands() {
  static const auto* const kCommands = new std::vector<CommandSpec>{
      {Command::kHealth,
       false,
       "health",
       0,
       0,
       "",
       {},
       "health",
       "Checks the server's gRPC health (exit 0 iff SERVING; no token)."},
      {Command::kDatasets,
       false,
       "datasets",
       0,
       0,
       "",
       {},
       "datasets",
       "Lists the datasets (public metadata)."},
      {Command::kDescribe,
       false,
       "describe",
       1,
       1,
       "ID",
       {},
       "describe ID",
       "Shows a dataset's schema, constraints and public metadata."},
      {Command::kBudget,
       false,
       "budget",
       0,
       1,
       "[ID]",
       {{"--history", false, false}, {"--limit", true, false}},
       "budget [ID] [--history] [--limit N]",
       "Shows your budgets (and, with --history, your ledger)."},
      {Command::kMeasure,
       false,
       "measure",
       1,
       1,
       "ID",
       {{"--measure", true, false},
        {"--epsilon", true, false},
        {"--method", true, false},
        {"--request-id", true, false}},
       "measure ID --measure mi|p|r --epsilon E "
       "[--method optimized|hierarchical|basic|baseline] [--request-id R]",
       "Releases one DP inconsistency measure; charges E."},
      {Command::kReport,
       false,
       "report",
       1,
       1,
       "ID",
       {{"--epsilon", true, false},
        {"--method", true, false},
        {"--request-id", true, false}},
       "report ID --epsilon E [--method M] [--request-id R]",
       "Releases I_MI, I_P and I_R for one charge of E (E/3 each)."},
      {Command::kAdminRegister, true, "register", 1, 1, "ID", UploadFlags(),
       "admin register ID --data F.csv --constraints F.dc "
       "--public-max-rows N [--description TEXT] [--row-count-public] "
       "[--schema F] [--null-value V]... [--server-path P]",
       "Uploads a new dataset (or has the server read --server-path)."},
      {Command::kAdminReplace, true, "replace", 1, 1, "ID", UploadFlags(),
       "admin replace ID --data F.csv --constraints F.dc "
       "--public-max-rows N [same flags as register]",
       "Replaces a dataset's rows and manifest; its ledger is kept."},
      {Command::kAdminDelete,
       true,
       "delete",
       1,
       1,
       "ID",
       {},
       "admin delete ID",
       "Deletes a dataset; its ledger is kept."},
      {Command::kAdminDatasets,
       true,
       "datasets",
       0,
       0,
       "",
       {},
       "admin datasets",
       "Lists datasets with their true sizes."},
      {Command::kAdminCreateBuyer,
       true,
       "create-buyer",
       1,
       1,
       "NAME",
       {},
       "admin create-buyer NAME",
       "Creates a buyer and prints its token (shown only once)."},
      {Command::kAdminRevokeBuyer,
       true,
       "revoke-buyer",
       1,
       1,
       "NAME",
       {},
       "admin revoke-buyer NAME",
       "Revokes a buyer's token."},
      {Command::kAdminBuyers,
       true,
       "buyers",
       0,
       0,
       "",
       {},
       "admin buyers",
       "Lists buyers."},
      {Command::kAdminGrant,
       true,
       "grant",
       3,
       3,
       "BUYER ID EPS",
       {},
       "admin grant BUYER ID EPS",
       "Adds EPS to BUYER's budget on dataset ID."},
      {Command::kAdminSetBudget,
       true,
       "set-budget",
       3,
       3,
       "BUYER ID EPS",
       {},
       "admin set-budget BUYER ID EPS",
       "Sets BUYER's granted total on dataset ID to EPS."},
      {Command::kAdminSetCap,
       true,
       "set-cap",
       2,
       2,
       "ID EPS",
       {},
       "admin set-cap ID EPS",
       "Caps the epsilon of all buyers together on ID (0: no cap)."},
      {Command::kAdminLedger,
       true,
       "ledger",
       0,
       0,
       "",
       {{"--buyer", true, false},
        {"--dataset", true, false},
        {"--limit", true, false}},
       "admin ledger [--buyer B] [--dataset ID] [--limit N]",
       "Shows ledger entries (newest first) and budgets."},
      {Command::kAdminAudit,
       true,
       "audit",
       0,
       0,
       "",
       {{"--limit", true, false}},
       "admin audit [--limit N]",
       "Shows the audit log of admin actions (newest first)."},
  };
  return *kCommands;
}

const CommandSpec* FindCommand(bool admin, const std::string& name) {
  for (const CommandSpec& spec : Commands()) {
    if (spec.admin == admin && name == spec.name) return &spec;
  }
  return nullptr;
}

const CommandSpec* SpecOf(Command command) {
  for (const CommandSpec& spec : Commands()) {
    if (spec.command == command) return &spec;
  }
  return nullptr;
}

const FlagSpec* FindFlag(const std::vector<FlagSpec>& flags,
                         const std::string& name) {
  for (const FlagSpec& flag : flags) {
    if (name == flag.name) return &flag;
  }
  return nullptr;
}

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool LooksLikeNumber(const std::string& text) {
  double unused;
  return absl::SimpleAtod(text, &unused);
}

// A finite decimal number.
absl::StatusOr<double> ParseNumber(absl::string_view what,
                                   const std::string& text) {
  double value;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value)) {
    return Usage(
        absl::StrCat(what, " expects a finite number, got '", text, "'."));
  }
  return value;
}

absl::StatusOr<uint64_t> ParseUint64(absl::string_view what,
                                     const std::string& text) {
  uint64_t value;
  if (text.empty() || text[0] == '+' || !absl::SimpleAtoi(text, &value)) {
    return Usage(absl::StrCat(what, " expects a non-negative integer, got '",
                              text, "'."));
  }
  return value;
}

absl::StatusOr<uint32_t> ParseUint32(absl::string_view what,
                                     const std::string& text) {
  ASSIGN_OR_RETURN(const uint64_t value, ParseUint64(what, text));
  if (value > UINT32_MAX) {
    return Usage(absl::StrCat(what, " must be at most ", UINT32_MAX,
                              ", but is ", text, "."));
  }
  return static_cast<uint32_t>(value);
}

// The values given to a command's flags (last wins is never needed: a
// non-repeatable flag given twice is an error).
struct FlagValues {
  absl::flat_hash_map<std::string, std::vector<std::string>> values;
  bool Has(const std::string& name) const { return values.contains(name); }
  const std::string& Get(const std::string& name) const {
    return values.at(name).front();
  }
};

absl::Status RequireFlag(const FlagValues& flags, const std::string& name,
                         const CommandSpec& spec) {
  if (!flags.Has(name)) {
    return Usage(absl::StrCat("dpq ", CommandName(spec.command), ": ", name,
                              " is required."));
  }
  return absl::OkStatus();
}

absl::Status ApplyGlobalFlags(const FlagValues& flags, const EnvLookup& env,
                              GlobalOptions* g) {
  if (flags.Has("--server")) {
    g->server = flags.Get("--server");
  } else if (std::optional<std::string> s =
                 env ? env("DPQ_SERVER") : std::nullopt;
             s.has_value() && !s->empty()) {
    g->server = *s;
  }
  if (g->server.empty()) return Usage("--server must not be empty.");
  if (flags.Has("--token") && flags.Has("--token-file")) {
    return Usage("Give either --token or --token-file, not both.");
  }
  if (flags.Has("--token")) {
    g->token = flags.Get("--token");
    if (g->token.empty()) return Usage("--token must not be empty.");
  } else if (flags.Has("--token-file")) {
    g->token_file = flags.Get("--token-file");
    if (g->token_file.empty()) {
      return Usage("--token-file must not be empty.");
    }
  } else if (std::optional<std::string> t =
                 env ? env("DPQ_TOKEN") : std::nullopt;
             t.has_value()) {
    g->token = *t;
  }
  if (flags.Has("--ca")) g->ca_file = flags.Get("--ca");
  if (flags.Has("--client-cert"))
    g->client_cert_file = flags.Get("--client-cert");
  if (flags.Has("--client-key")) g->client_key_file = flags.Get("--client-key");
  if (flags.Has("--tls-server-name")) {
    g->tls_server_name = flags.Get("--tls-server-name");
  }
  g->insecure = flags.Has("--insecure");
  g->json = flags.Has("--json");
  if (g->client_cert_file.empty() != g->client_key_file.empty()) {
    return Usage("--client-cert and --client-key go together: give both.");
  }
  if (g->insecure) {
    for (const char* tls_flag :
         {"--ca", "--client-cert", "--client-key", "--tls-server-name"}) {
      if (flags.Has(tls_flag)) {
        return Usage(
            absl::StrCat(tls_flag, " cannot be combined with --insecure."));
      }
    }
  }
  if (flags.Has("--timeout")) {
    ASSIGN_OR_RETURN(const double seconds,
                     ParseNumber("--timeout", flags.Get("--timeout")));
    if (seconds <= 0) {
      return Usage(absl::StrCat("--timeout must be positive, but is ",
                                flags.Get("--timeout"), "."));
    }
    g->timeout = absl::Seconds(seconds);
  }
  return absl::OkStatus();
}

absl::Status ApplyRequestId(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--request-id")) return absl::OkStatus();
  inv->request_id = flags.Get("--request-id");
  return ValidateRequestId(inv->request_id);
}

absl::Status ApplyMethod(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--method")) return absl::OkStatus();
  ASSIGN_OR_RETURN(inv->method, ParseMethodName(flags.Get("--method")));
  return absl::OkStatus();
}

absl::Status ApplyLimit(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--limit")) return absl::OkStatus();
  ASSIGN_OR_RETURN(inv->limit, ParseUint32("--limit", flags.Get("--limit")));
  return absl::OkStatus();
}

absl::Status ApplyUpload(const FlagValues& flags, const CommandSpec& spec,
                         UploadArgs* up) {
  RETURN_IF_ERROR(RequireFlag(flags, "--constraints", spec));
  RETURN_IF_ERROR(RequireFlag(flags, "--public-max-rows", spec));
  if (flags.Has("--data") && flags.Has("--server-path")) {
    return Usage(
        "Give either --data (upload) or --server-path (the server "
        "reads the file), not both.");
  }
  if (!flags.Has("--data") && !flags.Has("--server-path")) {
    return Usage(absl::StrCat("dpq ", CommandName(spec.command),
                              ": --data is required (or --server-path)."));
  }
  if (flags.Has("--data")) {
    up->data_path = flags.Get("--data");
    if (up->data_path.empty()) return Usage("--data must not be empty.");
  }
  if (flags.Has("--server-path")) {
    up->server_path = flags.Get("--server-path");
    if (up->server_path.empty()) {
      return Usage("--server-path must not be empty.");
    }
  }
  up->constraints_path = flags.Get("--constraints");
  if (up->constraints_path.empty()) {
    return Usage("--constraints must not be empty.");
  }
  if (flags.Has("--schema")) up->schema_path = flags.Get("--schema");
  ASSIGN_OR_RETURN(
      up->public_max_rows,
      ParseUint64("--public-max-rows", flags.Get("--public-max-rows")));
  if (flags.Has("--description")) up->description = flags.Get("--description");
  up->row_count_public = flags.Has("--row-count-public");
  if (flags.Has("--null-value"))
    up->null_values = flags.values.at("--null-value");
  return absl::OkStatus();
}

// Fills the command-specific fields of `inv` from the arguments and flags.
absl::Status ApplyCommand(const CommandSpec& spec,
                          const std::vector<std::string>& args,
                          const FlagValues& flags, Invocation* inv) {
  switch (spec.command) {
    case Command::kNone:
    case Command::kHealth:
    case Command::kDatasets:
    case Command::kAdminDatasets:
    case Command::kAdminBuyers:
      return absl::OkStatus();
    case Command::kDescribe:
    case Command::kAdminDelete:
      inv->dataset_id = args[0];
      return absl::OkStatus();
    case Command::kBudget:
      if (!args.empty()) inv->dataset_id = args[0];
      inv->history = flags.Has("--history");
      return ApplyLimit(flags, inv);
    case Command::kMeasure: {
      inv->dataset_id = args[0];
      RETURN_IF_ERROR(RequireFlag(flags, "--measure", spec));
      RETURN_IF_ERROR(RequireFlag(flags, "--epsilon", spec));
      ASSIGN_OR_RETURN(inv->measure, ParseMeasureName(flags.Get("--measure")));
      ASSIGN_OR_RETURN(inv->epsilon,
                       ParseNumber("--epsilon", flags.Get("--epsilon")));
      RETURN_IF_ERROR(ApplyMethod(flags, inv));
      return ApplyRequestId(flags, inv);
    }
    case Command::kReport: {
      inv->dataset_id = args[0];
      RETURN_IF_ERROR(RequireFlag(flags, "--epsilon", spec));
      ASSIGN_OR_RETURN(inv->epsilon,
                       ParseNumber("--epsilon", flags.Get("--epsilon")));
      RETURN_IF_ERROR(ApplyMethod(flags, inv));
      return ApplyRequestId(flags, inv);
    }
    case Command::kAdminRegister:
    case Command::kAdminReplace:
      inv->dataset_id = args[0];
      return ApplyUpload(flags, spec, &inv->upload);
    case Command::kAdminCreateBuyer:
    case Command::kAdminRevokeBuyer:
      inv->buyer_id = args[0];
      return absl::OkStatus();
    case Command::kAdminGrant:
    case Command::kAdminSetBudget: {
      inv->buyer_id = args[0];
      inv->dataset_id = args[1];
      ASSIGN_OR_RETURN(inv->epsilon, ParseNumber("EPS", args[2]));
      return absl::OkStatus();
    }
    case Command::kAdminSetCap: {
      inv->dataset_id = args[0];
      ASSIGN_OR_RETURN(inv->epsilon, ParseNumber("EPS", args[1]));
      return absl::OkStatus();
    }
    case Command::kAdminLedger:
      if (flags.Has("--buyer")) inv->buyer_filter = flags.Get("--buyer");
      if (flags.Has("--dataset")) inv->dataset_filter = flags.Get("--dataset");
      return ApplyLimit(flags, inv);
    case Command::kAdminAudit:
      return ApplyLimit(flags, inv);
  }
  return absl::OkStatus();
}

std::string AdminUsage() {
  std::string text = "usage: dpq [global flags] admin <subcommand> ...\n";
  for (const CommandSpec& spec : Commands()) {
    if (spec.admin) absl::StrAppend(&text, "  dpq ", spec.synopsis, "\n");
  }
  return text;
}

}  // namespace

absl::StatusOr<dpq::v1::Measure> ParseMeasureName(const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "mi") return dpq::v1::MEASURE_MI;
  if (lower == "p") return dpq::v1::MEASURE_P;
  if (lower == "r") return dpq::v1::MEASURE_R;
  return Usage(
      absl::StrCat("--measure must be one of mi, p, r; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SelectionMethod> ParseMethodName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "optimized") return dpq::v1::SELECTION_METHOD_OPTIMIZED;
  if (lower == "hierarchical") return dpq::v1::SELECTION_METHOD_HIERARCHICAL;
  if (lower == "basic") return dpq::v1::SELECTION_METHOD_BASIC;
  if (lower == "baseline") return dpq::v1::SELECTION_METHOD_BASELINE;
  return Usage(absl::StrCat(
      "--method must be one of optimized, hierarchical, basic, baseline; got '",
      text, "'."));
}

std::string CommandName(Command command) {
  const CommandSpec* spec = SpecOf(command);
  if (spec == nullptr) return "";
  return spec->admin ? absl::StrCat("admin ", spec->name) : spec->name;
}

std::string CommandUsage(Command command) {
  const CommandSpec* spec = SpecOf(command);
  if (spec == nullptr) return GeneralUsage();
  return absl::StrCat("usage: dpq [global flags] ", spec->synopsis, "\n  ",
                      spec->summary, "\n");
}

std::string GeneralUsage() {
  std::string text =
      "usage: dpq [global flags] <command> [arguments] [flags]\n"
      "\n"
      "Global flags:\n"
      "  --server HOST:PORT   server address (env DPQ_SERVER; default "
      "localhost:50051)\n"
      "  --token T            bearer token (env DPQ_TOKEN)\n"
      "  --token-file F       read the bearer token from F\n"
      "  --ca F               PEM of the CA to trust (default: system roots)\n"
      "  --client-cert F --client-key F   client certificate (mTLS)\n"
      "  --tls-server-name N  expect certificate name N\n"
      "  --insecure           plaintext, no TLS (local demos only)\n"
      "  --json               print one JSON object instead of tables\n"
      "  --timeout SECONDS    deadline of each call (default 30; 600 for "
      "uploads)\n"
      "  --help               this text (or a command's usage)\n"
      "\n"
      "Commands:\n";
  for (const CommandSpec& spec : Commands()) {
    absl::StrAppend(&text, "  dpq ", spec.synopsis, "\n      ", spec.summary,
                    "\n");
  }
  absl::StrAppend(&text,
                  "\nExit status: 0 success, 1 server or file error (one line "
                  "'dpq: <CODE>: <message>' on stderr), 2 usage error.\n");
  return text;
}

absl::StatusOr<Invocation> ParseCommandLine(
    const std::vector<std::string>& args, const EnvLookup& env,
    std::string* usage_hint) {
  std::string unused_hint;
  if (usage_hint == nullptr) usage_hint = &unused_hint;
  *usage_hint = "Run 'dpq --help' for usage.\n";

  Invocation inv;
  FlagValues global_flags;
  FlagValues command_flags;
  std::vector<std::string> positional;
  const CommandSpec* spec = nullptr;
  bool admin_group = false;
  bool help_word = false;
  bool flags_done = false;

  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!flags_done && arg == "--") {
      flags_done = true;
      continue;
    }
    const bool is_long_flag =
        !flags_done && absl::StartsWith(arg, "--") && arg.size() > 2;
    if (!flags_done && !is_long_flag && arg.size() > 1 && arg[0] == '-' &&
        !LooksLikeNumber(arg)) {
      if (arg == "-h") {
        global_flags.values["--help"].push_back("");
        continue;
      }
      return Usage(
          absl::StrCat("Unknown flag '", arg, "' (flags are spelled --name)."));
    }
    if (is_long_flag) {
      const size_t eq = arg.find('=');
      const std::string name = arg.substr(0, eq);
      const FlagSpec* flag = FindFlag(GlobalFlags(), name);
      FlagValues* target = &global_flags;
      if (flag == nullptr && spec != nullptr) {
        flag = FindFlag(spec->flags, name);
        target = &command_flags;
      }
      if (flag == nullptr) {
        if (spec != nullptr) {
          return Usage(absl::StrCat("Unknown flag '", name, "' for 'dpq ",
                                    CommandName(spec->command), "'."));
        }
        return Usage(absl::StrCat("Unknown flag '", name, "'."));
      }
      std::string value;
      if (flag->takes_value) {
        if (eq != std::string::npos) {
          value = arg.substr(eq + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return Usage(absl::StrCat(name, " needs a value."));
        }
      } else if (eq != std::string::npos) {
        return Usage(absl::StrCat(name, " takes no value, got '", arg, "'."));
      }
      std::vector<std::string>& slot = target->values[name];
      if (!slot.empty() && !flag->repeatable) {
        return Usage(absl::StrCat(name, " is given more than once."));
      }
      slot.push_back(std::move(value));
      continue;
    }
    // A positional argument: the command words first, then its arguments.
    if (spec == nullptr && !help_word) {
      if (!admin_group && arg == "help") {
        help_word = true;
        continue;
      }
      if (!admin_group && arg == "admin") {
        admin_group = true;
        *usage_hint = AdminUsage();
        continue;
      }
      spec = FindCommand(admin_group, arg);
      if (spec == nullptr) {
        return Usage(absl::StrCat("Unknown command '",
                                  admin_group ? "admin " : "", arg, "'."));
      }
      *usage_hint = CommandUsage(spec->command);
      continue;
    }
    positional.push_back(arg);
  }

  RETURN_IF_ERROR(ApplyGlobalFlags(global_flags, env, &inv.global));
  inv.help = help_word || global_flags.Has("--help");
  if (spec != nullptr) inv.command = spec->command;
  if (inv.help) {
    if (spec == nullptr && admin_group) {
      // `dpq admin --help`: no single command; the caller prints the usage.
      inv.command = Command::kNone;
    }
    return inv;
  }
  if (spec == nullptr) {
    if (admin_group) return Usage("'dpq admin' needs a subcommand.");
    return Usage("No command given.");
  }
  const int n = static_cast<int>(positional.size());
  if (n < spec->min_args) {
    return Usage(absl::StrCat(
        "dpq ", CommandName(spec->command), " expects ", spec->args, ", but ",
        n == 0 ? std::string("nothing") : absl::StrJoin(positional, " "),
        " was given."));
  }
  if (n > spec->max_args) {
    return Usage(absl::StrCat(
        "dpq ", CommandName(spec->command), " got unexpected argument '",
        positional[static_cast<size_t>(spec->max_args)], "'",
        spec->max_args == 0 ? "."
                            : absl::StrCat(" (it takes ", spec->args, ").")));
  }
  RETURN_IF_ERROR(ApplyCommand(*spec, positional, command_flags, &inv));
  return inv;
}

}  // namespace dpq::client
