#include "server/registry/server_import.h"

#include <sys/stat.h>

#include <array>
#include <filesystem>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "server/registry/synced_file.h"
#include "server/registry/upload_limit.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;

// Absolute and lexically normal, without a trailing separator.
fs::path Normal(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  fs::path normal = absolute.lexically_normal();
  if (!normal.has_filename() && normal.has_relative_path()) {
    normal = normal.parent_path();
  }
  return normal;
}

// True if `path` lies strictly below `dir` (both normal).
bool IsWithin(const fs::path& path, const fs::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    if (p == path.end() || *p != *d) return false;
  }
  return p != path.end();
}

// The fields a build error starts with ("csv: ...", "public_cuboids[1]:
// ..."), written by the server (dataset_builder.h and the builders it
// calls), never by the file.
constexpr std::array<absl::string_view, 10> kFields = {"csv",
                                                       "constraints",
                                                       "column_types",
                                                       "cube_dimensions",
                                                       "public_cuboids",
                                                       "null_values",
                                                       "public_max_rows",
                                                       "node_labels",
                                                       "node_count",
                                                       "edges"};

// Consumes "<field>: " or "<field>[<digits>]: " for a field of kFields.
bool ConsumeField(absl::string_view* text, std::string* field) {
  for (absl::string_view name : kFields) {
    absl::string_view rest = *text;
    if (!absl::ConsumePrefix(&rest, name)) continue;
    std::string index;
    if (absl::ConsumePrefix(&rest, "[")) {
      while (!rest.empty() && absl::ascii_isdigit(rest.front())) {
        index.push_back(rest.front());
        rest.remove_prefix(1);
      }
      if (index.empty() || !absl::ConsumePrefix(&rest, "]")) continue;
    }
    if (!absl::ConsumePrefix(&rest, ": ")) continue;
    *field =
        index.empty() ? std::string(name) : absl::StrCat(name, "[", index, "]");
    *text = rest;
    return true;
  }
  return false;
}

// Consumes "<word> <digits>" (e.g. "line 12").
bool ConsumeNumbered(absl::string_view* text, absl::string_view word,
                     std::string* out) {
  absl::string_view rest = *text;
  if (!absl::ConsumePrefix(&rest, word) || !absl::ConsumePrefix(&rest, " ")) {
    return false;
  }
  std::string digits;
  while (!rest.empty() && absl::ascii_isdigit(rest.front()) &&
         digits.size() < 20) {
    digits.push_back(rest.front());
    rest.remove_prefix(1);
  }
  if (digits.empty()) return false;
  *out = absl::StrCat(word, " ", digits);
  *text = rest;
  return true;
}

}  // namespace

absl::StatusOr<std::string> ResolveImportPath(const std::string& server_path,
                                              const std::string& import_dir,
                                              const std::string& data_dir) {
  if (import_dir.empty()) {
    return absl::FailedPreconditionError(
        "Imports by server_path are off on this server: start dpq-server "
        "with --import-dir DIR (config key import_dir) and put the CSV in "
        "DIR, or upload the file instead (dpq admin register --data FILE).");
  }
  if (server_path.empty()) {
    return absl::InvalidArgumentError("server_path must not be empty.");
  }
  if (server_path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        "server_path must not contain a NUL byte.");
  }
  std::error_code ec;
  const fs::path import_real = fs::canonical(import_dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("The server's import_dir '", import_dir,
                     "' cannot be resolved: ", ec.message(), "."));
  }
  const fs::path requested(server_path);
  const fs::path candidate =
      requested.is_absolute() ? requested : fs::path(import_dir) / requested;
  const absl::Status outside = absl::PermissionDeniedError(absl::StrCat(
      "server_path '", server_path, "' is outside the import directory '",
      import_dir,
      "' (after following symbolic links and '..'); only files in it can be "
      "imported."));
  // The kernel's answer: every symbolic link and ".." resolved in order.
  const fs::path real = fs::canonical(candidate, ec);
  if (ec) {
    // Say "does not exist" only inside the import directory, so that
    // refusals tell nothing about files elsewhere.
    const fs::path normal = Normal(candidate);
    if (!IsWithin(normal, Normal(import_dir)) &&
        !IsWithin(normal, import_real)) {
      return outside;
    }
    if (ec == std::errc::no_such_file_or_directory) {
      return absl::NotFoundError(absl::StrCat(
          "server_path '", server_path,
          "' does not exist in the import directory '", import_dir, "'."));
    }
    return absl::PermissionDeniedError(
        absl::StrCat("server_path '", server_path,
                     "' cannot be resolved: ", ec.message(), "."));
  }
  if (!IsWithin(real, import_real)) return outside;
  const fs::path data_real = fs::canonical(data_dir, ec);
  const fs::path data = ec ? Normal(data_dir) : data_real;
  if (!data_dir.empty() && (real == data || IsWithin(real, data))) {
    return absl::PermissionDeniedError(absl::StrCat(
        "server_path '", server_path,
        "' is in the server's data directory, whose files (ledger, tokens, "
        "stored datasets) are never imported."));
  }
  struct stat info;
  if (::stat(real.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("server_path '", server_path, "' is not a regular file."));
  }
  return real.string();
}

absl::Status WithoutFileContent(const absl::Status& status) {
  if (status.ok()) return status;
  absl::string_view rest = status.message();
  std::string where;
  std::string field;
  if (ConsumeField(&rest, &field)) where = field;
  std::string line;
  std::string column;
  if (ConsumeNumbered(&rest, "line", &line)) {
    absl::StrAppend(&where, where.empty() ? "" : ", ", line);
    if (absl::ConsumePrefix(&rest, ", ") || absl::ConsumePrefix(&rest, ": ")) {
      if (ConsumeNumbered(&rest, "column", &column)) {
        absl::StrAppend(&where, ", ", column);
      }
    }
  }
  return absl::Status(
      status.code(),
      absl::StrCat(where.empty() ? "" : absl::StrCat(where, ": "),
                   "the file named by server_path was refused. Errors of a "
                   "server_path import never quote the file (cells, header "
                   "names), so the details are withheld: check the file "
                   "where you can read it, e.g. register it by upload "
                   "(dpq admin register --data FILE) or run dpq-measure on "
                   "it."));
}

absl::StatusOr<std::string> ReadImportFile(const std::string& server_path,
                                           const std::string& import_dir,
                                           const std::string& data_dir,
                                           uint64_t max_bytes) {
  ASSIGN_OR_RETURN(const std::string real,
                   ResolveImportPath(server_path, import_dir, data_dir));
  absl::StatusOr<std::string> text =
      ReadWholeFile(fs::path(real), max_bytes, /*no_follow=*/true);
  if (absl::IsResourceExhausted(text.status())) {
    return core::util::WithPrefix("server_path: ",
                                  UploadTooLargeError(max_bytes));
  }
  if (!text.ok()) {
    return core::util::WithPrefix("server_path: ", text.status());
  }
  return text;
}

}  // namespace dpq::server::registry
