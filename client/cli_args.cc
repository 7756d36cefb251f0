#include "client/cli_args.h"

#include <algorithm>
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
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/request_id.h"
#include "client/token.h"
#include "client/utf8.h"
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
          {"--null-value", true, true},
          {"--kind", true, false},
          {"--cube-dimension", true, true},
          {"--public-cuboid", true, true},
          {"--infer-types", false, false},
          {"--exact-repair", false, false},
          {"--node-count", true, false},
          {"--nodes", true, false}};
}

// The flags of the multi-objective selections (tree, top-nodes).
std::vector<FlagSpec> SelectionFlags(std::vector<FlagSpec> own) {
  for (const char* name : {"--approach", "--weights", "--sensitivity",
                           "--epsilon", "--request-id"}) {
    own.push_back({name, true, false});
  }
  return own;
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
       "measure ID --measure mi|p|r --epsilon E [--method M] "
       "[--request-id R]",
       "Releases one DP inconsistency measure; charges E.\n"
       "      M for mi, p: gem (default) | optimized | hierarchical | basic | "
       "baseline;\n"
       "      for r: cover_bound (default) | exact (datasets registered with "
       "--exact-repair; their default) | vertex_cover."},
      {Command::kReport,
       false,
       "report",
       1,
       1,
       "ID",
       {{"--epsilon", true, false},
        {"--method", true, false},
        {"--repair-method", true, false},
        {"--request-id", true, false}},
       "report ID --epsilon E [--method M] [--repair-method RM] "
       "[--request-id R]",
       "Releases I_MI, I_P and I_R for one charge of E (E/3 each)."},
      {Command::kCuboids,
       false,
       "cuboids",
       1,
       1,
       "ID",
       {{"--dims", true, true},
        {"--epsilon", true, false},
        {"--integral", false, false},
        {"--request-id", true, false}},
       "cuboids ID --dims A,B [--dims C]... --epsilon E [--integral] "
       "[--request-id R]",
       "Releases DP count marginals (cuboids), consistent with the public "
       "exact cuboids; charges E."},
      {Command::kTree, false, "tree", 1, 1, "ID",
       SelectionFlags({{"--label", true, false},
                       {"--positive", true, false},
                       {"--features", true, false},
                       {"--generations", true, false},
                       {"--population", true, false},
                       {"--accuracy-epsilon", true, false}}),
       "tree ID --label COL --positive VALUE --epsilon E [--features A,B] "
       "[--approach pareto|aggregation] [--weights W1,W2] "
       "[--sensitivity global|local] [--generations G] [--population P] "
       "[--accuracy-epsilon E2] [--request-id R]",
       "Trains a DP decision tree (DP-MOET); charges E (+ E2 for its DP "
       "TPR and TNR)."},
      {Command::kTopNodes, false, "top-nodes", 1, 1, "ID",
       SelectionFlags({{"--k", true, false}, {"--objectives", true, false}}),
       "top-nodes ID --k K --epsilon E "
       "[--objectives degree,egocentric_density] "
       "[--approach pareto|aggregation] [--weights W1,W2] "
       "[--sensitivity global|local] [--request-id R]",
       "Selects the K most influential nodes of a graph dataset (DP-MOTkIN, "
       "edge-DP); charges E."},
      {Command::kAdminRegister, true, "register", 1, 1, "ID", UploadFlags(),
       "admin register ID --data F.csv --constraints F.dc "
       "--public-max-rows N [--description TEXT] [--row-count-public] "
       "(--schema F | --infer-types) [--null-value V]... [--server-path P] "
       "[--cube-dimension SPEC]... [--public-cuboid A,B]... [--exact-repair] "
       "[--kind table|graph (--node-count N | --nodes F)]",
       "Uploads a new dataset (or has the server read --server-path).\n"
       "      --server-path P: a file in the server's import directory "
       "(dpq-server --import-dir DIR;\n"
       "      off by default); P may be relative to it. Errors then give "
       "the line and column only.\n"
       "      Every column needs a type: --schema F (`name: int64|double|"
       "string` lines), or --infer-types to infer\n"
       "      the missing ones once, now (they are frozen and public).\n"
       "      --exact-repair: compute the exact minimum repair now, so buyers "
       "get I_R itself, not a\n"
       "      lower bound (fails if the solver cannot prove it).\n"
       "      SPEC: COL=V1|V2|... (declared domain), COL:E0,E1,...,Ek (numeric "
       "bins) or COL=* (domain taken\n"
       "      from the data, which makes its values public).\n"
       "      --kind graph: F.csv is an edge list (source,target; undirected) "
       "over the declared nodes\n"
       "      (--node-count N: 0..N-1, or --nodes F: one label per line); no "
       "--constraints or --public-max-rows."},
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

// `needs_token`: false for `dpq health`, which sends none (so a stray
// DPQ_TOKEN cannot break a health probe).
absl::Status ApplyGlobalFlags(const FlagValues& flags, const EnvLookup& env,
                              bool needs_token, GlobalOptions* g) {
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
    if (flags.Get("--token").empty()) {
      return Usage("--token must not be empty.");
    }
    if (needs_token) {
      ASSIGN_OR_RETURN(g->token, CleanToken(flags.Get("--token"), "--token"));
    }
  } else if (flags.Has("--token-file")) {
    g->token_file = flags.Get("--token-file");
    if (g->token_file.empty()) {
      return Usage("--token-file must not be empty.");
    }
  } else if (std::optional<std::string> t =
                 env ? env("DPQ_TOKEN") : std::nullopt;
             needs_token && t.has_value() && !t->empty()) {
    ASSIGN_OR_RETURN(g->token, CleanToken(*t, "DPQ_TOKEN"));
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

// --method: a method of I_MI/I_P, or (measure --measure r) of I_R.
absl::Status ApplyMethod(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--method")) return absl::OkStatus();
  const std::string& text = flags.Get("--method");
  if (inv->measure == dpq::v1::MEASURE_R) {
    ASSIGN_OR_RETURN(inv->repair_method, ParseRepairMethodName(text));
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(inv->method, ParseMethodName(text));
  return absl::OkStatus();
}

// report --repair-method.
absl::Status ApplyRepairMethod(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--repair-method")) return absl::OkStatus();
  ASSIGN_OR_RETURN(inv->repair_method,
                   ParseRepairMethodName(flags.Get("--repair-method")));
  return absl::OkStatus();
}

absl::Status ApplyLimit(const FlagValues& flags, Invocation* inv) {
  if (!flags.Has("--limit")) return absl::OkStatus();
  ASSIGN_OR_RETURN(inv->limit, ParseUint32("--limit", flags.Get("--limit")));
  return absl::OkStatus();
}

// --kind, --cube-dimension, --public-cuboid.
absl::Status ApplyCube(const FlagValues& flags, UploadArgs* up) {
  if (flags.Has("--kind")) {
    ASSIGN_OR_RETURN(up->kind, ParseKindName(flags.Get("--kind")));
  }
  const bool graph = up->kind == dpq::v1::DATASET_KIND_GRAPH;
  for (const char* table_only :
       {"--constraints", "--public-max-rows", "--row-count-public", "--schema",
        "--null-value", "--cube-dimension", "--public-cuboid",
        "--infer-types", "--exact-repair"}) {
    if (graph && flags.Has(table_only)) {
      return Usage(absl::StrCat(
          table_only, " applies to tables only, not to --kind graph."));
    }
  }
  for (const char* graph_only : {"--node-count", "--nodes"}) {
    if (!graph && flags.Has(graph_only)) {
      return Usage(absl::StrCat(graph_only,
                                " applies to --kind graph only (the node "
                                "universe of an edge list)."));
    }
  }
  if (graph) {
    if (flags.Has("--node-count") == flags.Has("--nodes")) {
      return Usage(
          "--kind graph needs the node universe: --node-count N (nodes 0 to "
          "N-1) or --nodes F (one node label per line, isolated nodes "
          "included), one of the two.");
    }
    if (flags.Has("--node-count")) {
      ASSIGN_OR_RETURN(up->node_count,
                       ParseUint64("--node-count", flags.Get("--node-count")));
      if (up->node_count == 0) return Usage("--node-count must be at least 1.");
    }
    if (flags.Has("--nodes")) {
      up->nodes_path = flags.Get("--nodes");
      if (up->nodes_path.empty()) return Usage("--nodes must not be empty.");
    }
  }
  up->infer_types = flags.Has("--infer-types");
  up->exact_repair = flags.Has("--exact-repair");
  if (flags.Has("--cube-dimension")) {
    for (const std::string& text : flags.values.at("--cube-dimension")) {
      ASSIGN_OR_RETURN(dpq::v1::CubeDimension dim, ParseCubeDimension(text));
      up->cube_dimensions.push_back(std::move(dim));
    }
  }
  if (flags.Has("--public-cuboid")) {
    for (const std::string& text : flags.values.at("--public-cuboid")) {
      ASSIGN_OR_RETURN(std::vector<std::string> dims,
                       ParseNameList("--public-cuboid", text,
                                     /*allow_empty=*/true));
      up->public_cuboids.push_back(std::move(dims));
    }
  }
  return absl::OkStatus();
}

absl::Status ApplyUpload(const FlagValues& flags, const CommandSpec& spec,
                         UploadArgs* up) {
  RETURN_IF_ERROR(ApplyCube(flags, up));
  // A graph (edge list) has no denial constraints and no row bound.
  const bool graph = up->kind == dpq::v1::DATASET_KIND_GRAPH;
  if (!graph) {
    RETURN_IF_ERROR(RequireFlag(flags, "--constraints", spec));
    RETURN_IF_ERROR(RequireFlag(flags, "--public-max-rows", spec));
  }
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
  if (flags.Has("--constraints")) {
    up->constraints_path = flags.Get("--constraints");
    if (up->constraints_path.empty()) {
      return Usage("--constraints must not be empty.");
    }
  }
  if (flags.Has("--schema")) up->schema_path = flags.Get("--schema");
  if (flags.Has("--public-max-rows")) {
    ASSIGN_OR_RETURN(
        up->public_max_rows,
        ParseUint64("--public-max-rows", flags.Get("--public-max-rows")));
  }
  if (flags.Has("--description")) up->description = flags.Get("--description");
  up->row_count_public = flags.Has("--row-count-public");
  if (flags.Has("--null-value"))
    up->null_values = flags.values.at("--null-value");
  return absl::OkStatus();
}

absl::Status ApplyEpsilon(const FlagValues& flags, const CommandSpec& spec,
                          Invocation* inv) {
  RETURN_IF_ERROR(RequireFlag(flags, "--epsilon", spec));
  ASSIGN_OR_RETURN(inv->epsilon,
                   ParseNumber("--epsilon", flags.Get("--epsilon")));
  return absl::OkStatus();
}

absl::Status ApplyCuboids(const FlagValues& flags, const CommandSpec& spec,
                          Invocation* inv) {
  RETURN_IF_ERROR(RequireFlag(flags, "--dims", spec));
  for (const std::string& text : flags.values.at("--dims")) {
    ASSIGN_OR_RETURN(std::vector<std::string> dims,
                     ParseNameList("--dims", text, /*allow_empty=*/true));
    inv->cuboids.push_back(std::move(dims));
  }
  RETURN_IF_ERROR(ApplyEpsilon(flags, spec, inv));
  inv->integral = flags.Has("--integral");
  return ApplyRequestId(flags, inv);
}

// --approach, --weights, --sensitivity, --epsilon, --request-id.
absl::Status ApplySelection(const FlagValues& flags, const CommandSpec& spec,
                            Invocation* inv) {
  SelectionArgs& sel = inv->selection;
  if (flags.Has("--approach")) {
    ASSIGN_OR_RETURN(sel.approach, ParseApproachName(flags.Get("--approach")));
  }
  if (flags.Has("--weights")) {
    ASSIGN_OR_RETURN(sel.weights,
                     ParseNumberList("--weights", flags.Get("--weights")));
  }
  if (flags.Has("--sensitivity")) {
    ASSIGN_OR_RETURN(sel.sensitivity,
                     ParseSensitivityName(flags.Get("--sensitivity")));
  }
  RETURN_IF_ERROR(ApplyEpsilon(flags, spec, inv));
  return ApplyRequestId(flags, inv);
}

absl::Status ApplyTree(const FlagValues& flags, const CommandSpec& spec,
                       Invocation* inv) {
  TreeArgs& tree = inv->tree;
  RETURN_IF_ERROR(RequireFlag(flags, "--label", spec));
  RETURN_IF_ERROR(RequireFlag(flags, "--positive", spec));
  tree.label = flags.Get("--label");
  if (tree.label.empty()) return Usage("--label must not be empty.");
  tree.positive = flags.Get("--positive");
  if (flags.Has("--features")) {
    ASSIGN_OR_RETURN(tree.features,
                     ParseNameList("--features", flags.Get("--features"),
                                   /*allow_empty=*/false));
  }
  if (flags.Has("--generations")) {
    ASSIGN_OR_RETURN(tree.generations,
                     ParseUint32("--generations", flags.Get("--generations")));
  }
  if (flags.Has("--population")) {
    ASSIGN_OR_RETURN(tree.population,
                     ParseUint32("--population", flags.Get("--population")));
  }
  if (flags.Has("--accuracy-epsilon")) {
    ASSIGN_OR_RETURN(
        tree.accuracy_epsilon,
        ParseNumber("--accuracy-epsilon", flags.Get("--accuracy-epsilon")));
  }
  return ApplySelection(flags, spec, inv);
}

absl::Status ApplyTopNodes(const FlagValues& flags, const CommandSpec& spec,
                           Invocation* inv) {
  RETURN_IF_ERROR(RequireFlag(flags, "--k", spec));
  ASSIGN_OR_RETURN(inv->k, ParseUint32("--k", flags.Get("--k")));
  if (flags.Has("--objectives")) {
    ASSIGN_OR_RETURN(const std::vector<std::string> names,
                     ParseNameList("--objectives", flags.Get("--objectives"),
                                   /*allow_empty=*/false));
    for (const std::string& name : names) {
      ASSIGN_OR_RETURN(const dpq::v1::NodeObjective objective,
                       ParseObjectiveName(name));
      inv->objectives.push_back(objective);
    }
  }
  return ApplySelection(flags, spec, inv);
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
      RETURN_IF_ERROR(ApplyRepairMethod(flags, inv));
      return ApplyRequestId(flags, inv);
    }
    case Command::kCuboids:
      inv->dataset_id = args[0];
      return ApplyCuboids(flags, spec, inv);
    case Command::kTree:
      inv->dataset_id = args[0];
      return ApplyTree(flags, spec, inv);
    case Command::kTopNodes:
      inv->dataset_id = args[0];
      return ApplyTopNodes(flags, spec, inv);
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

// The command flags whose values `dpq` sends in proto `string` fields (file
// paths other than --server-path stay local and may be any bytes).
constexpr const char* kProtoTextFlags[] = {
    "--server-path", "--description",    "--null-value", "--cube-dimension",
    "--public-cuboid", "--dims",         "--label",      "--positive",
    "--features",    "--request-id",     "--buyer",      "--dataset"};

// Every argument and text flag value is sent in a proto `string` field,
// which must be UTF-8: otherwise the server cannot parse the request and
// answers with something unrelated.
absl::Status CheckProtoText(const CommandSpec& spec,
                            const std::vector<std::string>& args,
                            const FlagValues& flags) {
  for (size_t i = 0; i < args.size(); ++i) {
    RETURN_IF_ERROR(CheckUtf8Value(
        absl::StrCat("Argument ", i + 1, " of 'dpq ", CommandName(spec.command),
                     "'"),
        args[i]));
  }
  for (const char* name : kProtoTextFlags) {
    if (!flags.Has(name)) continue;
    for (const std::string& value : flags.values.at(name)) {
      RETURN_IF_ERROR(CheckUtf8Value(name, value));
    }
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
  if (lower == "gem") return dpq::v1::SELECTION_METHOD_GEM;
  if (lower == "optimized") return dpq::v1::SELECTION_METHOD_OPTIMIZED;
  if (lower == "hierarchical") return dpq::v1::SELECTION_METHOD_HIERARCHICAL;
  if (lower == "basic") return dpq::v1::SELECTION_METHOD_BASIC;
  if (lower == "baseline") return dpq::v1::SELECTION_METHOD_BASELINE;
  return Usage(absl::StrCat(
      "--method for mi and p must be one of gem, optimized, hierarchical, "
      "basic, baseline; got '",
      text, "'."));
}

absl::StatusOr<dpq::v1::RepairMethod> ParseRepairMethodName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "cover_bound") return dpq::v1::REPAIR_METHOD_COVER_BOUND;
  if (lower == "exact") return dpq::v1::REPAIR_METHOD_EXACT;
  if (lower == "vertex_cover") return dpq::v1::REPAIR_METHOD_VERTEX_COVER;
  return Usage(absl::StrCat(
      "the method for r must be one of cover_bound, exact, vertex_cover; got '",
      text, "'."));
}

absl::StatusOr<dpq::v1::DatasetKind> ParseKindName(const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "table") return dpq::v1::DATASET_KIND_TABLE;
  if (lower == "graph") return dpq::v1::DATASET_KIND_GRAPH;
  return Usage(
      absl::StrCat("--kind must be one of table, graph; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SelectionApproach> ParseApproachName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "pareto") return dpq::v1::SELECTION_APPROACH_PARETO;
  if (lower == "aggregation") return dpq::v1::SELECTION_APPROACH_AGGREGATION;
  return Usage(absl::StrCat(
      "--approach must be one of pareto, aggregation; got '", text, "'."));
}

absl::StatusOr<dpq::v1::SensitivityMode> ParseSensitivityName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "global") return dpq::v1::SENSITIVITY_MODE_GLOBAL;
  if (lower == "local") return dpq::v1::SENSITIVITY_MODE_LOCAL;
  return Usage(absl::StrCat("--sensitivity must be one of global, local; got '",
                            text, "'."));
}

absl::StatusOr<dpq::v1::NodeObjective> ParseObjectiveName(
    const std::string& text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "degree") return dpq::v1::NODE_OBJECTIVE_DEGREE;
  if (lower == "egocentric_density") {
    return dpq::v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY;
  }
  return Usage(absl::StrCat(
      "--objectives must list some of degree, egocentric_density; got '", text,
      "'."));
}

absl::StatusOr<dpq::v1::CubeDimension> ParseCubeDimension(
    const std::string& text) {
  // The first ':' or '=' ends the column name; column names with either
  // character cannot be declared here (the manifest JSON can).
  const size_t sep = text.find_first_of(":=");
  dpq::v1::CubeDimension dim;
  dim.set_column(std::string(absl::StripAsciiWhitespace(text.substr(0, sep))));
  if (dim.column().empty()) {
    return Usage(absl::StrCat(
        "--cube-dimension expects COL=V1|V2|..., COL:E0,E1,... or COL=*; "
        "got '",
        text, "'."));
  }
  if (sep == std::string::npos) return dim;
  const std::string rest = text.substr(sep + 1);
  if (text[sep] == ':') {
    for (absl::string_view edge : absl::StrSplit(rest, ',')) {
      const std::string trimmed(absl::StripAsciiWhitespace(edge));
      double value;
      if (!absl::SimpleAtod(trimmed, &value) || !std::isfinite(value)) {
        return Usage(absl::StrCat("--cube-dimension ", dim.column(),
                                  ": bin edge '", trimmed,
                                  "' is not a finite number."));
      }
      dim.add_bin_edges(value);
    }
    return dim;
  }
  if (absl::StripAsciiWhitespace(rest) == "*") {
    // The owner's explicit choice to take the domain from the data.
    dim.set_infer_domain(true);
    return dim;
  }
  for (absl::string_view value : absl::StrSplit(rest, '|')) {
    const absl::string_view trimmed = absl::StripAsciiWhitespace(value);
    if (trimmed.empty()) {
      return Usage(absl::StrCat("--cube-dimension ", dim.column(),
                                ": empty domain value in '", text,
                                "' (values are separated by '|')."));
    }
    dim.add_domain(std::string(trimmed));
  }
  return dim;
}

absl::StatusOr<std::vector<std::string>> ParseNameList(absl::string_view flag,
                                                       const std::string& text,
                                                       bool allow_empty) {
  std::vector<std::string> names;
  if (absl::StripAsciiWhitespace(text).empty()) {
    if (allow_empty) return names;
    return Usage(absl::StrCat(flag, " expects a comma-separated list, got '",
                              text, "'."));
  }
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    const std::string name(absl::StripAsciiWhitespace(item));
    if (name.empty()) {
      return Usage(absl::StrCat(flag, ": empty name in '", text, "'."));
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Usage(
          absl::StrCat(flag, ": '", name, "' is given twice in '", text, "'."));
    }
    names.push_back(name);
  }
  return names;
}

absl::StatusOr<std::vector<double>> ParseNumberList(absl::string_view flag,
                                                    const std::string& text) {
  std::vector<double> numbers;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    const std::string trimmed(absl::StripAsciiWhitespace(item));
    double value;
    if (!absl::SimpleAtod(trimmed, &value) || !std::isfinite(value)) {
      return Usage(absl::StrCat(
          flag, " expects comma-separated finite numbers, got '", text, "'."));
    }
    numbers.push_back(value);
  }
  return numbers;
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
      "                       (one trailing newline of a token is dropped;\n"
      "                       any other space or control byte is refused)\n"
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

  RETURN_IF_ERROR(ApplyGlobalFlags(
      global_flags, env,
      /*needs_token=*/spec == nullptr || spec->command != Command::kHealth,
      &inv.global));
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
  RETURN_IF_ERROR(CheckProtoText(*spec, positional, command_flags));
  return inv;
}

}  // namespace dpq::client
