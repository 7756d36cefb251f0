#include "server/registry/dataset_id.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace dpq::server::registry {

absl::Status ValidateId(const std::string& id, const char* field) {
  if (id.empty() || id.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must have 1-64 characters from [A-Za-z0-9_.-], but '", id,
        "' has ", id.size(), "."));
  }
  if (!absl::ascii_isalnum(static_cast<unsigned char>(id[0]))) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must start with a letter or digit, but is '", id, "'."));
  }
  for (const char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '.' && c != '-') {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " may only contain [A-Za-z0-9_.-], but '", id, "' contains '",
          absl::CEscape(absl::string_view(&c, 1)), "'."));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::registry
