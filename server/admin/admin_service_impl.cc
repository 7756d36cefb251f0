#include "server/admin/admin_service_impl.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/error_details.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "server/auth/token.h"
#include "server/call_context.h"
#include "server/call_handler.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_pager.h"
#include "server/request_log.h"

namespace dpq::server::admin {
namespace {

using ::dpq::server::auth::Principal;
using ::dpq::server::auth::Role;

// An upload's stream ended early because the call is over: the deadline
// passed (gRPC then reports the call as cancelled too) or the client
// cancelled.
absl::Status CheckUploadCall(const CallContext& call) {
  if (!(call.cancelled && call.cancelled())) return absl::OkStatus();
  if (absl::Now() >= call.deadline) {
    return absl::DeadlineExceededError(
        "The deadline passed while the upload was being read.");
  }
  return absl::CancelledError("The client cancelled the upload.");
}

struct Upload {
  v1::DatasetUploadHeader header;
  std::string csv;
};

// Reads a RegisterDataset/ReplaceDataset stream: the header first, then the
// CSV chunks, at most `max_bytes` of them.
template <typename Request>
absl::StatusOr<Upload> ReadUpload(const CallContext& call,
                                  grpc::ServerReaderInterface<Request>& reader,
                                  uint64_t max_bytes) {
  Request message;
  if (!reader.Read(&message)) {
    RETURN_IF_ERROR(CheckUploadCall(call));
    // gRPC reports a first message that does not parse (a `string` field
    // of the manifest with invalid UTF-8, e.g. a Latin-1 constraints file)
    // exactly like an empty stream, so the message names both.
    return core::util::InvalidFieldError(
        "header",
        "No upload header arrived: the stream was empty, or its first "
        "message could not be parsed. The first message must carry the "
        "`header` (manifest and optional server_path), and every text in "
        "the manifest (constraints, description, column names, labels) "
        "must be valid UTF-8.");
  }
  if (!message.has_header()) {
    return core::util::InvalidFieldError(
        "header",
        "The first message of an upload must carry the `header` (manifest "
        "and optional server_path), not a csv_chunk.");
  }
  Upload upload{std::move(*message.mutable_header()), std::string()};
  // The client's size hint: one allocation instead of a doubling per few
  // chunks (each copying what came so far). Within the limit, and only
  // admins get here (HandleCall checked the caller first).
  upload.csv.reserve(std::min<uint64_t>(upload.header.csv_bytes(), max_bytes));
  while (reader.Read(&message)) {
    RETURN_IF_ERROR(CheckUploadCall(call));
    if (message.has_header()) {
      return core::util::InvalidFieldError(
          "header",
          "`header` must be sent exactly once, as the first message of the "
          "upload.");
    }
    if (!upload.header.server_path().empty()) {
      return core::util::InvalidFieldError(
          "csv_chunk",
          absl::StrCat(
              "`csv_chunk` must not follow a header with server_path '",
              upload.header.server_path(), "': send one or the other."));
    }
    const std::string& chunk = message.csv_chunk();
    if (upload.csv.size() + chunk.size() > max_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The CSV upload exceeds the server's max_upload_bytes = ", max_bytes,
          " bytes."));
    }
    upload.csv.append(chunk);
  }
  RETURN_IF_ERROR(CheckUploadCall(call));
  return upload;
}

absl::Status ValidateListLimit(uint32_t limit, size_t* out) {
  if (limit > kMaxListLimit) {
    return core::util::InvalidFieldError(
        "limit", absl::StrCat("limit must be at most ", kMaxListLimit,
                              ", but is ", limit, "."));
  }
  *out = limit == 0 ? kDefaultListLimit : limit;
  return absl::OkStatus();
}

// A file read from the server's disk is never quoted in errors.
registry::CsvSource SourceOf(const v1::DatasetUploadHeader& header) {
  return header.server_path().empty() ? registry::CsvSource::kUpload
                                      : registry::CsvSource::kServerPath;
}

void WriteBuyer(const auth::Account& account, v1::Buyer* out) {
  out->set_buyer_id(account.id);
  *out->mutable_created_at() = ToTimestamp(account.created_at);
  out->set_revoked(account.revoked);
}

}  // namespace

AdminServiceImpl::AdminServiceImpl(registry::DatasetRegistry* registry,
                                   core::ledger::LedgerStore* ledger,
                                   auth::AccountsStore* accounts,
                                   uint64_t max_upload_bytes)
    : registry_(registry),
      ledger_(ledger),
      accounts_(accounts),
      max_upload_bytes_(max_upload_bytes) {}

// ---- gRPC handlers: log fields, then the skeleton (server/call_handler.h) --

grpc::Status AdminServiceImpl::RegisterDataset(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::RegisterDatasetRequest>* reader,
    v1::RegisterDatasetResponse* response) {
  RequestLog log("AdminService.RegisterDataset", response);
  return HandleCall(
      log, *context, *accounts_, Access::kAdmin,
      [&](const Principal& caller, const CallContext& call) -> absl::Status {
        // Before the upload is read: registered_at must not tell buyers
        // how long these rows took to arrive or build.
        const absl::Time received_at = absl::Now();
        ASSIGN_OR_RETURN(Upload upload,
                         ReadUpload(call, *reader, max_upload_bytes_));
        log.set_dataset(upload.header.manifest().dataset_id());
        return RegisterDatasetImpl(caller, upload.header, std::move(upload.csv),
                                   response, call.deadline, received_at);
      });
}

grpc::Status AdminServiceImpl::ReplaceDataset(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::ReplaceDatasetRequest>* reader,
    v1::ReplaceDatasetResponse* response) {
  RequestLog log("AdminService.ReplaceDataset", response);
  return HandleCall(
      log, *context, *accounts_, Access::kAdmin,
      [&](const Principal& caller, const CallContext& call) -> absl::Status {
        // Before the upload is read: registered_at must not tell buyers
        // how long these rows took to arrive or build.
        const absl::Time received_at = absl::Now();
        ASSIGN_OR_RETURN(Upload upload,
                         ReadUpload(call, *reader, max_upload_bytes_));
        log.set_dataset(upload.header.manifest().dataset_id());
        return ReplaceDatasetImpl(caller, upload.header, std::move(upload.csv),
                                  response, call.deadline, received_at);
      });
}

grpc::Status AdminServiceImpl::DeleteDataset(
    grpc::ServerContext* context, const v1::DeleteDatasetRequest* request,
    v1::DeleteDatasetResponse* response) {
  RequestLog log("AdminService.DeleteDataset", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return DeleteDatasetImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListDatasets(
    grpc::ServerContext* context, const v1::AdminListDatasetsRequest* request,
    v1::AdminListDatasetsResponse* response) {
  RequestLog log("AdminService.ListDatasets", response);
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return ListDatasetsImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::CreateBuyer(
    grpc::ServerContext* context, const v1::CreateBuyerRequest* request,
    v1::CreateBuyerResponse* response) {
  RequestLog log("AdminService.CreateBuyer", response);
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return CreateBuyerImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::RevokeBuyer(
    grpc::ServerContext* context, const v1::RevokeBuyerRequest* request,
    v1::RevokeBuyerResponse* response) {
  RequestLog log("AdminService.RevokeBuyer", response);
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return RevokeBuyerImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListBuyers(grpc::ServerContext* context,
                                          const v1::ListBuyersRequest* request,
                                          v1::ListBuyersResponse* response) {
  RequestLog log("AdminService.ListBuyers", response);
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return ListBuyersImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::GrantBudget(
    grpc::ServerContext* context, const v1::GrantBudgetRequest* request,
    v1::GrantBudgetResponse* response) {
  RequestLog log("AdminService.GrantBudget", response);
  log.set_dataset(request->dataset_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return GrantBudgetImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::SetBudget(grpc::ServerContext* context,
                                         const v1::SetBudgetRequest* request,
                                         v1::SetBudgetResponse* response) {
  RequestLog log("AdminService.SetBudget", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return SetBudgetImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::SetDatasetCap(
    grpc::ServerContext* context, const v1::SetDatasetCapRequest* request,
    v1::SetDatasetCapResponse* response) {
  RequestLog log("AdminService.SetDatasetCap", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return SetDatasetCapImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListLedger(grpc::ServerContext* context,
                                          const v1::ListLedgerRequest* request,
                                          v1::ListLedgerResponse* response) {
  RequestLog log("AdminService.ListLedger", response);
  if (!request->dataset_id().empty()) log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return ListLedgerImpl(caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListAuditLog(
    grpc::ServerContext* context, const v1::ListAuditLogRequest* request,
    v1::ListAuditLogResponse* response) {
  RequestLog log("AdminService.ListAuditLog", response);
  return HandleCall(log, *context, *accounts_, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return ListAuditLogImpl(caller, *request, response);
                    });
}

// ---- Pure implementations ------------------------------------------------

absl::StatusOr<std::string> AdminServiceImpl::UploadedCsv(
    const v1::DatasetUploadHeader& header, std::string csv) const {
  RETURN_IF_ERROR(registry::ValidateId(header.manifest().dataset_id(),
                                       "header.manifest.dataset_id"));
  if (!header.server_path().empty()) {
    if (!csv.empty()) {
      return core::util::InvalidFieldError(
          "csv_chunk",
          absl::StrCat(
              "`csv_chunk` must not follow a header with server_path '",
              header.server_path(), "': send one or the other."));
    }
    ASSIGN_OR_RETURN(csv, registry_->ReadServerFile(header.server_path()));
  }
  if (csv.size() > max_upload_bytes_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("The CSV has ", csv.size(),
                     " bytes, above the server's "
                     "max_upload_bytes = ",
                     max_upload_bytes_, " bytes."));
  }
  if (csv.empty()) {
    return core::util::InvalidFieldError(
        "csv_chunk",
        "The CSV is empty: send csv_chunk messages after the header, or set "
        "header.server_path.");
  }
  return csv;
}

absl::Status AdminServiceImpl::RegisterDatasetImpl(
    const Principal& caller, const v1::DatasetUploadHeader& header,
    std::string csv, v1::RegisterDatasetResponse* response, absl::Time deadline,
    std::optional<absl::Time> received_at) {
  // Before a server_path file is read (see DatasetRegistry::Register).
  if (!received_at.has_value()) received_at = absl::Now();
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  ASSIGN_OR_RETURN(csv, UploadedCsv(header, std::move(csv)));
  ASSIGN_OR_RETURN(
      std::shared_ptr<const registry::LoadedDataset> dataset,
      registry_->Register(header.manifest(), std::move(csv), SourceOf(header),
                          deadline, received_at));
  *response->mutable_dataset() = dataset->PublicInfo();
  *response->mutable_stats() = dataset->Stats();
  for (const std::string& note : dataset->notes) response->add_notes(note);
  Audit(
      caller, "RegisterDataset",
      absl::StrCat("dataset=", header.manifest().dataset_id(),
                   dataset->is_graph() ? " kind=graph" : "",
                   " rows=", response->stats().rows(),
                   header.server_path().empty()
                       ? std::string(" source=upload")
                       : absl::StrCat(" server_path=", header.server_path())));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::ReplaceDatasetImpl(
    const Principal& caller, const v1::DatasetUploadHeader& header,
    std::string csv, v1::ReplaceDatasetResponse* response, absl::Time deadline,
    std::optional<absl::Time> received_at) {
  // Before a server_path file is read (see DatasetRegistry::Register).
  if (!received_at.has_value()) received_at = absl::Now();
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  ASSIGN_OR_RETURN(csv, UploadedCsv(header, std::move(csv)));
  ASSIGN_OR_RETURN(std::shared_ptr<const registry::LoadedDataset> dataset,
                   registry_->Replace(header.manifest(), std::move(csv),
                                      SourceOf(header), deadline, received_at));
  *response->mutable_dataset() = dataset->PublicInfo();
  *response->mutable_stats() = dataset->Stats();
  for (const std::string& note : dataset->notes) response->add_notes(note);
  Audit(
      caller, "ReplaceDataset",
      absl::StrCat("dataset=", header.manifest().dataset_id(),
                   dataset->is_graph() ? " kind=graph" : "",
                   " rows=", response->stats().rows(),
                   " version=", response->dataset().version(),
                   header.server_path().empty()
                       ? std::string(" source=upload")
                       : absl::StrCat(" server_path=", header.server_path())));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::DeleteDatasetImpl(
    const Principal& caller, const v1::DeleteDatasetRequest& request,
    v1::DeleteDatasetResponse* /*response*/) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  RETURN_IF_ERROR(registry_->Delete(request.dataset_id()));
  Audit(caller, "DeleteDataset",
        absl::StrCat("dataset=", request.dataset_id()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::ListDatasetsImpl(
    const Principal& caller, const v1::AdminListDatasetsRequest& request,
    v1::AdminListDatasetsResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  ASSIGN_OR_RETURN(
      registry::DatasetPager page,
      registry::DatasetPager::Start(request.page_size(), request.page_token()));
  for (const std::shared_ptr<const registry::LoadedDataset>& dataset :
       registry_->List()) {
    const std::string& id = dataset->manifest.dataset_id();
    if (!page.After(id)) continue;
    v1::AdminDatasetInfo info;
    *info.mutable_dataset() = dataset->PublicInfo();
    *info.mutable_stats() = dataset->Stats();
    ASSIGN_OR_RETURN(const core::ledger::DatasetTotals totals,
                     ledger_->GetDatasetTotals(id));
    info.set_cap(core::ledger::FromUnits(totals.cap_units));
    info.set_cap_units(totals.cap_units);
    info.set_spent_all_buyers(core::ledger::FromUnits(totals.spent_units));
    info.set_spent_all_buyers_units(totals.spent_units);
    if (!page.Add(id, info.ByteSizeLong())) break;
    *response->add_datasets() = std::move(info);
  }
  response->set_next_page_token(page.next_page_token());
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::CreateBuyerImpl(
    const Principal& caller, const v1::CreateBuyerRequest& request,
    v1::CreateBuyerResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(registry::ValidateId(request.name(), "name"));
  if (request.name() == auth::kAdminId) {
    return core::util::InvalidFieldError(
        "name",
        "name 'admin' is reserved for the admin principal: choose another "
        "buyer name.");
  }
  ASSIGN_OR_RETURN(std::string token, auth::GenerateToken());
  absl::StatusOr<auth::Account> account = accounts_->Create(
      request.name(), Role::kBuyer, core::util::Sha256Hex(token));
  if (absl::IsAlreadyExists(account.status())) {
    return absl::AlreadyExistsError(absl::StrCat(
        "A buyer named '", request.name(), "' already exists (name)."));
  }
  RETURN_IF_ERROR(account.status());
  WriteBuyer(*account, response->mutable_buyer());
  response->set_token(std::move(token));
  Audit(caller, "CreateBuyer", absl::StrCat("buyer=", request.name()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::CheckBuyerExists(
    const std::string& buyer_id) const {
  RETURN_IF_ERROR(registry::ValidateId(buyer_id, "buyer_id"));
  absl::StatusOr<auth::Account> account = accounts_->Get(buyer_id);
  if ((account.ok() && account->role != Role::kBuyer) ||
      absl::IsNotFound(account.status())) {
    return absl::NotFoundError(
        absl::StrCat("No buyer named '", buyer_id, "' (buyer_id)."));
  }
  return account.status();
}

absl::Status AdminServiceImpl::RevokeBuyerImpl(
    const Principal& caller, const v1::RevokeBuyerRequest& request,
    v1::RevokeBuyerResponse* /*response*/) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(CheckBuyerExists(request.buyer_id()));
  RETURN_IF_ERROR(accounts_->Revoke(request.buyer_id()));
  Audit(caller, "RevokeBuyer", absl::StrCat("buyer=", request.buyer_id()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::ListBuyersImpl(
    const Principal& caller, const v1::ListBuyersRequest& /*request*/,
    v1::ListBuyersResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  ASSIGN_OR_RETURN(const std::vector<auth::Account> buyers,
                   accounts_->List(Role::kBuyer));
  for (const auth::Account& buyer : buyers) {
    WriteBuyer(buyer, response->add_buyers());
  }
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::GrantBudgetImpl(
    const Principal& caller, const v1::GrantBudgetRequest& request,
    v1::GrantBudgetResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(CheckBuyerExists(request.buyer_id()));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  if (!std::isfinite(request.epsilon()) || request.epsilon() <= 0) {
    return core::util::InvalidFieldError(
        "epsilon", absl::StrCat("epsilon must be finite and > 0, but is ",
                                request.epsilon(), "."));
  }
  RETURN_IF_ERROR(registry_->Get(request.dataset_id()).status());
  ASSIGN_OR_RETURN(const core::ledger::BudgetState budget,
                   ledger_->Grant(request.buyer_id(), request.dataset_id(),
                                  request.epsilon()));
  *response->mutable_budget() = ToProto(budget);
  Audit(caller, "GrantBudget",
        absl::StrCat("buyer=", request.buyer_id(), " dataset=",
                     request.dataset_id(), " epsilon=", request.epsilon()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::SetBudgetImpl(
    const Principal& caller, const v1::SetBudgetRequest& request,
    v1::SetBudgetResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(CheckBuyerExists(request.buyer_id()));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  if (!std::isfinite(request.granted()) || request.granted() < 0) {
    return core::util::InvalidFieldError(
        "granted", absl::StrCat("granted must be finite and >= 0, but is ",
                                request.granted(), "."));
  }
  RETURN_IF_ERROR(registry_->Get(request.dataset_id()).status());
  ASSIGN_OR_RETURN(const core::ledger::BudgetState budget,
                   ledger_->SetGranted(request.buyer_id(), request.dataset_id(),
                                       request.granted()));
  *response->mutable_budget() = ToProto(budget);
  Audit(caller, "SetBudget",
        absl::StrCat("buyer=", request.buyer_id(), " dataset=",
                     request.dataset_id(), " granted=", request.granted()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::SetDatasetCapImpl(
    const Principal& caller, const v1::SetDatasetCapRequest& request,
    v1::SetDatasetCapResponse* /*response*/) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  if (!std::isfinite(request.cap()) || request.cap() < 0) {
    return core::util::InvalidFieldError(
        "cap",
        absl::StrCat("cap must be finite and >= 0 (0 removes the cap), but is ",
                     request.cap(), "."));
  }
  RETURN_IF_ERROR(registry_->Get(request.dataset_id()).status());
  RETURN_IF_ERROR(ledger_->SetDatasetCap(request.dataset_id(), request.cap()));
  Audit(caller, "SetDatasetCap",
        absl::StrCat("dataset=", request.dataset_id(), " cap=", request.cap()));
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::ListLedgerImpl(
    const Principal& caller, const v1::ListLedgerRequest& request,
    v1::ListLedgerResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  core::ledger::LedgerFilter filter;
  filter.buyer_id = request.buyer_id();
  filter.dataset_id = request.dataset_id();
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &filter.limit));
  if (!filter.buyer_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.buyer_id, "buyer_id"));
  }
  if (!filter.dataset_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(filter.dataset_id, "dataset_id"));
  }
  ASSIGN_OR_RETURN(const std::vector<core::ledger::LedgerEntry> entries,
                   ledger_->ListEntries(filter));
  for (const core::ledger::LedgerEntry& entry : entries) {
    *response->add_entries() = ToProto(entry);
  }
  ASSIGN_OR_RETURN(const std::vector<core::ledger::BudgetState> budgets,
                   ledger_->ListBudgets(filter));
  for (const core::ledger::BudgetState& budget : budgets) {
    *response->add_budgets() = ToProto(budget);
  }
  return absl::OkStatus();
}

absl::Status AdminServiceImpl::ListAuditLogImpl(
    const Principal& caller, const v1::ListAuditLogRequest& request,
    v1::ListAuditLogResponse* response) {
  RETURN_IF_ERROR(auth::CheckAdmin(caller));
  size_t limit = 0;
  RETURN_IF_ERROR(ValidateListLimit(request.limit(), &limit));
  ASSIGN_OR_RETURN(const std::vector<auth::AuditRecord> records,
                   accounts_->ListAudit(limit));
  for (const auth::AuditRecord& record : records) {
    v1::AuditEntry* entry = response->add_entries();
    *entry->mutable_time() = ToTimestamp(record.time);
    entry->set_actor(record.actor);
    entry->set_action(record.action);
    entry->set_details(record.details);
  }
  return absl::OkStatus();
}

void AdminServiceImpl::Audit(const Principal& caller, const char* action,
                             const std::string& details) {
  const absl::Status status =
      accounts_->AppendAudit(caller.id, action, details);
  if (!status.ok()) {
    std::fprintf(stderr,
                 "dpq-server: ERROR: audit entry for %s (%s) lost: %s\n",
                 action, details.c_str(), status.ToString().c_str());
  }
}

}  // namespace dpq::server::admin
