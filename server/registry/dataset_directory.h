// The data directory's layout: every dataset version on disk, and how one
// is published, read back at start-up and removed.
//
//   DATA_DIR/datasets/              mode 0700: only the server's user
//     <id>/data.csv                 the rows or the edge list, as uploaded
//     <id>/manifest.json            the manifest, frozen (manifest.h)
//     <id>/state.txt                version, time, edges (version_state.h)
//     .staging-<id>/                a version being written
//     .old-<id>/                    the version a Replace is replacing
//     .trash-<id>/                  a version being deleted
//     .upload-*                     temporary edge lists of older servers
//     .catalog-cache                a cache of a shared catalog (below)
// Files are mode 0600. Ids start with a letter or a digit, so the work
// names above never collide with a dataset.
//
// Durability: a new version is written as a complete, fsynced staging
// directory and then renamed into place (a replacement first renames the
// current version to .old-<id>); the parent directory is fsynced. A
// removal renames to .trash-<id> first. Open finishes or rolls back what a
// crash left half done, so a dataset is always either its old or its new
// version, never a mix. No locks: the caller serialises writes of an id.
//
// In the PostgreSQL mode (dataset_catalog.h) the directory is a cache of
// the shared catalog, marked by the file .catalog-cache: a dataset found
// here that the catalog lacks is then a leftover and removed, while in an
// unmarked directory it may be the only copy (an embedded data directory
// not imported yet), which the registry refuses to remove.
#ifndef DPQ_SERVER_REGISTRY_DATASET_DIRECTORY_H_
#define DPQ_SERVER_REGISTRY_DATASET_DIRECTORY_H_

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/mapped_file.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/data_write_ahead.h"
#include "server/registry/version_state.h"

namespace dpq::server::registry {

// What a stored version records besides its rows.
struct StoredVersion {
  v1::DatasetManifest manifest;  // as written: not validated again here
  VersionState state;
};

class DatasetDirectory {
 public:
  // DATA_DIR/datasets: created with mode 0700 if it does not exist; then
  // work directories a crash left are finished or rolled back, and stray
  // .upload-* files are removed. kInternal if that fails.
  static absl::StatusOr<DatasetDirectory> Open(const std::string& data_dir);

  // The stored dataset ids, sorted; stray files are skipped.
  // kFailedPrecondition for a directory whose name is not a valid id (the
  // operator must move it out: it might be a dataset buyers have budgets
  // on), kInternal if the directory cannot be listed.
  absl::StatusOr<std::vector<std::string>> ListIds() const;

  // Reads <id>/manifest.json and <id>/state.txt. kNotFound or
  // kPermissionDenied if one cannot be opened; kDataLoss if the manifest is
  // not a DatasetManifest, names another id, or the state is malformed.
  absl::StatusOr<StoredVersion> ReadVersion(const std::string& id) const;

  // Maps <id>/data.csv (mapped_file.h: the rows stream from the page cache
  // instead of being copied into memory).
  absl::StatusOr<core::table::MappedFile> MapData(const std::string& id) const;

  // Writes a complete version (`data` as data.csv, the manifest, the
  // state) durably and gives it the id's name. `replace`: the id exists and
  // its current version is replaced atomically; otherwise it must not
  // exist. On error nothing changed (or Open rolls it back). kInternal.
  absl::Status Publish(const std::string& id, absl::string_view data,
                       const v1::DatasetManifest& manifest,
                       const VersionState& state, bool replace) const;

  // Starts writing `data` (which must outlive the result) to a work file
  // of this directory on a thread of its own (data_write_ahead.h), for the
  // Publish below. A crash leaves at most that work file, which Open
  // removes.
  std::unique_ptr<DataWriteAhead> StartDataWrite(absl::string_view data) const;

  // Publish with data.csv written ahead: waits for the write (its error is
  // Publish's) and moves the synced file into the version by a rename.
  absl::Status Publish(const std::string& id, DataWriteAhead& data,
                       const v1::DatasetManifest& manifest,
                       const VersionState& state, bool replace) const;

  // Replaces <id>/manifest.json atomically (freezing what a manifest
  // written by an older server left to inference). kInternal.
  absl::Status RewriteManifest(const std::string& id,
                               const v1::DatasetManifest& manifest) const;
  // Replaces <id>/state.txt atomically (recording what a state written by
  // an older server lacks). kInternal.
  absl::Status RewriteState(const std::string& id,
                            const VersionState& state) const;

  // Removes a stored version durably: once this returns OK it never comes
  // back, even after a crash. kInternal.
  absl::Status Remove(const std::string& id) const;

  // True if <id> is stored (its directory exists).
  bool Contains(const std::string& id) const;

  // True once MarkCatalogCache has run on this directory.
  bool IsCatalogCache() const;
  // Marks the directory as a cache of a shared catalog, durably. kInternal.
  absl::Status MarkCatalogCache() const;

  // DATA_DIR/datasets/<id>, for messages.
  std::filesystem::path PathOf(const std::string& id) const {
    return root_ / id;
  }

 private:
  explicit DatasetDirectory(std::filesystem::path root)
      : root_(std::move(root)) {}

  // Both Publish overloads: `place_data(path)` puts data.csv at `path`,
  // synced.
  absl::Status PublishVersion(
      const std::string& id,
      const std::function<absl::Status(const std::filesystem::path&)>&
          place_data,
      const v1::DatasetManifest& manifest, const VersionState& state,
      bool replace) const;

  // Finishes or rolls back the work directories a crash left (see Publish
  // and Remove).
  absl::Status Recover() const;

  std::filesystem::path root_;  // DATA_DIR/datasets
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_DIRECTORY_H_
