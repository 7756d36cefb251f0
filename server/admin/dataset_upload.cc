#include "server/admin/dataset_upload.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/time/clock.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::admin {
namespace {

// A file read from the server's disk is never quoted in errors.
registry::CsvSource SourceOf(const v1::DatasetUploadHeader& header) {
  return header.server_path().empty() ? registry::CsvSource::kUpload
                                      : registry::CsvSource::kServerPath;
}

// The CSV to register: the uploaded bytes, or the server_path file. The id
// is checked first, so that no server file is opened for a bad one.
absl::StatusOr<std::string> ResolveCsv(const AdminCore& service,
                                       const Upload& upload, std::string csv) {
  const v1::DatasetUploadHeader& header = upload.header;
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
    ASSIGN_OR_RETURN(csv,
                     service.registry->ReadServerFile(header.server_path()));
  }
  if (csv.empty()) {
    return core::util::InvalidFieldError(
        "csv_chunk",
        "The CSV is empty: send csv_chunk messages after the header, or set "
        "header.server_path.");
  }
  return csv;
}

// The audit details of a registration or replacement.
std::string AuditDetails(const v1::DatasetUploadHeader& header,
                         const registry::LoadedDataset& dataset,
                         const std::string& version) {
  return absl::StrCat(
      "dataset=", header.manifest().dataset_id(),
      dataset.is_graph() ? " kind=graph" : "", " rows=", dataset.Stats().rows(),
      version,
      header.server_path().empty()
          ? std::string(" source=upload")
          : absl::StrCat(" server_path=", header.server_path()));
}

// Register and Replace: the same steps around the registry's write.
template <typename Response, typename Write>
absl::Status WriteUpload(const AdminCore& service,
                         const auth::Principal& caller, Upload upload,
                         Response* response, const char* action,
                         bool audit_version, Write write) {
  std::string csv = std::move(upload.csv);
  ASSIGN_OR_RETURN(csv, ResolveCsv(service, upload, std::move(csv)));
  ASSIGN_OR_RETURN(
      std::shared_ptr<const registry::LoadedDataset> dataset,
      write(upload.header.manifest(), std::move(csv), SourceOf(upload.header)));
  *response->mutable_dataset() = dataset->PublicInfo();
  *response->mutable_stats() = dataset->Stats();
  for (const std::string& note : dataset->notes) response->add_notes(note);
  service.Audit(
      caller, action,
      AuditDetails(upload.header, *dataset,
                   audit_version ? absl::StrCat(" version=",
                                                response->dataset().version())
                                 : std::string()));
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckUploadCall(const CallContext& call) {
  if (!(call.cancelled && call.cancelled())) return absl::OkStatus();
  if (absl::Now() >= call.deadline) {
    return absl::DeadlineExceededError(
        "The deadline passed while the upload was being read.");
  }
  return absl::CancelledError("The client cancelled the upload.");
}

absl::Status MissingHeaderError() {
  // gRPC reports a first message that does not parse (a `string` field of
  // the manifest with invalid UTF-8, e.g. a Latin-1 constraints file)
  // exactly like an empty stream, so the message names both.
  return core::util::InvalidFieldError(
      "header",
      "No upload header arrived: the stream was empty, or its first "
      "message could not be parsed. The first message must carry the "
      "`header` (manifest and optional server_path), and every text in "
      "the manifest (constraints, description, column names, labels) "
      "must be valid UTF-8.");
}

absl::Status RegisterDatasetImpl(const AdminCore& service,
                                 const auth::Principal& caller, Upload upload,
                                 v1::RegisterDatasetResponse* response,
                                 absl::Time deadline, absl::Time received_at) {
  return WriteUpload(service, caller, std::move(upload), response,
                     "RegisterDataset", /*audit_version=*/false,
                     [&](const v1::DatasetManifest& manifest, std::string csv,
                         registry::CsvSource source) {
                       return service.registry->Register(manifest,
                                                         std::move(csv), source,
                                                         deadline, received_at);
                     });
}

absl::Status ReplaceDatasetImpl(const AdminCore& service,
                                const auth::Principal& caller, Upload upload,
                                v1::ReplaceDatasetResponse* response,
                                absl::Time deadline, absl::Time received_at) {
  return WriteUpload(service, caller, std::move(upload), response,
                     "ReplaceDataset", /*audit_version=*/true,
                     [&](const v1::DatasetManifest& manifest, std::string csv,
                         registry::CsvSource source) {
                       return service.registry->Replace(manifest,
                                                        std::move(csv), source,
                                                        deadline, received_at);
                     });
}

}  // namespace dpq::server::admin
