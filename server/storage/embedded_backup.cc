#include "server/storage/embedded_backup.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/status_macros.h"
#include "server/storage/sqlite_database.h"

namespace dpq::server::storage {
namespace {

namespace fs = std::filesystem;

// The files of a published dataset version (registry/dataset_directory.h).
constexpr const char* kVersionFiles[] = {"data.csv", "manifest.json",
                                         "state.txt"};
// A version replaced while it is copied is copied again, at most this often.
constexpr int kCopyAttempts = 5;

absl::Status Failed(const std::string& what, const std::string& target,
                    const std::error_code& error) {
  return absl::FailedPreconditionError(
      absl::StrCat("Backup failed while ", what, ": ", error.message(),
                   ". Remove the partial backup '", target, "' and retry."));
}

absl::Status MakePrivateDir(const std::string& dir, const std::string& target) {
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return Failed(absl::StrCat("creating '", dir, "'"), target,
                  std::error_code(errno, std::generic_category()));
  }
  return absl::OkStatus();
}

absl::Status MakePrivate(const fs::path& file, const std::string& target,
                         int64_t* bytes) {
  std::error_code error;
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write,
                  fs::perm_options::replace, error);
  if (error)
    return Failed(absl::StrCat("protecting '", file.string(), "'"), target,
                  error);
  *bytes += static_cast<int64_t>(fs::file_size(file, error));
  return absl::OkStatus();
}

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One published version: its three files, copied until its state.txt is
// the same before and after (a Replace renames directories, never edits
// files in place).
absl::Status CopyVersion(const fs::path& from, const fs::path& to,
                         const std::string& target, int64_t* bytes) {
  for (int attempt = 0; attempt < kCopyAttempts; ++attempt) {
    const std::string before = ReadAll(from / "state.txt");
    std::error_code error;
    fs::remove_all(to, error);
    RETURN_IF_ERROR(MakePrivateDir(to.string(), target));
    bool copied = true;
    for (const char* name : kVersionFiles) {
      if (!fs::copy_file(from / name, to / name, error)) {
        copied = false;
        break;
      }
    }
    if (copied && !before.empty() && ReadAll(from / "state.txt") == before) {
      for (const char* name : kVersionFiles) {
        RETURN_IF_ERROR(MakePrivate(to / name, target, bytes));
      }
      return absl::OkStatus();
    }
  }
  return absl::UnavailableError(absl::StrCat(
      "Backup failed: dataset '", from.filename().string(), "' changed ",
      kCopyAttempts, " times while it was copied. Remove the partial backup '",
      target, "' and retry."));
}

// A consistent copy of one SQLite database (VACUUM INTO reads one
// snapshot of it, whatever the server writes meanwhile).
absl::Status CopyDatabase(const fs::path& from, const fs::path& to,
                          const std::string& target, int64_t* bytes) {
  SqliteDatabase::Options options;
  options.name = from.filename().string();
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db,
                   SqliteDatabase::Open(from.string(), options));
  const std::string quoted = absl::StrReplaceAll(to.string(), {{"'", "''"}});
  RETURN_IF_ERROR(
      db->Exec(absl::StrCat("VACUUM INTO '", quoted, "'"),
               absl::StrCat("copying it into '", to.string(), "'")));
  return MakePrivate(to, target, bytes);
}

}  // namespace

absl::StatusOr<EmbeddedBackupSummary> BackupEmbeddedState(
    const std::string& data_dir, const std::string& target) {
  if (target.empty()) {
    return absl::InvalidArgumentError("--backup needs a directory to create.");
  }
  std::error_code error;
  if (fs::exists(target, error)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--backup '", target,
        "' exists; give a new directory (a backup never overwrites)."));
  }
  const fs::path data(data_dir);
  if (!fs::exists(data / "ledger.db", error)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--data-dir '", data_dir,
        "' holds no ledger.db: not an embedded data directory (back up the "
        "PostgreSQL mode with pg_dump, docs/operations.md)."));
  }
  EmbeddedBackupSummary summary;
  RETURN_IF_ERROR(MakePrivateDir(target, target));
  const fs::path out(target);
  // Datasets first, then accounts, then the ledger: the ledger is the
  // newest part (see the header).
  RETURN_IF_ERROR(MakePrivateDir((out / "datasets").string(), target));
  if (fs::exists(data / "datasets", error)) {
    for (const fs::directory_entry& entry :
         fs::directory_iterator(data / "datasets", error)) {
      const std::string name = entry.path().filename().string();
      // Work names (.staging-, .old-, .trash-, .upload-, .catalog-cache)
      // are not published versions.
      if (absl::StartsWith(name, ".") || !entry.is_directory()) continue;
      RETURN_IF_ERROR(CopyVersion(entry.path(), out / "datasets" / name, target,
                                  &summary.bytes));
      ++summary.datasets;
    }
    if (error) return Failed("listing the datasets", target, error);
  }
  if (fs::exists(data / "accounts.db", error)) {
    RETURN_IF_ERROR(CopyDatabase(data / "accounts.db", out / "accounts.db",
                                 target, &summary.bytes));
  }
  if (fs::exists(data / "admin.token", error)) {
    if (!fs::copy_file(data / "admin.token", out / "admin.token", error)) {
      return Failed("copying admin.token", target, error);
    }
    RETURN_IF_ERROR(MakePrivate(out / "admin.token", target, &summary.bytes));
  }
  RETURN_IF_ERROR(CopyDatabase(data / "ledger.db", out / "ledger.db", target,
                               &summary.bytes));
  const std::string note = absl::StrCat(
      "dpq embedded backup of '", data_dir, "', finished ",
      absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone()),
      ".\nRestore: stop dpq-server, move its data directory aside, copy this "
      "directory in its place (cp -a), start dpq-server.\nRestoring forgets "
      "every charge made after this time: read docs/operations.md, \"What a "
      "restore to an older point means\", before you open the service.\n");
  {
    std::ofstream file(out / "BACKUP.txt");
    file << note;
    if (!file) {
      return Failed("writing BACKUP.txt", target,
                    std::make_error_code(std::errc::io_error));
    }
  }
  RETURN_IF_ERROR(MakePrivate(out / "BACKUP.txt", target, &summary.bytes));
  return summary;
}

}  // namespace dpq::server::storage
