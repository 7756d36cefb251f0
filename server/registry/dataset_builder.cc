#include "server/registry/dataset_builder.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/measures/vertex_cover.h"
#include "core/private/degree_bound.h"
#include "core/private/release_inputs.h"
#include "core/table/csv_encoding.h"
#include "core/util/memory_reuse.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "core/util/text_check.h"
#include "server/proto_text.h"
#include "server/registry/graph_builder.h"
#include "server/registry/manifest.h"
#include "server/registry/table_builder.h"

namespace dpq::server::registry {
namespace {

absl::Status CheckCsvIsUtf8(absl::string_view csv_text) {
  absl::Status utf8 = core::table::CheckCsvIsUtf8(csv_text);
  if (!utf8.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("csv: ", utf8.message()));
  }
  return absl::OkStatus();
}

// Everything a buyer can read about the version (DatasetInfo, and a graph's
// node labels, which SelectInfluentialNodes returns) is printable UTF-8:
// no control characters, which would let owner text forge lines or move
// the cursor on a buyer's terminal (docs/security.md, item 7). Checked at
// registration, where the owner can fix it; the CSV is UTF-8 already.
absl::Status CheckPublishedText(const LoadedDataset& d) {
  if (std::optional<UnprintableText> bad =
          FindUnprintableText(d.PublicInfo())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Buyers would read text that is not printable: DatasetInfo.", bad->path,
        ", ", bad->problem,
        ". The description, column names, constraint lines and cube "
        "labels are shown to buyers and must be UTF-8 without control "
        "characters (no tabs, line breaks or escape sequences)."));
  }
  for (size_t i = 0; i < d.edge_graph.labels.size(); ++i) {
    const std::string& label = d.edge_graph.labels[i];
    if (std::optional<core::util::ControlCharacter> c =
            core::util::FindControlCharacter(label)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Node label ", i + 1, ": character ",
          core::util::PositionOf(label, c->offset).character,
          " is the control character ",
          core::util::CodePointName(c->code_point),
          "; node labels are shown to buyers and must be printable."));
    }
  }
  return absl::OkStatus();
}

// What buyers read about a new version is bounded (kMaxColumns,
// kMaxPublicInfoBytes), at registration, where the owner can fix it: a
// header-only CSV of 1.5M columns registered and then broke every
// ListDatasets with a 33 MB response. kInvalidArgument naming the limit.
absl::Status CheckPublishedSize(const LoadedDataset& d) {
  if (!d.is_graph() && d.table.num_columns() > kMaxColumns) {
    return absl::InvalidArgumentError(absl::StrCat(
        "csv: the table has ", d.table.num_columns(),
        " columns; a dataset may have at most ", kMaxColumns,
        ". Split it, or drop the columns buyers need no score for."));
  }
  const size_t bytes = d.PublicInfo().ByteSizeLong();
  if (bytes > kMaxPublicInfoBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The dataset's public description (column names, constraints, cube "
        "labels, description) takes ",
        bytes, " bytes; at most ", kMaxPublicInfoBytes,
        " are allowed, so that every client can list it. Shorten the names "
        "or declare fewer cube labels."));
  }
  return absl::OkStatus();
}

// kDeadlineExceeded once the admin's call is over: the registration stops
// and registers nothing, instead of finishing for a caller who left.
absl::Status CheckRegistrationDeadline(absl::Time deadline) {
  if (absl::Now() < deadline) return absl::OkStatus();
  return absl::DeadlineExceededError(
      "The call's deadline passed while the conflict graph was built or the "
      "exact repair proven; nothing was registered. Retry with a longer "
      "deadline (dpq --timeout SECONDS).");
}

// The exact minimum cover of a new table version's conflict graph: the
// owner's choice, decided here where only the owner sees a failure (a buyer
// never sees a data-dependent fallback).
absl::StatusOr<uint64_t> ProveExactRepair(const RegistryOptions& options,
                                          const core::graph::Graph& graph,
                                          absl::Time deadline) {
  core::measures::VertexCoverLimits limits;
  limits.deadline =
      std::min(deadline, absl::Now() + options.exact_repair_time_limit);
  absl::StatusOr<uint64_t> cover =
      core::measures::ExactRepairOrExplain(graph, limits);
  RETURN_IF_ERROR(CheckRegistrationDeadline(deadline));
  if (!cover.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("exact_repair: ", cover.status().message()));
  }
  return *cover;
}

}  // namespace

absl::Status CheckTextContract(const LoadedDataset& dataset,
                               absl::string_view csv_text) {
  RETURN_IF_ERROR(CheckCsvIsUtf8(csv_text));
  return CheckPublishedText(dataset);
}

absl::StatusOr<std::shared_ptr<LoadedDataset>> BuildDataset(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    absl::string_view csv_text, const BuildContext& context, bool* migrated) {
  auto d = std::make_shared<LoadedDataset>();
  d->manifest = manifest;
  ASSIGN_OR_RETURN(d->kind, ManifestKind(manifest));
  d->manifest.set_kind(d->kind);
  d->csv_bytes = csv_text.size();
  if (context.previous != nullptr && context.previous->kind != d->kind) {
    return absl::FailedPreconditionError(
        absl::StrCat("kind: dataset '", manifest.dataset_id(), "' is a ",
                     context.previous->is_graph() ? "graph" : "table",
                     "; a replacement must keep its kind (and privacy unit)."));
  }
  // A stored version was accepted by an earlier server, before the text
  // contract: it loads as it is (responses are repaired on the way out,
  // and the registry logs it), so that one old dataset cannot stop a start.
  if (!context.stored) RETURN_IF_ERROR(CheckCsvIsUtf8(csv_text));
  if (d->is_graph()) {
    RETURN_IF_ERROR(internal::BuildGraph(options, manifest, csv_text, context,
                                         d.get(), migrated));
  } else {
    RETURN_IF_ERROR(internal::BuildTable(options, manifest, csv_text, context,
                                         d.get(), migrated));
  }
  if (!context.stored) {
    RETURN_IF_ERROR(CheckPublishedText(*d));
    RETURN_IF_ERROR(CheckPublishedSize(*d));
  }
  return d;
}

absl::StatusOr<ConflictGraphData> BuildConflictGraphData(
    const RegistryOptions& options, const LoadedDataset& d,
    absl::Time deadline) {
  // The build's temporaries, kept for reuse while it ran (server/main.cc),
  // go back to the system whether it succeeds or not: a server holds only
  // what it serves.
  const absl::Cleanup return_memory = [] { core::util::ReturnFreedMemory(); };
  core::graph::ConflictGraphOptions graph_options;
  graph_options.deadline = deadline;
  graph_options.num_threads = options.graph_threads;
  graph_options.max_edges = options.max_edges;
  ASSIGN_OR_RETURN(core::private_measures::ReleaseInputs inputs,
                   core::private_measures::ComputeReleaseInputs(d.table, d.dcs,
                                                                graph_options));
  ConflictGraphData data;
  data.graph = std::move(inputs.graph);
  data.degree_bounds = std::move(inputs.degree_bounds);
  data.cover_bound = *inputs.cover_bound;  // wanted by default
  return data;
}

absl::Status CheckRebuild(const RecordedGraph& recorded,
                          const ConflictGraphData& rebuilt) {
  const auto differs = [](absl::string_view what, auto recorded_value,
                          auto rebuilt_value) {
    return absl::DataLossError(absl::StrCat(
        "the rebuilt conflict graph's ", what, " is ", rebuilt_value,
        ", but registration recorded ", recorded_value, "."));
  };
  const uint64_t edges = rebuilt.graph.graph.num_edges();
  if (recorded.edges.has_value() && *recorded.edges != edges) {
    return differs("edge count", *recorded.edges, edges);
  }
  if (recorded.cover_bound.has_value() &&
      *recorded.cover_bound != rebuilt.cover_bound) {
    return differs("cover bound", *recorded.cover_bound, rebuilt.cover_bound);
  }
  if (!recorded.degree_bounds.has_value()) return absl::OkStatus();
  const auto& want = *recorded.degree_bounds;
  const auto& got = rebuilt.degree_bounds;
  if (want.size() != got.size()) {
    return differs("number of degree bounds", want.size(), got.size());
  }
  for (size_t i = 0; i < want.size(); ++i) {
    // A file without the cross bounds recorded '-' for a cross-keyed DC.
    const bool cross_differs = recorded.cross_bounds_recorded &&
                               (want[i].cross_keyed != got[i].cross_keyed ||
                                want[i].cross_bound != got[i].cross_bound);
    if (want[i].keyed != got[i].keyed || want[i].bound != got[i].bound ||
        cross_differs) {
      const auto text = [](const core::private_measures::DcDegreeBound& b) {
        return b.keyed         ? absl::StrCat(b.bound)
               : b.cross_keyed ? absl::StrCat(b.cross_bound, " (cross-keyed)")
                               : std::string("- (unkeyed)");
      };
      return differs(absl::StrCat("degree bound of DC ", i + 1), text(want[i]),
                     text(got[i]));
    }
  }
  return absl::OkStatus();
}

absl::Status BuildRegistrationGraph(const RegistryOptions& options,
                                    absl::Time deadline, LoadedDataset* d) {
  if (d->is_graph()) return absl::OkStatus();
  absl::StatusOr<ConflictGraphData> graph =
      BuildConflictGraphData(options, *d, deadline);
  RETURN_IF_ERROR(CheckRegistrationDeadline(deadline));
  if (!graph.ok()) {
    return core::util::WithPrefix(
        "constraints: the conflict graph of these rows cannot be built: ",
        graph.status());
  }
  if (d->manifest.exact_repair()) {
    ASSIGN_OR_RETURN(d->exact_repair,
                     ProveExactRepair(options, graph->graph.graph, deadline));
  }
  d->conflict_graph->TryStart();
  d->conflict_graph->SetReady(*std::move(graph));
  return absl::OkStatus();
}

}  // namespace dpq::server::registry
