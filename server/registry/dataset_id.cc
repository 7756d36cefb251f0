#include "server/registry/dataset_id.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/util/error_details.h"

namespace dpq::server::registry {

absl::Status ValidateId(const std::string& id, const char* field) {
  if (id.empty() || id.size() > 64) {
    return core::util::InvalidFieldError(
        field,
        absl::StrCat(field,
                     " must have 1-64 characters from [A-Za-z0-9_.-], but '",
                     id, "' has ", id.size(), "."));
  }
  if (!absl::ascii_isalnum(static_cast<unsigned char>(id[0]))) {
    return core::util::InvalidFieldError(
        field,
        absl::StrCat(field, " must start with a letter or digit, but is '", id,
                     "'."));
  }
  for (const char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '.' && c != '-') {
      return core::util::InvalidFieldError(
          field, absl::StrCat(field, " may only contain [A-Za-z0-9_.-], but '",
                              id, "' contains '",
                              absl::CEscape(absl::string_view(&c, 1)), "'."));
    }
  }
  return absl::OkStatus();
}

absl::Status DatasetNotFoundError(absl::string_view dataset_id,
                                  absl::string_view hint) {
  core::util::ErrorDetails d;
  d.reason = core::util::kReasonDatasetNotFound;
  d.metadata["dataset_id"] = std::string(dataset_id);
  d.resource = {"dpq.v1.Dataset", std::string(dataset_id),
                "No dataset with this id is served."};
  return core::util::WithErrorDetails(
      absl::NotFoundError(
          absl::StrCat("Dataset '", dataset_id, "' does not exist", hint, ".")),
      d);
}

absl::Status DatasetRefusedError(absl::string_view dataset_id) {
  core::util::ErrorDetails d;
  d.reason = core::util::kReasonUnavailable;
  d.metadata["dataset_id"] = std::string(dataset_id);
  d.retry_delay_ms = kDatasetRefusedRetryDelayMs;
  return core::util::WithErrorDetails(
      absl::UnavailableError(absl::StrCat(
          "Dataset '", dataset_id,
          "' is not served by this server: its stored version failed a "
          "check when it was loaded (the operator is told); nothing was "
          "charged. Retry later or through another replica.")),
      d);
}

}  // namespace dpq::server::registry
