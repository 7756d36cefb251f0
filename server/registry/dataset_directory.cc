#include "server/registry/dataset_directory.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/util/status_macros.h"
#include "server/registry/dataset_id.h"
#include "server/registry/manifest.h"
#include "server/registry/synced_file.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;

// Files of one version's directory.
constexpr char kDataFile[] = "data.csv";
constexpr char kManifestFile[] = "manifest.json";
constexpr char kStateFile[] = "state.txt";
// Prefixes of work directories inside DATA_DIR/datasets.
constexpr char kStagingPrefix[] = ".staging-";
constexpr char kOldPrefix[] = ".old-";
constexpr char kTrashPrefix[] = ".trash-";
// Edge lists an older server wrote to a temporary file to parse them (a
// file, not a directory); a crash could leave one behind.
constexpr char kUploadPrefix[] = ".upload-";
// data.csv files written ahead of their version (StartDataWrite).
constexpr char kPendingPrefix[] = ".pending-";
// Marks a cache of a shared catalog (see the header).
constexpr char kCatalogCacheFile[] = ".catalog-cache";
constexpr char kCatalogCacheText[] =
    "The datasets in this directory are a cache of the PostgreSQL catalog "
    "of dpq-server's shared-state mode (docs/operations.md): a dataset the "
    "catalog lacks is removed at start-up.\n";
// Largest manifest.json and state.txt read back.
constexpr uint64_t kMaxManifestBytes = uint64_t{16} << 20;
constexpr uint64_t kMaxStateBytes = 4096;

// Creates `dir` (which must not exist) holding a version's three files,
// every file and the directory itself synced. `place_data(path)` puts
// data.csv at `path`, synced.
absl::Status WriteVersionDir(
    const fs::path& dir,
    const std::function<absl::Status(const fs::path&)>& place_data,
    const v1::DatasetManifest& manifest, const VersionState& state) {
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", dir.string(),
                                            "': ", std::strerror(errno)));
  }
  ASSIGN_OR_RETURN(const std::string manifest_json, ManifestToJson(manifest));
  RETURN_IF_ERROR(place_data(dir / kDataFile));
  RETURN_IF_ERROR(WriteFileSynced(dir / kManifestFile, manifest_json));
  RETURN_IF_ERROR(WriteFileSynced(dir / kStateFile, FormatVersionState(state)));
  return FsyncDirectory(dir);
}

// The names directly inside `root`.
absl::StatusOr<std::vector<std::string>> ListNames(const fs::path& root) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot list '", root.string(), "': ", ec.message()));
  }
  return names;
}

}  // namespace

absl::StatusOr<DatasetDirectory> DatasetDirectory::Open(
    const std::string& data_dir) {
  const fs::path root = fs::path(data_dir) / "datasets";
  std::error_code ec;
  // The rows are private: only the server's user may list or read them.
  if (fs::create_directories(root, ec) && !ec) {
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::replace, ec);
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot create '", root.string(), "': ", ec.message()));
  }
  DatasetDirectory directory(root);
  RETURN_IF_ERROR(directory.Recover());
  return directory;
}

absl::Status DatasetDirectory::Recover() const {
  ASSIGN_OR_RETURN(const std::vector<std::string> names, ListNames(root_));
  bool changed = false;
  for (const std::string& name : names) {
    absl::string_view rest = name;
    if (absl::ConsumePrefix(&rest, kOldPrefix)) {
      // The current version if the new one never got its name.
      const fs::path current = root_ / std::string(rest);
      std::error_code ec;
      if (fs::exists(current, ec)) {
        RETURN_IF_ERROR(RemoveTree(root_ / name));
      } else {
        RETURN_IF_ERROR(RenamePath(root_ / name, current));
      }
      changed = true;
    } else if (absl::StartsWith(name, kStagingPrefix) ||
               absl::StartsWith(name, kTrashPrefix) ||
               absl::StartsWith(name, kUploadPrefix) ||
               absl::StartsWith(name, kPendingPrefix)) {
      // Never published, or already deleted.
      RETURN_IF_ERROR(RemoveTree(root_ / name));
      changed = true;
    }
  }
  if (changed) RETURN_IF_ERROR(FsyncDirectory(root_));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> DatasetDirectory::ListIds() const {
  std::error_code ec;
  std::vector<std::string> ids;
  for (fs::directory_iterator it(root_, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_directory(ec)) continue;  // stray files are not datasets
    absl::Status id_ok = ValidateId(name, "dataset directory name");
    if (!id_ok.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", it->path().string(), "' is not a dataset directory (",
          id_ok.message(), "): move it out of the data directory."));
    }
    ids.push_back(name);
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot list '", root_.string(), "': ", ec.message()));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

absl::StatusOr<StoredVersion> DatasetDirectory::ReadVersion(
    const std::string& id) const {
  const fs::path dir = PathOf(id);
  ASSIGN_OR_RETURN(const std::string manifest_json,
                   ReadWholeFile(dir / kManifestFile, kMaxManifestBytes));
  StoredVersion stored;
  absl::StatusOr<v1::DatasetManifest> manifest =
      ManifestFromJson(manifest_json);
  if (!manifest.ok()) {
    return absl::DataLossError(absl::StrCat(
        kManifestFile,
        " is not a DatasetManifest: ", manifest.status().message()));
  }
  stored.manifest = *std::move(manifest);
  if (stored.manifest.dataset_id() != id) {
    return absl::DataLossError(absl::StrCat(kManifestFile, " names dataset '",
                                            stored.manifest.dataset_id(),
                                            "', not the directory's name."));
  }
  ASSIGN_OR_RETURN(const std::string state_text,
                   ReadWholeFile(dir / kStateFile, kMaxStateBytes));
  ASSIGN_OR_RETURN(stored.state,
                   ParseVersionState(state_text, (dir / kStateFile).string()));
  return stored;
}

absl::StatusOr<core::table::MappedFile> DatasetDirectory::MapData(
    const std::string& id) const {
  return core::table::MappedFile::Open((PathOf(id) / kDataFile).string());
}

std::unique_ptr<DataWriteAhead> DatasetDirectory::StartDataWrite(
    absl::string_view data) const {
  // Unique within the process; one process owns a data directory.
  static std::atomic<uint64_t> next{0};
  return std::make_unique<DataWriteAhead>(
      root_ / absl::StrCat(kPendingPrefix, next++), data);
}

absl::Status DatasetDirectory::Publish(const std::string& id,
                                       absl::string_view data,
                                       const v1::DatasetManifest& manifest,
                                       const VersionState& state,
                                       bool replace) const {
  return PublishVersion(
      id, [&](const fs::path& path) { return WriteFileSynced(path, data); },
      manifest, state, replace);
}

absl::Status DatasetDirectory::Publish(const std::string& id,
                                       DataWriteAhead& data,
                                       const v1::DatasetManifest& manifest,
                                       const VersionState& state,
                                       bool replace) const {
  return PublishVersion(
      id,
      [&](const fs::path& path) -> absl::Status {
        ASSIGN_OR_RETURN(const fs::path written, data.Wait());
        RETURN_IF_ERROR(RenamePath(written, path));
        data.Taken();
        return absl::OkStatus();
      },
      manifest, state, replace);
}

absl::Status DatasetDirectory::PublishVersion(
    const std::string& id,
    const std::function<absl::Status(const fs::path&)>& place_data,
    const v1::DatasetManifest& manifest, const VersionState& state,
    bool replace) const {
  // A complete staging directory first, then the dataset's name by renames
  // (each atomic); Recover finishes or rolls back after a crash between.
  const fs::path staging = root_ / absl::StrCat(kStagingPrefix, id);
  const fs::path current = PathOf(id);
  const fs::path old = root_ / absl::StrCat(kOldPrefix, id);
  RETURN_IF_ERROR(RemoveTree(staging));
  absl::Status written = WriteVersionDir(staging, place_data, manifest, state);
  if (!written.ok()) {
    RemoveTree(staging).IgnoreError();
    return written;
  }
  if (replace) {
    absl::Status moved = RenamePath(current, old);
    if (!moved.ok()) {
      RemoveTree(staging).IgnoreError();
      return moved;
    }
  }
  absl::Status renamed = RenamePath(staging, current);
  if (!renamed.ok()) {
    if (replace) RenamePath(old, current).IgnoreError();
    RemoveTree(staging).IgnoreError();
    return renamed;
  }
  RETURN_IF_ERROR(FsyncDirectory(root_));
  if (replace) {
    // The new version is durable; the old one is garbage (also collected at
    // the next Open if this fails).
    RemoveTree(old).IgnoreError();
  }
  return absl::OkStatus();
}

absl::Status DatasetDirectory::RewriteManifest(
    const std::string& id, const v1::DatasetManifest& manifest) const {
  ASSIGN_OR_RETURN(const std::string json, ManifestToJson(manifest));
  return ReplaceFileSynced(PathOf(id) / kManifestFile, json);
}

absl::Status DatasetDirectory::RewriteState(const std::string& id,
                                            const VersionState& state) const {
  return ReplaceFileSynced(PathOf(id) / kStateFile, FormatVersionState(state));
}

absl::Status DatasetDirectory::Remove(const std::string& id) const {
  const fs::path trash = root_ / absl::StrCat(kTrashPrefix, id);
  RETURN_IF_ERROR(RemoveTree(trash));
  RETURN_IF_ERROR(RenamePath(PathOf(id), trash));
  RETURN_IF_ERROR(FsyncDirectory(root_));
  // Gone for good once renamed and synced: the trash is removed at the next
  // Open if this fails.
  RemoveTree(trash).IgnoreError();
  return absl::OkStatus();
}

bool DatasetDirectory::Contains(const std::string& id) const {
  std::error_code ec;
  return fs::is_directory(PathOf(id), ec);
}

bool DatasetDirectory::IsCatalogCache() const {
  std::error_code ec;
  return fs::is_regular_file(root_ / kCatalogCacheFile, ec);
}

absl::Status DatasetDirectory::MarkCatalogCache() const {
  if (IsCatalogCache()) return absl::OkStatus();
  RETURN_IF_ERROR(
      WriteFileSynced(root_ / kCatalogCacheFile, kCatalogCacheText));
  return FsyncDirectory(root_);
}

}  // namespace dpq::server::registry
