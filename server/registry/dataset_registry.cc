#include "server/registry/dataset_registry.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "core/measures/vertex_cover.h"
#include "core/table/mapped_file.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "google/protobuf/util/json_util.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;

// Files of one dataset directory.
constexpr char kDataFile[] = "data.csv";
constexpr char kManifestFile[] = "manifest.json";
constexpr char kStateFile[] = "state.txt";
// Prefixes of work directories inside data_dir/datasets (never valid ids,
// which start with a letter or digit).
constexpr char kStagingPrefix[] = ".staging-";
constexpr char kOldPrefix[] = ".old-";
constexpr char kTrashPrefix[] = ".trash-";
// Edge lists being validated by an older server (a file, not a
// directory); removed at Open.
constexpr char kUploadPrefix[] = ".upload-";

std::string ErrnoText(int err) { return std::strerror(err); }

// ---- Files ----------------------------------------------------------------

absl::Status FsyncPath(const fs::path& path, bool directory) {
  const int fd =
      ::open(path.c_str(),
             (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat(
        "Cannot open '", path.string(), "' to sync it: ", ErrnoText(errno)));
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) {
    return absl::InternalError(absl::StrCat("fsync of '", path.string(),
                                            "' failed: ", ErrnoText(err)));
  }
  return absl::OkStatus();
}

// Creates `path` with `content` and fsyncs it (the caller syncs the
// directory). Mode 0600: the rows are private.
absl::Status WriteFileSynced(const fs::path& path, absl::string_view content) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", path.string(),
                                            "': ", ErrnoText(errno)));
  }
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(
          absl::StrCat("Cannot write '", path.string(), "': ", ErrnoText(err)));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return absl::InternalError(absl::StrCat("fsync of '", path.string(),
                                            "' failed: ", ErrnoText(err)));
  }
  if (::close(fd) != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot close '", path.string(), "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

// `no_follow`: refuse a symbolic link as the last component (a resolved
// server_path swapped for a link after it was checked).
absl::StatusOr<std::string> ReadWholeFile(const fs::path& path,
                                          uint64_t max_bytes,
                                          bool no_follow = false) {
  const int fd = ::open(path.c_str(),
                        O_RDONLY | O_CLOEXEC | (no_follow ? O_NOFOLLOW : 0));
  if (fd < 0) {
    const int err = errno;
    const std::string message =
        absl::StrCat("Cannot open '", path.string(), "': ", ErrnoText(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat("'", path.string(), "' is not a regular file."));
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return absl::ResourceExhaustedError(
        absl::StrCat("'", path.string(), "' has ", st.st_size,
                     " bytes, above the server's limit of ", max_bytes,
                     " bytes (max_csv_bytes)."));
  }
  std::string text;
  text.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (true) {
    if (done == text.size()) {
      // The file may have grown since fstat: read on, within the limit.
      if (text.size() >= max_bytes + 1) break;
      text.resize(std::min<uint64_t>(text.size() + 65536, max_bytes + 1));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(
          absl::StrCat("Cannot read '", path.string(), "': ", ErrnoText(err)));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(done);
  if (text.size() > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("'", path.string(), "' has more than ", max_bytes,
                     " bytes, the server's limit (max_csv_bytes)."));
  }
  return text;
}

absl::Status RenamePath(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("Cannot rename '", from.string(),
                                            "' to '", to.string(),
                                            "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

absl::Status RemoveTree(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot remove '", path.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

// What state.txt records next to a version's files.
struct VersionState {
  uint64_t version = 0;
  absl::Time registered_at;
  // Edges of the conflict graph built at registration (tables; absent in
  // files written by an older server).
  std::optional<uint64_t> edges;
  // The exact minimum cover computed at registration (exact_repair).
  std::optional<uint64_t> exact_repair;
};

// state.txt: "version <n>\nregistered_at <RFC 3339>\n[edges <m>\n]
// [exact_repair <r>\n]".
std::string FormatState(const LoadedDataset& d, std::optional<uint64_t> edges) {
  std::string text = absl::StrCat(
      "version ", d.version, "\nregistered_at ",
      absl::FormatTime(absl::RFC3339_full, d.registered_at,
                       absl::UTCTimeZone()),
      "\n");
  if (edges.has_value()) absl::StrAppend(&text, "edges ", *edges, "\n");
  if (d.exact_repair.has_value()) {
    absl::StrAppend(&text, "exact_repair ", *d.exact_repair, "\n");
  }
  return text;
}

absl::Status ParseState(absl::string_view text, const fs::path& path,
                        VersionState* state) {
  uint64_t* version = &state->version;
  absl::Time* registered_at = &state->registered_at;
  bool have_version = false;
  bool have_time = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first == "version") {
      have_version = absl::SimpleAtoi(kv.second, version) && *version >= 1;
    } else if (kv.first == "registered_at") {
      std::string error;
      have_time =
          absl::ParseTime(absl::RFC3339_full, kv.second, registered_at, &error);
    } else if (kv.first == "edges" || kv.first == "exact_repair") {
      uint64_t number = 0;
      if (!absl::SimpleAtoi(kv.second, &number)) {
        return absl::DataLossError(absl::StrCat("'", path.string(),
                                                "' has a malformed '",
                                                kv.first, "' line."));
      }
      (kv.first == "edges" ? state->edges : state->exact_repair) = number;
    }
  }
  if (!have_version || !have_time) {
    return absl::DataLossError(
        absl::StrCat("'", path.string(),
                     "' must hold 'version <n>' and 'registered_at "
                     "<RFC 3339 time>'."));
  }
  return absl::OkStatus();
}

// The manifest as stored: protobuf's JSON mapping with the proto's field
// names.
absl::StatusOr<std::string> ManifestJson(const v1::DatasetManifest& manifest) {
  std::string manifest_json;
  google::protobuf::util::JsonPrintOptions json_options;
  json_options.add_whitespace = true;
  json_options.preserve_proto_field_names = true;
  const auto json_status = google::protobuf::util::MessageToJsonString(
      manifest, &manifest_json, json_options);
  if (!json_status.ok()) {
    return absl::InternalError(
        absl::StrCat("Cannot write the manifest as JSON: ",
                     json_status.ToString()));
  }
  return manifest_json;
}

// Writes a complete dataset directory at `dir` (which must not exist), every
// file and the directory itself synced.
absl::Status WriteDatasetDir(const fs::path& dir, const LoadedDataset& d,
                             absl::string_view csv_text,
                             std::optional<uint64_t> edges) {
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot create '", dir.string(), "': ", ErrnoText(errno)));
  }
  ASSIGN_OR_RETURN(const std::string manifest_json, ManifestJson(d.manifest));
  RETURN_IF_ERROR(WriteFileSynced(dir / kDataFile, csv_text));
  RETURN_IF_ERROR(WriteFileSynced(dir / kManifestFile, manifest_json));
  RETURN_IF_ERROR(WriteFileSynced(dir / kStateFile, FormatState(d, edges)));
  return FsyncPath(dir, /*directory=*/true);
}

// Replaces `path` atomically (temp file, fsync, rename, directory fsync).
absl::Status ReplaceFileSynced(const fs::path& path,
                               absl::string_view content) {
  const fs::path temp = path.string() + ".tmp";
  RETURN_IF_ERROR(WriteFileSynced(temp, content));
  RETURN_IF_ERROR(RenamePath(temp, path));
  return FsyncPath(path.parent_path(), /*directory=*/true);
}

// Finishes or rolls back work directories left by a crash (see Replace and
// Delete): a staging directory was never published; an old directory is the
// current version if the new one never got its name.
absl::Status RecoverWorkDirs(const fs::path& root) {
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
  bool changed = false;
  for (const std::string& name : names) {
    absl::string_view rest = name;
    if (absl::ConsumePrefix(&rest, kOldPrefix)) {
      const fs::path current = root / std::string(rest);
      if (fs::exists(current, ec)) {
        RETURN_IF_ERROR(RemoveTree(root / name));
      } else {
        RETURN_IF_ERROR(RenamePath(root / name, current));
      }
      changed = true;
    } else if (absl::StartsWith(name, kStagingPrefix) ||
               absl::StartsWith(name, kTrashPrefix) ||
               absl::StartsWith(name, kUploadPrefix)) {
      RETURN_IF_ERROR(RemoveTree(root / name));
      changed = true;
    }
  }
  if (changed) RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  return absl::OkStatus();
}

}  // namespace

// ---- DatasetRegistry --------------------------------------------------------

DatasetRegistry::DatasetRegistry(Options options)
    : options_(std::move(options)),
      builds_(std::make_unique<GraphBuildQueue>(options_.graph_build_workers)) {
}

DatasetRegistry::~DatasetRegistry() {
  // Drops queued builds (their slots are cancelled) and joins the workers
  // before the datasets go.
  builds_.reset();
}

void DatasetRegistry::WaitForGraphBuilds() { builds_->WaitIdle(); }

void DatasetRegistry::QueueGraphBuild(std::shared_ptr<const LoadedDataset> d) {
  if (d->is_graph()) return;
  std::shared_ptr<ConflictGraphSlot> slot = d->conflict_graph;
  // The job holds the version (rows, DCs) until it has run. A version that
  // is replaced or deleted meanwhile is still built: a request that holds
  // it (and was charged) waits for its graph, and whether the build had
  // started must not decide anything a buyer sees.
  auto build = [d, options = &options_]() {
    ConflictGraphSlot& slot = *d->conflict_graph;
    if (!slot.TryStart()) return;  // dropped at shutdown
    if (options->before_graph_build) {
      options->before_graph_build(d->manifest.dataset_id());
    }
    absl::StatusOr<ConflictGraphData> data =
        BuildConflictGraphData(*options, *d);
    if (!data.ok()) {
      slot.SetFailed(data.status());
      return;
    }
    slot.SetReady(*std::move(data));
  };
  auto drop = [slot]() {
    slot->Cancel(absl::UnavailableError(
        "The server is shutting down before the dataset's conflict graph "
        "was rebuilt. Retry with the same request_id: the charge stands and "
        "the retry returns the answer."));
  };
  builds_->Enqueue(std::move(build), std::move(drop));
}

absl::StatusOr<std::unique_ptr<DatasetRegistry>> DatasetRegistry::Open(
    const Options& options) {
  if (options.data_dir.empty()) {
    return absl::InvalidArgumentError("data_dir must not be empty.");
  }
  if (options.graph_threads < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graph_threads must be >= 0, but is ", options.graph_threads, "."));
  }
  if (options.max_edges == 0 || options.max_rows == 0 ||
      options.max_csv_bytes == 0) {
    return absl::InvalidArgumentError(
        "max_edges, max_rows and max_csv_bytes must be > 0.");
  }
  const fs::path root = fs::path(options.data_dir) / "datasets";
  std::error_code ec;
  // The rows are private: only the server's user may list or read them.
  if (fs::create_directories(root, ec) && !ec) {
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::replace, ec);
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot create '", root.string(), "': ", ec.message()));
  }
  RETURN_IF_ERROR(RecoverWorkDirs(root));

  if (options.graph_build_workers < 1 || options.graph_build_workers > 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("graph_build_workers must be in [1, 16], but is ",
                     options.graph_build_workers, "."));
  }
  std::unique_ptr<DatasetRegistry> registry(new DatasetRegistry(options));
  std::vector<std::string> ids;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end;
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
        absl::StrCat("Cannot list '", root.string(), "': ", ec.message()));
  }
  std::sort(ids.begin(), ids.end());
  for (const std::string& id : ids) {
    absl::Status s = registry->LoadFromDisk(root / id);
    if (!s.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("Cannot load dataset '", id, "' from '",
                       (root / id).string(), "': "),
          s);
    }
  }
  return registry;
}

absl::Status DatasetRegistry::LoadFromDisk(const std::string& dir_path) {
  const fs::path dir(dir_path);
  const std::string id = dir.filename().string();
  ASSIGN_OR_RETURN(std::string manifest_json,
                   ReadWholeFile(dir / kManifestFile, uint64_t{16} << 20));
  v1::DatasetManifest manifest;
  google::protobuf::util::JsonParseOptions parse_options;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      manifest_json, &manifest, parse_options);
  if (!parsed.ok()) {
    return absl::DataLossError(absl::StrCat(
        kManifestFile, " is not a DatasetManifest: ", parsed.ToString()));
  }
  if (manifest.dataset_id() != id) {
    return absl::DataLossError(absl::StrCat(kManifestFile, " names dataset '",
                                            manifest.dataset_id(),
                                            "', not the directory's name."));
  }
  ASSIGN_OR_RETURN(std::string state_text,
                   ReadWholeFile(dir / kStateFile, 4096));
  VersionState state;
  RETURN_IF_ERROR(ParseState(state_text, dir / kStateFile, &state));
  if (state.edges.has_value() && *state.edges > options_.max_edges) {
    return absl::FailedPreconditionError(absl::StrCat(
        "its conflict graph has ", *state.edges,
        " edges, above this server's max_edges (", options_.max_edges,
        "), so it cannot be rebuilt; raise the limit back or delete the "
        "dataset."));
  }
  // Mapped, not read into a string: the CSV streams from the page cache
  // (BuildDataset checks max_csv_bytes on the mapped size).
  ASSIGN_OR_RETURN(
      const core::table::MappedFile csv,
      core::table::MappedFile::Open((dir / kDataFile).string()));
  BuildContext context;
  context.stored = true;
  bool migrated = false;
  ASSIGN_OR_RETURN(std::shared_ptr<LoadedDataset> d,
                   BuildDataset(options_, manifest, csv.view(), context,
                                &migrated));
  d->version = state.version;
  d->registered_at = state.registered_at;
  // Registered before the text contract: served as it is, with invalid
  // UTF-8 repaired in every response; the operator is told which to fix.
  if (absl::Status text = CheckTextContract(*d, csv.view()); !text.ok()) {
    std::fprintf(stderr,
                 "dpq-server: warning: dataset '%s' breaks the text contract "
                 "(%s); responses show U+FFFD for invalid bytes. Replace it "
                 "with UTF-8, printable data.\n",
                 id.c_str(), std::string(text.message()).c_str());
  }
  if (d->manifest.exact_repair() && !state.exact_repair.has_value()) {
    return absl::DataLossError(absl::StrCat(
        kStateFile, " lacks the exact_repair value its manifest asks for."));
  }
  d->exact_repair = state.exact_repair;
  d->notes.clear();  // registration notes were the owner's, back then
  if (migrated) {
    // Written by an older server: freeze what it inferred from these rows
    // (the same types, domains and nodes buyers saw) so it is never
    // inferred again.
    ASSIGN_OR_RETURN(const std::string frozen, ManifestJson(d->manifest));
    RETURN_IF_ERROR(ReplaceFileSynced(dir / kManifestFile, frozen));
  }
  {
    absl::MutexLock lock(&mu_);
    datasets_[id] = d;
  }
  QueueGraphBuild(std::move(d));
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Get(
    const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = datasets_.find(dataset_id);
  if (it == datasets_.end()) {
    return absl::NotFoundError(
        absl::StrCat("Dataset '", dataset_id, "' does not exist."));
  }
  return it->second;
}

std::vector<std::shared_ptr<const LoadedDataset>> DatasetRegistry::List()
    const {
  std::vector<std::shared_ptr<const LoadedDataset>> all;
  {
    absl::ReaderMutexLock lock(&mu_);
    all.reserve(datasets_.size());
    for (const auto& [id, d] : datasets_) all.push_back(d);
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a->manifest.dataset_id() < b->manifest.dataset_id();
  });
  return all;
}

bool DatasetRegistry::Contains(const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  return datasets_.contains(dataset_id);
}

namespace {

// kDeadlineExceeded once the admin's call is over: the registration stops
// and registers nothing, instead of finishing for a caller who left.
absl::Status CheckRegistrationDeadline(absl::Time deadline) {
  if (absl::Now() < deadline) return absl::OkStatus();
  return absl::DeadlineExceededError(
      "The call's deadline passed while the conflict graph was built or the "
      "exact repair proven; nothing was registered. Retry with a longer "
      "deadline (dpq --timeout SECONDS).");
}

}  // namespace

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Register(
    const v1::DatasetManifest& manifest, std::string csv_text,
    CsvSource source, absl::Time deadline) {
  return Write(manifest, std::move(csv_text), /*replace=*/false, source,
               deadline);
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Replace(
    const v1::DatasetManifest& manifest, std::string csv_text,
    CsvSource source, absl::Time deadline) {
  return Write(manifest, std::move(csv_text), /*replace=*/true, source,
               deadline);
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Write(
    const v1::DatasetManifest& manifest, std::string csv_text, bool replace,
    CsvSource source, absl::Time deadline) {
  RETURN_IF_ERROR(ValidateManifest(manifest));
  const std::string& id = manifest.dataset_id();
  // Fail fast before the slow build; checked again under write_mu_.
  RETURN_IF_ERROR(CheckPresence(id, replace));
  BuildContext context;
  if (replace) {
    ASSIGN_OR_RETURN(context.previous, Get(id));
  }
  // The slow part (parse, conflict graph) runs without any lock: other
  // writes and all reads proceed meanwhile. The graph is built now, so
  // that a failure is the owner's error, never a buyer-visible state.
  absl::StatusOr<std::shared_ptr<LoadedDataset>> built =
      BuildDataset(options_, manifest, csv_text, context);
  if (!built.ok()) {
    // Parse errors quote cells and header names: never those of a file
    // read from the server's disk (docs/security.md, item 3).
    return source == CsvSource::kServerPath
               ? WithoutFileContent(built.status())
               : built.status();
  }
  std::shared_ptr<LoadedDataset> d = *std::move(built);
  std::optional<uint64_t> edges;
  if (!d->is_graph()) {
    absl::StatusOr<ConflictGraphData> graph =
        BuildConflictGraphData(options_, *d, deadline);
    RETURN_IF_ERROR(CheckRegistrationDeadline(deadline));
    if (!graph.ok()) {
      const absl::Status& s = graph.status();
      return core::util::WithPrefix(
          "constraints: the conflict graph of these rows cannot be built: ",
          s);
    }
    edges = graph->graph.graph.num_edges();
    if (d->manifest.exact_repair()) {
      // The owner's choice, decided here where only the owner sees a
      // failure (a buyer never sees a data-dependent fallback).
      core::measures::VertexCoverLimits limits;
      limits.deadline = std::min(
          deadline, absl::Now() + options_.exact_repair_time_limit);
      absl::StatusOr<uint64_t> cover =
          core::measures::ExactRepairOrExplain(graph->graph.graph, limits);
      RETURN_IF_ERROR(CheckRegistrationDeadline(deadline));
      if (!cover.ok()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "exact_repair: ", cover.status().message()));
      }
      d->exact_repair = *cover;
    }
    d->conflict_graph->TryStart();
    d->conflict_graph->SetReady(*std::move(graph));
  }

  absl::MutexLock write_lock(&write_mu_);
  RETURN_IF_ERROR(CheckPresence(id, replace));
  if (replace) {
    ASSIGN_OR_RETURN(std::shared_ptr<const LoadedDataset> old, Get(id));
    if (old != context.previous) {
      return absl::AbortedError(absl::StrCat(
          "Dataset '", id, "' was replaced by another call meanwhile; send "
          "the replacement again."));
    }
    d->version = old->version + 1;
  }
  d->registered_at = absl::Now();

  // Publish on disk: write a complete staging directory, then give it the
  // dataset's name with renames (each atomic); RecoverWorkDirs finishes or
  // rolls back after a crash in between.
  const fs::path root = fs::path(options_.data_dir) / "datasets";
  const fs::path staging = root / absl::StrCat(kStagingPrefix, id);
  const fs::path current = root / id;
  const fs::path old = root / absl::StrCat(kOldPrefix, id);
  RETURN_IF_ERROR(RemoveTree(staging));
  absl::Status written = WriteDatasetDir(staging, *d, csv_text, edges);
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
  RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  if (replace) {
    // The new version is durable; the old one is garbage (also collected at
    // the next Open if this fails).
    RemoveTree(old).IgnoreError();
  }
  {
    absl::MutexLock lock(&mu_);
    datasets_[id] = d;
  }
  return std::shared_ptr<const LoadedDataset>(std::move(d));
}

absl::Status DatasetRegistry::CheckPresence(const std::string& id,
                                            bool must_exist) const {
  const bool exists = Contains(id);
  if (must_exist && !exists) {
    return absl::NotFoundError(
        absl::StrCat("Dataset '", id, "' does not exist: register it first."));
  }
  if (!must_exist && exists) {
    return absl::AlreadyExistsError(
        absl::StrCat("Dataset '", id,
                     "' already exists: use ReplaceDataset to upload a "
                     "new version."));
  }
  return absl::OkStatus();
}

absl::Status DatasetRegistry::Delete(const std::string& dataset_id) {
  RETURN_IF_ERROR(ValidateId(dataset_id, "dataset_id"));
  absl::MutexLock write_lock(&write_mu_);
  RETURN_IF_ERROR(CheckPresence(dataset_id, /*must_exist=*/true));
  const fs::path root = fs::path(options_.data_dir) / "datasets";
  const fs::path trash = root / absl::StrCat(kTrashPrefix, dataset_id);
  RETURN_IF_ERROR(RemoveTree(trash));
  RETURN_IF_ERROR(RenamePath(root / dataset_id, trash));
  RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  std::shared_ptr<const LoadedDataset> previous;
  {
    absl::MutexLock lock(&mu_);
    auto it = datasets_.find(dataset_id);
    if (it != datasets_.end()) {
      previous = std::move(it->second);
      datasets_.erase(it);
    }
  }
  // Requests holding the shared_ptr keep their in-memory copy; the files
  // are gone for good (or removed at the next Open if this fails).
  RemoveTree(trash).IgnoreError();
  return absl::OkStatus();
}

absl::StatusOr<std::string> DatasetRegistry::ReadServerFile(
    const std::string& path) const {
  ASSIGN_OR_RETURN(
      const std::string real,
      ResolveImportPath(path, options_.import_dir, options_.data_dir));
  absl::StatusOr<std::string> text =
      ReadWholeFile(fs::path(real), options_.max_csv_bytes,
                    /*no_follow=*/true);
  if (!text.ok()) {
    return core::util::WithPrefix("server_path: ", text.status());
  }
  return text;
}

}  // namespace dpq::server::registry
