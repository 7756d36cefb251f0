#include "server/replica_identity.h"

#include <openssl/rand.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/util/status_macros.h"
#include "server/registry/synced_file.h"

namespace dpq::server {
namespace {

constexpr char kReplicaIdFile[] = "replica.id";
constexpr uint64_t kMaxSmallFileBytes = 4096;

absl::StatusOr<std::string> NewReplicaId() {
  unsigned char bytes[8];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    return absl::InternalError(
        "OpenSSL RAND_bytes failed to make a replica id.");
  }
  return absl::StrCat("replica-",
                      absl::BytesToHexString(absl::string_view(
                          reinterpret_cast<const char*>(bytes), sizeof bytes)));
}

}  // namespace

bool IsValidReplicaId(absl::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' &&
        c != '_' && c != '-') {
      return false;
    }
  }
  return true;
}

absl::StatusOr<std::string> LoadOrCreateReplicaId(
    const std::string& data_dir, const std::string& configured) {
  if (!configured.empty()) return configured;
  const std::filesystem::path path =
      std::filesystem::path(data_dir) / kReplicaIdFile;
  absl::StatusOr<std::string> stored =
      registry::ReadWholeFile(path, kMaxSmallFileBytes);
  if (stored.ok()) {
    const std::string id(absl::StripAsciiWhitespace(*stored));
    if (!IsValidReplicaId(id)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", path.string(),
          "' holds no valid replica id (1-64 letters, "
          "digits, '.', '_' or '-'): fix it, or remove it to get a new id."));
    }
    return id;
  }
  if (!absl::IsNotFound(stored.status())) return stored.status();
  ASSIGN_OR_RETURN(std::string id, NewReplicaId());
  RETURN_IF_ERROR(registry::ReplaceFileSynced(path, id + "\n"));
  return id;
}

absl::StatusOr<std::string> ResolveDatabaseDsn(
    const std::string& database, const std::string& database_file) {
  if (database_file.empty()) return database;
  absl::StatusOr<std::string> text =
      registry::ReadWholeFile(database_file, kMaxSmallFileBytes);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "database_file '", database_file, "' cannot be read (",
        absl::StatusCodeToString(text.status().code()),
        "): it must be a readable file of at most 4 KiB holding the DSN."));
  }
  absl::string_view first = *text;
  if (const size_t newline = first.find('\n');
      newline != absl::string_view::npos) {
    first = first.substr(0, newline);
  }
  first = absl::StripAsciiWhitespace(first);
  if (first.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "database_file '", database_file,
        "' is empty: its first line must "
        "be the DSN (postgresql://... or 'host=... dbname=...')."));
  }
  return std::string(first);
}

}  // namespace dpq::server
