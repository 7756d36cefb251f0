#include "client/cli.h"

#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/grpc_status.h"
#include "client/output.h"
#include "client/request_id.h"
#include "client/terminal_text.h"
#include "client/tls_files.h"
#include "client/token.h"
#include "client/utf8.h"
#include "core/table/schema.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "grpcpp/client_context.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_stream.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;

// Everything prepared locally before the first RPC.
struct Prepared {
  ConnectionOptions connection;
  CallOptions call;
  // Uploads: the manifest header and the CSV (unless --server-path).
  v1::DatasetUploadHeader upload_header;
  std::optional<FileChunker> csv;
  // Releases: the request id actually sent, and whether dpq made it.
  std::string request_id;
  bool generated_request_id = false;
};

bool IsUpload(Command c) {
  return c == Command::kAdminRegister || c == Command::kAdminReplace;
}

// The commands that spend budget: they carry a request id.
bool IsRelease(Command c) {
  return c == Command::kMeasure || c == Command::kReport ||
         c == Command::kCuboids || c == Command::kTree ||
         c == Command::kTopNodes;
}

bool IsBuyerCall(Command c) {
  return c == Command::kDatasets || c == Command::kDescribe ||
         c == Command::kBudget || IsRelease(c);
}

v1::ColumnType ToProtoType(core::table::ColumnType type) {
  switch (type) {
    case core::table::ColumnType::kInt64:
      return v1::COLUMN_TYPE_INT64;
    case core::table::ColumnType::kDouble:
      return v1::COLUMN_TYPE_DOUBLE;
    case core::table::ColumnType::kString:
      return v1::COLUMN_TYPE_STRING;
  }
  return v1::COLUMN_TYPE_UNSPECIFIED;
}

// The token from --token-file: the whole file, one trailing newline dropped
// (see CleanToken).
absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text,
                   ReadSmallFile(path, "--token-file", /*max_bytes=*/4096));
  return CleanToken(text, absl::StrCat("--token-file '", path, "'"));
}

// A local text file whose contents go into a proto `string` field: it must
// be UTF-8 (see client/utf8.h).
absl::StatusOr<std::string> ReadTextFile(
    const std::string& path, const std::string& flag,
    size_t max_bytes = size_t{16} << 20) {
  ASSIGN_OR_RETURN(std::string text, ReadSmallFile(path, flag, max_bytes));
  RETURN_IF_ERROR(CheckUtf8File(flag, path, text));
  return text;
}

// Builds the manifest header and opens the CSV.
absl::Status PrepareUpload(const Invocation& inv, const CliEnv& env,
                           Prepared* p) {
  const UploadArgs& up = inv.upload;
  v1::DatasetManifest* m = p->upload_header.mutable_manifest();
  m->set_dataset_id(inv.dataset_id);
  m->set_description(up.description);
  m->set_public_max_rows(up.public_max_rows);
  m->set_row_count_public(up.row_count_public);
  for (const std::string& v : up.null_values) m->add_null_values(v);
  m->set_kind(up.kind);
  for (const v1::CubeDimension& d : up.cube_dimensions) {
    *m->add_cube_dimensions() = d;
  }
  for (const std::vector<std::string>& dims : up.public_cuboids) {
    v1::CuboidSpec* spec = m->add_public_cuboids();
    for (const std::string& dim : dims) spec->add_dimensions(dim);
  }
  m->set_infer_column_types(up.infer_types);
  m->set_exact_repair(up.exact_repair);
  m->set_node_count(up.node_count);
  if (!up.nodes_path.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     ReadTextFile(up.nodes_path, "--nodes",
                                  /*max_bytes=*/size_t{64} << 20));
    // One label per line; a CR of CRLF and empty lines are dropped.
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      absl::ConsumeSuffix(&line, "\r");
      if (!line.empty()) m->add_node_labels(std::string(line));
    }
  }
  if (!up.constraints_path.empty()) {
    ASSIGN_OR_RETURN(std::string constraints,
                     ReadTextFile(up.constraints_path, "--constraints"));
    m->set_constraints(std::move(constraints));
  }
  if (!up.schema_path.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     ReadTextFile(up.schema_path, "--schema"));
    absl::StatusOr<core::table::SchemaOverrides> schema =
        core::table::ParseSchemaOverrides(text);
    if (!schema.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("--schema file '", up.schema_path, "': "),
          schema.status());
    }
    for (const core::table::ColumnSpec& c : schema->columns) {
      v1::Column* col = m->add_column_types();
      col->set_name(c.name);
      col->set_type(ToProtoType(c.type));
    }
  }
  if (!up.server_path.empty()) {
    p->upload_header.set_server_path(up.server_path);
  } else {
    ASSIGN_OR_RETURN(
        FileChunker chunker,
        FileChunker::Open(up.data_path, "--data", env.upload_chunk_bytes));
    p->csv.emplace(std::move(chunker));
  }
  return absl::OkStatus();
}

// Reads every local file and settles the connection and call options.
absl::StatusOr<Prepared> Prepare(const Invocation& inv, const CliEnv& env,
                                 std::ostream& err) {
  const GlobalOptions& g = inv.global;
  Prepared p;
  ConnectionOptions& c = p.connection;
  c.target = NormalizeTarget(g.server);
  c.insecure = g.insecure;
  c.tls_server_name = g.tls_server_name;
  if (inv.command != Command::kHealth) {  // health never needs a token
    if (!g.token_file.empty()) {
      ASSIGN_OR_RETURN(c.token, ReadTokenFile(g.token_file));
    } else {
      c.token = g.token;
    }
  }
  if (!g.ca_file.empty()) {
    ASSIGN_OR_RETURN(c.root_certs_pem, ReadCaFile(g.ca_file));
  }
  if (!g.client_cert_file.empty()) {
    ASSIGN_OR_RETURN(const ClientCertificate cert,
                     ReadClientCertificate(g.client_cert_file,
                                           g.client_key_file));
    c.client_cert_pem = cert.chain_pem;
    c.client_key_pem = cert.key_pem;
  }
  p.call.timeout = g.timeout.value_or(
      absl::Seconds(IsUpload(inv.command) ? kDefaultUploadTimeoutSeconds
                                          : kDefaultTimeoutSeconds));
  if (c.insecure) {
    p.call.plaintext_token = c.token;
    if (!c.token.empty() && !IsLoopbackTarget(c.target)) {
      err << "dpq: warning: sending the bearer token in plaintext to "
          << TerminalSafe(c.target)
          << " (--insecure); anyone on the path can read it.\n";
    }
  }
  if (IsUpload(inv.command)) RETURN_IF_ERROR(PrepareUpload(inv, env, &p));
  if (IsRelease(inv.command)) {
    if (inv.request_id.empty()) {
      p.request_id =
          env.new_request_id ? env.new_request_id() : GenerateRequestId();
      p.generated_request_id = true;
    } else {
      p.request_id = inv.request_id;
    }
  }
  return p;
}

absl::Status MissingStub(absl::string_view service) {
  return absl::InternalError(
      absl::StrCat("No ", service, " stub: the connection is incomplete."));
}

// Waits for the one operation in flight on `cq`; its `ok`.
bool Await(grpc::CompletionQueue& cq) {
  void* tag = nullptr;
  bool ok = false;
  return cq.Next(&tag, &ok) && ok;
}

// What a reply that does not parse means: the server did what it was asked
// (its status is OK) but sent an answer this dpq cannot read, e.g. a text
// field that is not valid UTF-8.
absl::Status UnreadableAnswer(absl::string_view rpc) {
  return absl::InternalError(absl::StrCat(
      "The server reports that ", rpc,
      " succeeded, but its answer could not be parsed (for example, a text "
      "field that is not valid UTF-8), so dpq cannot show it."));
}

// Streams the header and the CSV chunks of an upload. `prepare` prepares
// the client-streaming call (PrepareAsyncRegisterDataset or
// PrepareAsyncReplaceDataset). The asynchronous API, because the
// synchronous ClientWriter::Finish aborts the process when the server's
// reply does not parse; here that is an error like any other.
template <typename Request, typename Response, typename PrepareCall>
absl::Status Upload(PrepareCall prepare, absl::string_view rpc,
                    const Prepared& p, FileChunker* csv, Response* response) {
  grpc::ClientContext context;
  PrepareContext(p.call, &context);
  grpc::CompletionQueue cq;
  std::unique_ptr<grpc::ClientAsyncWriterInterface<Request>> writer =
      prepare(&context, response, &cq);
  if (writer == nullptr) {
    return absl::InternalError("The upload stream could not be opened.");
  }
  // One operation at a time, so one tag serves them all.
  void* const tag = &context;
  writer->StartCall(tag);
  bool open = Await(cq);
  if (open) {
    Request first;
    *first.mutable_header() = p.upload_header;
    writer->Write(first, tag);
    open = Await(cq);
  }
  absl::Status local = absl::OkStatus();
  while (open && csv != nullptr) {
    absl::StatusOr<std::optional<std::string>> chunk = csv->Next();
    if (!chunk.ok()) {
      local = chunk.status();
      context.TryCancel();
      break;
    }
    if (!chunk->has_value()) break;
    Request next;
    next.set_csv_chunk(std::move(**chunk));
    writer->Write(next, tag);
    open = Await(cq);
  }
  if (open && local.ok()) {
    writer->WritesDone(tag);
    Await(cq);
  }
  grpc::Status status;
  writer->Finish(&status, tag);
  // Finish fails only when the reply does not parse.
  const bool parsed = Await(cq);
  writer.reset();
  cq.Shutdown();
  void* ignored_tag;
  bool ignored_ok;
  while (cq.Next(&ignored_tag, &ignored_ok)) {
  }
  RETURN_IF_ERROR(local);
  if (!parsed && status.ok()) return UnreadableAnswer(rpc);
  return FromGrpcStatus(status);
}

v1::ReleaseCuboidsRequest CuboidsRequest(const Invocation& inv,
                                         const std::string& request_id) {
  v1::ReleaseCuboidsRequest req;
  req.set_dataset_id(inv.dataset_id);
  for (const std::vector<std::string>& dims : inv.cuboids) {
    v1::CuboidSpec* spec = req.add_cuboids();
    for (const std::string& dim : dims) spec->add_dimensions(dim);
  }
  req.set_epsilon(inv.epsilon);
  req.set_non_negative_integral(inv.integral);
  req.set_request_id(request_id);
  return req;
}

v1::TrainDecisionTreeRequest TreeRequest(const Invocation& inv,
                                         const std::string& request_id) {
  v1::TrainDecisionTreeRequest req;
  req.set_dataset_id(inv.dataset_id);
  req.set_label_column(inv.tree.label);
  req.set_positive_class(inv.tree.positive);
  for (const std::string& f : inv.tree.features) req.add_features(f);
  req.set_approach(inv.selection.approach);
  for (double w : inv.selection.weights) req.add_weights(w);
  req.set_sensitivity(inv.selection.sensitivity);
  req.set_epsilon(inv.epsilon);
  req.set_generations(inv.tree.generations);
  req.set_population(inv.tree.population);
  req.set_accuracy_epsilon(inv.tree.accuracy_epsilon);
  req.set_request_id(request_id);
  return req;
}

v1::SelectInfluentialNodesRequest TopNodesRequest(
    const Invocation& inv, const std::string& request_id) {
  v1::SelectInfluentialNodesRequest req;
  req.set_dataset_id(inv.dataset_id);
  req.set_k(inv.k);
  for (v1::NodeObjective o : inv.objectives) req.add_objectives(o);
  req.set_approach(inv.selection.approach);
  for (double w : inv.selection.weights) req.add_weights(w);
  req.set_sensitivity(inv.selection.sensitivity);
  req.set_epsilon(inv.epsilon);
  req.set_request_id(request_id);
  return req;
}

// What a command prints on stdout, and a failure to report after it (health:
// the server answered but is not SERVING).
struct CommandOutput {
  std::string text;
  absl::Status failure = absl::OkStatus();
};

// Runs the command against the server.
absl::StatusOr<CommandOutput> Execute(const Invocation& inv, Prepared& p,
                                      const Connection& conn) {
  const bool json = inv.global.json;
  grpc::ClientContext context;
  PrepareContext(p.call, &context);
  const bool buyer_call = IsBuyerCall(inv.command);
  if (buyer_call && conn.buyer == nullptr) return MissingStub("BuyerService");
  if (inv.command == Command::kHealth && conn.health == nullptr) {
    return MissingStub("Health");
  }
  if (!buyer_call && inv.command != Command::kHealth && conn.admin == nullptr) {
    return MissingStub("AdminService");
  }

  switch (inv.command) {
    case Command::kNone:
      return absl::InternalError("No command to run.");
    case Command::kHealth: {
      grpc::health::v1::HealthCheckRequest req;
      req.set_service("");
      grpc::health::v1::HealthCheckResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.health->Check(&context, req, &resp)));
      const std::string name =
          grpc::health::v1::HealthCheckResponse::ServingStatus_Name(
              resp.status());
      CommandOutput output{HealthText(name, json)};
      if (resp.status() != grpc::health::v1::HealthCheckResponse::SERVING) {
        output.failure = absl::UnavailableError(absl::StrCat(
            "The server answers but reports ", name, ", not SERVING."));
      }
      return output;
    }
    case Command::kDatasets: {
      v1::ListDatasetsResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.buyer->ListDatasets(
          &context, v1::ListDatasetsRequest(), &resp)));
      return CommandOutput{DatasetsText(resp, json)};
    }
    case Command::kDescribe: {
      v1::DescribeDatasetRequest req;
      req.set_dataset_id(inv.dataset_id);
      v1::DescribeDatasetResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.buyer->DescribeDataset(&context, req, &resp)));
      return CommandOutput{DescribeText(resp, json)};
    }
    case Command::kBudget: {
      v1::GetBudgetRequest req;
      req.set_dataset_id(inv.dataset_id);
      req.set_include_history(inv.history);
      req.set_history_limit(inv.limit);
      v1::GetBudgetResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.buyer->GetBudget(&context, req, &resp)));
      return CommandOutput{BudgetText(resp, inv.dataset_id, inv.history, json)};
    }
    case Command::kMeasure: {
      v1::MeasureInconsistencyRequest req;
      req.set_dataset_id(inv.dataset_id);
      req.set_measure(inv.measure);
      req.set_epsilon(inv.epsilon);
      req.set_method(inv.method);
      req.set_repair_method(inv.repair_method);
      req.set_request_id(p.request_id);
      v1::MeasureInconsistencyResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(
          conn.buyer->MeasureInconsistency(&context, req, &resp)));
      if (resp.request_id().empty()) resp.set_request_id(p.request_id);
      return CommandOutput{MeasureText(inv.dataset_id, resp, json)};
    }
    case Command::kReport: {
      v1::QualityReportRequest req;
      req.set_dataset_id(inv.dataset_id);
      req.set_epsilon(inv.epsilon);
      req.set_method(inv.method);
      req.set_repair_method(inv.repair_method);
      req.set_request_id(p.request_id);
      v1::QualityReportResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.buyer->QualityReport(&context, req, &resp)));
      if (resp.request_id().empty()) resp.set_request_id(p.request_id);
      return CommandOutput{ReportText(inv.dataset_id, resp, json)};
    }
    case Command::kCuboids: {
      v1::ReleaseCuboidsResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.buyer->ReleaseCuboids(
          &context, CuboidsRequest(inv, p.request_id), &resp)));
      if (resp.request_id().empty()) resp.set_request_id(p.request_id);
      return CommandOutput{CuboidsText(inv.dataset_id, resp, json)};
    }
    case Command::kTree: {
      v1::TrainDecisionTreeResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.buyer->TrainDecisionTree(
          &context, TreeRequest(inv, p.request_id), &resp)));
      if (resp.request_id().empty()) resp.set_request_id(p.request_id);
      return CommandOutput{TreeText(inv.dataset_id, inv.tree.label,
                                    inv.tree.positive, resp, json)};
    }
    case Command::kTopNodes: {
      v1::SelectInfluentialNodesResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.buyer->SelectInfluentialNodes(
          &context, TopNodesRequest(inv, p.request_id), &resp)));
      if (resp.request_id().empty()) resp.set_request_id(p.request_id);
      return CommandOutput{TopNodesText(inv.dataset_id, resp, json)};
    }
    case Command::kAdminRegister: {
      v1::RegisterDatasetResponse resp;
      RETURN_IF_ERROR((Upload<v1::RegisterDatasetRequest>(
          [&conn](grpc::ClientContext* ctx, v1::RegisterDatasetResponse* r,
                  grpc::CompletionQueue* cq) {
            return conn.admin->PrepareAsyncRegisterDataset(ctx, r, cq);
          },
          "RegisterDataset", p, p.csv.has_value() ? &*p.csv : nullptr,
          &resp)));
      return CommandOutput{
          UploadText(resp.dataset(), resp.stats(), resp.notes(),
                     /*replaced=*/false, json)};
    }
    case Command::kAdminReplace: {
      v1::ReplaceDatasetResponse resp;
      RETURN_IF_ERROR((Upload<v1::ReplaceDatasetRequest>(
          [&conn](grpc::ClientContext* ctx, v1::ReplaceDatasetResponse* r,
                  grpc::CompletionQueue* cq) {
            return conn.admin->PrepareAsyncReplaceDataset(ctx, r, cq);
          },
          "ReplaceDataset", p, p.csv.has_value() ? &*p.csv : nullptr,
          &resp)));
      return CommandOutput{
          UploadText(resp.dataset(), resp.stats(), resp.notes(),
                     /*replaced=*/true, json)};
    }
    case Command::kAdminDelete: {
      v1::DeleteDatasetRequest req;
      req.set_dataset_id(inv.dataset_id);
      v1::DeleteDatasetResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->DeleteDataset(&context, req, &resp)));
      return CommandOutput{DeleteText(inv.dataset_id, json)};
    }
    case Command::kAdminDatasets: {
      v1::AdminListDatasetsResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(conn.admin->ListDatasets(
          &context, v1::AdminListDatasetsRequest(), &resp)));
      return CommandOutput{AdminDatasetsText(resp, json)};
    }
    case Command::kAdminCreateBuyer: {
      v1::CreateBuyerRequest req;
      req.set_name(inv.buyer_id);
      v1::CreateBuyerResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->CreateBuyer(&context, req, &resp)));
      return CommandOutput{CreateBuyerText(resp, json)};
    }
    case Command::kAdminRevokeBuyer: {
      v1::RevokeBuyerRequest req;
      req.set_buyer_id(inv.buyer_id);
      v1::RevokeBuyerResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->RevokeBuyer(&context, req, &resp)));
      return CommandOutput{RevokeBuyerText(inv.buyer_id, json)};
    }
    case Command::kAdminBuyers: {
      v1::ListBuyersResponse resp;
      RETURN_IF_ERROR(FromGrpcStatus(
          conn.admin->ListBuyers(&context, v1::ListBuyersRequest(), &resp)));
      return CommandOutput{BuyersText(resp, json)};
    }
    case Command::kAdminGrant: {
      v1::GrantBudgetRequest req;
      req.set_buyer_id(inv.buyer_id);
      req.set_dataset_id(inv.dataset_id);
      req.set_epsilon(inv.epsilon);
      v1::GrantBudgetResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->GrantBudget(&context, req, &resp)));
      return CommandOutput{BudgetChangeText(resp.budget(), json)};
    }
    case Command::kAdminSetBudget: {
      v1::SetBudgetRequest req;
      req.set_buyer_id(inv.buyer_id);
      req.set_dataset_id(inv.dataset_id);
      req.set_granted(inv.epsilon);
      v1::SetBudgetResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->SetBudget(&context, req, &resp)));
      return CommandOutput{BudgetChangeText(resp.budget(), json)};
    }
    case Command::kAdminSetCap: {
      v1::SetDatasetCapRequest req;
      req.set_dataset_id(inv.dataset_id);
      req.set_cap(inv.epsilon);
      v1::SetDatasetCapResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->SetDatasetCap(&context, req, &resp)));
      return CommandOutput{SetCapText(inv.dataset_id, inv.epsilon, json)};
    }
    case Command::kAdminLedger: {
      v1::ListLedgerRequest req;
      req.set_buyer_id(inv.buyer_filter);
      req.set_dataset_id(inv.dataset_filter);
      req.set_limit(inv.limit);
      v1::ListLedgerResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->ListLedger(&context, req, &resp)));
      return CommandOutput{LedgerText(resp, json)};
    }
    case Command::kAdminAudit: {
      v1::ListAuditLogRequest req;
      req.set_limit(inv.limit);
      v1::ListAuditLogResponse resp;
      RETURN_IF_ERROR(
          FromGrpcStatus(conn.admin->ListAuditLog(&context, req, &resp)));
      return CommandOutput{AuditText(resp, json)};
    }
  }
  return absl::InternalError("Unknown command.");
}

// Whether a failed release may or may not have happened on the server, so
// that the user should retry with the same request id.
bool OutcomeUncertain(absl::StatusCode code) {
  return code == absl::StatusCode::kDeadlineExceeded ||
         code == absl::StatusCode::kUnavailable ||
         code == absl::StatusCode::kCancelled ||
         code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kInternal ||
         code == absl::StatusCode::kAborted;
}

}  // namespace

CliEnv DefaultCliEnv() {
  CliEnv env;
  env.getenv = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  env.connect = ConnectGrpc;
  env.new_request_id = [] { return GenerateRequestId(); };
  return env;
}

int RunCli(const std::vector<std::string>& args, const CliEnv& env,
           std::ostream& out, std::ostream& err) {
  std::string usage_hint;
  absl::StatusOr<Invocation> inv =
      ParseCommandLine(args, env.getenv, &usage_hint);
  if (!inv.ok()) {
    err << "dpq: " << inv.status().message() << "\n" << usage_hint;
    return kExitUsage;
  }
  if (inv->help) {
    out << (inv->command == Command::kNone ? GeneralUsage()
                                           : CommandUsage(inv->command));
    return kExitOk;
  }
  absl::StatusOr<Prepared> prepared = Prepare(*inv, env, err);
  if (!prepared.ok()) {
    err << ErrorLine(prepared.status()) << "\n";
    return kExitError;
  }
  if (!env.connect) {
    err << ErrorLine(absl::InternalError("No way to connect.")) << "\n";
    return kExitError;
  }
  absl::StatusOr<Connection> conn = env.connect(prepared->connection);
  if (!conn.ok()) {
    err << ErrorLine(conn.status()) << "\n";
    return kExitError;
  }
  absl::StatusOr<CommandOutput> output = Execute(*inv, *prepared, *conn);
  if (!output.ok()) {
    std::string line = ErrorLine(output.status());
    if (prepared->generated_request_id &&
        OutcomeUncertain(output.status().code())) {
      absl::StrAppend(&line, " (request id ", prepared->request_id,
                      ": retry with --request-id ", prepared->request_id,
                      " to get its answer without a second charge)");
    }
    err << line << "\n";
    return kExitError;
  }
  out << output->text;
  if (!output->failure.ok()) {
    err << ErrorLine(output->failure) << "\n";
    return kExitError;
  }
  return kExitOk;
}

}  // namespace dpq::client
