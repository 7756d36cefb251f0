// Command-line parsing of `dpq`: global flags, subcommands, their arguments
// and flags (`--flag value` and `--flag=value`), typed and checked. A parse
// error is a usage error (`dpq` exits 2); nothing here touches the network
// or reads files except what the environment lookup returns.
#ifndef DPQ_CLIENT_CLI_ARGS_H_
#define DPQ_CLIENT_CLI_ARGS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::client {

// Every subcommand. kNone: only global flags (e.g. `dpq --help`).
enum class Command {
  kNone,
  kHealth,
  kDatasets,
  kDescribe,
  kBudget,
  kMeasure,
  kReport,
  kCuboids,
  kTree,
  kTopNodes,
  kAdminRegister,
  kAdminReplace,
  kAdminDelete,
  kAdminDatasets,
  kAdminCreateBuyer,
  kAdminRevokeBuyer,
  kAdminBuyers,
  kAdminGrant,
  kAdminSetBudget,
  kAdminSetCap,
  kAdminLedger,
  kAdminAudit,
};

// The default server address and the default per-call deadline.
inline constexpr char kDefaultServer[] = "localhost:50051";
inline constexpr int kDefaultTimeoutSeconds = 30;
// Uploads build the conflict graph before they return: a longer default.
inline constexpr int kDefaultUploadTimeoutSeconds = 600;

// Flags valid with every command.
struct GlobalOptions {
  // host:port; --server, else env DPQ_SERVER, else kDefaultServer.
  std::string server = kDefaultServer;
  // The bearer token: --token, else env DPQ_TOKEN (checked by CleanToken:
  // one trailing newline dropped; left empty for `dpq health`, which sends
  // none). Empty: none.
  std::string token;
  // --token-file: read the token from this file instead (the whole file,
  // checked by CleanToken when it is read).
  std::string token_file;
  // PEM of the CA to trust (--ca); empty: the system roots.
  std::string ca_file;
  // mTLS: client certificate chain and key (PEM), both or neither.
  std::string client_cert_file;
  std::string client_key_file;
  // Overrides the TLS server name checked against the certificate.
  std::string tls_server_name;
  // Plaintext (--insecure).
  bool insecure = false;
  // One JSON object on stdout instead of tables (--json).
  bool json = false;
  // Per-call deadline (--timeout SECONDS); unset: the command's default.
  std::optional<absl::Duration> timeout;
};

// `admin register` / `admin replace`.
struct UploadArgs {
  std::string data_path;                 // --data (unless server_path)
  std::string server_path;               // --server-path
  std::string constraints_path;          // --constraints (required)
  std::string schema_path;               // --schema (optional)
  uint64_t public_max_rows = 0;          // --public-max-rows (required)
  std::string description;               // --description
  bool row_count_public = false;         // --row-count-public
  std::vector<std::string> null_values;  // --null-value (repeatable)
  // --kind table|graph; a graph needs neither --constraints nor
  // --public-max-rows (the server checks what it needs).
  dpq::v1::DatasetKind kind = dpq::v1::DATASET_KIND_UNSPECIFIED;
  // --cube-dimension (repeatable), see ParseCubeDimension.
  std::vector<dpq::v1::CubeDimension> cube_dimensions;
  // --public-cuboid A,B (repeatable): the public exact cuboids.
  std::vector<std::vector<std::string>> public_cuboids;
  // --infer-types: infer the types --schema leaves out (at registration).
  bool infer_types = false;
  bool exact_repair = false;  // --exact-repair
  // Graphs: the node universe, --node-count N or --nodes F (one label per
  // line).
  uint64_t node_count = 0;
  std::string nodes_path;
};

// `dpq tree`.
struct TreeArgs {
  std::string label;                  // --label (required)
  std::string positive;               // --positive (required)
  std::vector<std::string> features;  // --features a,b; empty: all but label
  uint32_t generations = 0;           // --generations; 0: server default
  uint32_t population = 0;            // --population; 0: server default
  double accuracy_epsilon = 0;        // --accuracy-epsilon; 0: no TPR/TNR
};

// The multi-objective selection flags of `dpq tree` and `dpq top-nodes`.
struct SelectionArgs {
  dpq::v1::SelectionApproach approach =
      dpq::v1::SELECTION_APPROACH_UNSPECIFIED;  // --approach
  std::vector<double> weights;                  // --weights w1,w2
  dpq::v1::SensitivityMode sensitivity =
      dpq::v1::SENSITIVITY_MODE_UNSPECIFIED;  // --sensitivity
};

// A parsed command line. Only the fields of `command` are meaningful.
struct Invocation {
  Command command = Command::kNone;
  GlobalOptions global;
  // --help (or `dpq help`): print usage, run nothing.
  bool help = false;

  // The ID argument (describe, budget, measure, report, cuboids, tree,
  // top-nodes, admin register, replace, delete, grant, set-budget,
  // set-cap); "" if optional and absent.
  std::string dataset_id;
  // The buyer (create-buyer NAME, revoke-buyer NAME, grant, set-budget).
  std::string buyer_id;
  // measure / report.
  dpq::v1::Measure measure = dpq::v1::MEASURE_UNSPECIFIED;
  dpq::v1::SelectionMethod method = dpq::v1::SELECTION_METHOD_UNSPECIFIED;
  dpq::v1::RepairMethod repair_method = dpq::v1::REPAIR_METHOD_UNSPECIFIED;
  double epsilon = 0;  // also EPS of grant, set-budget, set-cap
  // cuboids: one dimension list per --dims ([] = the apex cuboid), and
  // --integral.
  std::vector<std::vector<std::string>> cuboids;
  bool integral = false;
  // tree.
  TreeArgs tree;
  // tree and top-nodes.
  SelectionArgs selection;
  // top-nodes: --k and --objectives (empty: the server's default).
  uint32_t k = 0;
  std::vector<dpq::v1::NodeObjective> objectives;
  // --request-id (measure, report, cuboids, tree, top-nodes); "" = let
  // `dpq` generate one.
  std::string request_id;
  // budget --history.
  bool history = false;
  // --limit (budget history, admin ledger, admin audit); 0 = server default.
  uint32_t limit = 0;
  // admin ledger --buyer / --dataset filters.
  std::string buyer_filter;
  std::string dataset_filter;
  UploadArgs upload;
};

// Looks up an environment variable; std::nullopt if unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// Parses `args` (without the program name). kInvalidArgument, with a
// message naming the offending flag, argument or value, for: an unknown
// command or flag, a missing argument or required flag, too many arguments,
// a flag given twice, a value for a boolean flag, a malformed number, an
// unknown --measure/--method, a bad flag combination, a token with a byte
// outside printable ASCII (see CleanToken), or an argument or text flag
// (sent in a proto string field) that is not valid UTF-8. `usage_hint`, if
// not null, receives the synopsis of the command recognised so far (or the
// general hint), for printing after the error.
absl::StatusOr<Invocation> ParseCommandLine(
    const std::vector<std::string>& args, const EnvLookup& env,
    std::string* usage_hint = nullptr);

// The full usage text (`dpq --help`).
std::string GeneralUsage();

// The usage of one command (`dpq measure --help`).
std::string CommandUsage(Command command);

// "measure", "admin register", ...
std::string CommandName(Command command);

// Parses "mi"/"p"/"r" (case-insensitive). kInvalidArgument otherwise.
absl::StatusOr<dpq::v1::Measure> ParseMeasureName(const std::string& text);

// Parses "gem"/"optimized"/"hierarchical"/"basic"/"baseline"
// (case-insensitive), the methods of I_MI and I_P.
absl::StatusOr<dpq::v1::SelectionMethod> ParseMethodName(
    const std::string& text);

// Parses "cover_bound"/"exact"/"vertex_cover" (case-insensitive), the
// methods of I_R.
absl::StatusOr<dpq::v1::RepairMethod> ParseRepairMethodName(
    const std::string& text);

// Parses "table"/"graph" (case-insensitive) for --kind.
absl::StatusOr<dpq::v1::DatasetKind> ParseKindName(const std::string& text);

// Parses "pareto"/"aggregation" (case-insensitive) for --approach.
absl::StatusOr<dpq::v1::SelectionApproach> ParseApproachName(
    const std::string& text);

// Parses "global"/"local" (case-insensitive) for --sensitivity.
absl::StatusOr<dpq::v1::SensitivityMode> ParseSensitivityName(
    const std::string& text);

// Parses "degree"/"egocentric_density" (case-insensitive) for --objectives.
absl::StatusOr<dpq::v1::NodeObjective> ParseObjectiveName(
    const std::string& text);

// A --cube-dimension value:
//   COL               nominal, domain inferred from the data;
//   COL:e0,e1,...,ek  numeric, bins [e0,e1), ..., [e(k-1),ek] (finite
//                     numbers; their order is the server's to check);
//   COL=v1|v2|...     nominal with the declared domain v1, v2, ...
// Spaces around names and values are trimmed. kInvalidArgument for an
// empty column or value, or an edge that is not a number.
absl::StatusOr<dpq::v1::CubeDimension> ParseCubeDimension(
    const std::string& text);

// A comma-separated list of column names for `flag` (--dims,
// --public-cuboid, --features), trimmed. "" is the empty list (the apex
// cuboid) when `allow_empty`; an empty item ("A,,B") or a name given twice
// is kInvalidArgument.
absl::StatusOr<std::vector<std::string>> ParseNameList(absl::string_view flag,
                                                       const std::string& text,
                                                       bool allow_empty);

// A comma-separated list of finite numbers for `flag` (--weights).
absl::StatusOr<std::vector<double>> ParseNumberList(absl::string_view flag,
                                                    const std::string& text);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_CLI_ARGS_H_
