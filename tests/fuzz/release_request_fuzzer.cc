// Fuzz target: the buyer release requests, as the server receives them
// (wire bytes), through the checks their handlers run before anything is
// reserved (server/buyer/<rpc>_impl.h). Byte 0 picks the type:
// 0 MeasureInconsistency, 1 QualityReport, 2 ReleaseCuboids,
// 3 TrainDecisionTree, 4 SelectInfluentialNodes. The datasets: "people"
// (a table with a declared cube and a public exact cuboid), "plain" (no
// cube) and "net" (a graph of 6 nodes), registered once per process in a
// temporary data directory.
// Invariants: a refusal is one of the documented codes with a message; an
// accepted request yields a reservation for the caller and the request's
// dataset with a request_id, a SHA-256 fingerprint that does not depend on
// the request_id or the call, and a charge that covers what the
// mechanisms may spend, in whole ledger units.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/epsilon_units.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/quality_report_impl.h"
#include "server/buyer/release_cuboids_impl.h"
#include "server/buyer/select_influential_nodes_impl.h"
#include "server/buyer/train_decision_tree_impl.h"
#include "server/registry/dataset_registry.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

namespace fs = std::filesystem;
namespace buyer = server::buyer;
namespace registry = server::registry;

// 40 people: Sex alternates F/M, Age 20..59, Label "yes" for Age >= 40.
std::string PeopleCsv() {
  std::string csv = "Sex,Age,Label\n";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", 20 + i, ",",
                    20 + i >= 40 ? "yes" : "no", "\n");
  }
  return csv;
}

void Register(registry::DatasetRegistry& r, const v1::DatasetManifest& m,
              std::string csv) {
  absl::Status registered = r.Register(m, std::move(csv)).status();
  FUZZ_CHECK_MSG(registered.ok(), registered.ToString());
}

const registry::DatasetRegistry& Registry() {
  static registry::DatasetRegistry* const r = [] {
    static const fs::path dir =
        fs::temp_directory_path() /
        absl::StrCat("dpq_fuzz_release_request_", ::getpid());
    fs::remove_all(dir);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    });
    registry::DatasetRegistry::Options options;
    options.data_dir = dir.string();
    options.graph_threads = 1;
    absl::StatusOr<std::unique_ptr<registry::DatasetRegistry>> opened =
        registry::DatasetRegistry::Open(options);
    FUZZ_CHECK_MSG(opened.ok(), opened.status().ToString());
    v1::DatasetManifest people;
    people.set_dataset_id("people");
    people.set_constraints("Sex -> Label\n");
    people.set_public_max_rows(100);
    people.set_infer_column_types(true);
    for (const char* column : {"Sex", "Age", "Label"}) {
      v1::CubeDimension* dim = people.add_cube_dimensions();
      dim->set_column(column);
      dim->set_infer_domain(true);
    }
    people.add_public_cuboids()->add_dimensions("Sex");
    Register(**opened, people, PeopleCsv());
    people.set_dataset_id("plain");
    people.clear_cube_dimensions();
    people.clear_public_cuboids();
    Register(**opened, people, PeopleCsv());
    v1::DatasetManifest net;
    net.set_dataset_id("net");
    net.set_kind(v1::DATASET_KIND_GRAPH);
    for (const char* node : {"a", "b", "c", "d", "e", "f"}) {
      net.add_node_labels(node);
    }
    Register(**opened, net, "source,target\na,b\nb,c\nc,a\nc,d\ne,f\n");
    return opened->release();
  }();
  return *r;
}

const server::auth::Principal& Caller() {
  static const server::auth::Principal caller{"fuzz-buyer",
                                              server::auth::Role::kBuyer};
  return caller;
}

void CheckRefusal(const absl::Status& status) {
  CheckError(status);
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kResourceExhausted:
      return;
    default:
      FUZZ_CHECK_MSG(false, status.ToString());
  }
}

int64_t Units(double epsilon) {
  absl::StatusOr<int64_t> units = core::ledger::ChargeUnits(epsilon);
  FUZZ_CHECK_MSG(units.ok(), units.status().ToString());
  return *units;
}

// The checks every accepted request shares; `again` is the same request
// prepared a second time.
template <typename Request, typename Spec>
void CheckPrepared(const Request& request,
                   const buyer::PreparedRelease<Spec>& prepared,
                   const buyer::PreparedRelease<Spec>& again) {
  const core::ledger::ReserveRequest& reserve = prepared.reserve;
  FUZZ_CHECK(reserve.buyer_id == Caller().id);
  FUZZ_CHECK(reserve.dataset_id == request.dataset_id());
  FUZZ_CHECK(prepared.dataset != nullptr &&
             prepared.dataset->manifest.dataset_id() == request.dataset_id());
  FUZZ_CHECK(!reserve.request_id.empty());
  if (!request.request_id().empty()) {
    FUZZ_CHECK(reserve.request_id == request.request_id());
  }
  FUZZ_CHECK(reserve.fingerprint.size() == 64);
  for (char c : reserve.fingerprint) {
    FUZZ_CHECK(absl::ascii_isxdigit(c) && !absl::ascii_isupper(c));
  }
  FUZZ_CHECK(reserve.fingerprint == again.reserve.fingerprint);
  FUZZ_CHECK(reserve.epsilon == again.reserve.epsilon);
  FUZZ_CHECK(std::isfinite(reserve.epsilon) && reserve.epsilon > 0);
  FUZZ_CHECK(prepared.budget.epsilon > 0);
  int64_t spent = Units(prepared.budget.epsilon);
  if (prepared.budget.extra_epsilon > 0) {
    spent += Units(prepared.budget.extra_epsilon);
  }
  FUZZ_CHECK(Units(reserve.epsilon) >= spent);
}

template <typename Request, typename Spec, typename Prepare>
void Run(const uint8_t* data, size_t size, Prepare prepare,
         void (*check_spec)(const Request&,
                            const buyer::PreparedRelease<Spec>&)) {
  Request request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return;
  absl::StatusOr<buyer::PreparedRelease<Spec>> prepared =
      prepare(Registry(), Caller(), request);
  if (!prepared.ok()) {
    CheckRefusal(prepared.status());
    return;
  }
  absl::StatusOr<buyer::PreparedRelease<Spec>> again =
      prepare(Registry(), Caller(), request);
  FUZZ_CHECK_MSG(again.ok(), again.status().ToString());
  CheckPrepared(request, *prepared, *again);
  check_spec(request, *prepared);
}

namespace pm = core::private_measures;
namespace sel = core::selection;

// The measures' parts sum to at most the quantised epsilon (which may lie
// half a ledger unit above the request's: it is rounded to whole units and
// charged as such).
void CheckMeasure(const v1::MeasureInconsistencyRequest&,
                  const buyer::PreparedRelease<pm::MeasureRelease>& prepared) {
  const pm::MeasureRelease& release = prepared.spec;
  FUZZ_CHECK(release.measures.size() == 1);
  FUZZ_CHECK(release.epsilon_each > 0 &&
             release.epsilon_each <= prepared.budget.epsilon);
}

void CheckReport(const v1::QualityReportRequest&,
                 const buyer::PreparedRelease<pm::MeasureRelease>& prepared) {
  const pm::MeasureRelease& release = prepared.spec;
  FUZZ_CHECK(release.measures.size() == 3);
  FUZZ_CHECK(release.epsilon_each > 0 && release.epsilon_each +
                                                 release.epsilon_each +
                                                 release.epsilon_each <=
                                             prepared.budget.epsilon);
}

void CheckCuboids(
    const v1::ReleaseCuboidsRequest& request,
    const buyer::PreparedRelease<core::cube::CuboidRequest>& prepared) {
  const core::cube::CuboidRequest& cuboids = prepared.spec;
  FUZZ_CHECK(!cuboids.cuboids.empty());
  FUZZ_CHECK(static_cast<int>(cuboids.cuboids.size()) ==
             request.cuboids_size());
  FUZZ_CHECK(cuboids.cuboids.size() <= core::cube::kMaxCuboidsPerRequest);
}

void CheckTree(
    const v1::TrainDecisionTreeRequest& request,
    const buyer::PreparedRelease<sel::DecisionTreeRequest>& prepared) {
  const sel::DecisionTreeRequest& tree = prepared.spec;
  FUZZ_CHECK(tree.label_column == request.label_column());
  for (const std::string& feature : tree.features) {
    FUZZ_CHECK(feature != tree.label_column);
  }
}

void CheckNodes(
    const v1::SelectInfluentialNodesRequest&,
    const buyer::PreparedRelease<sel::InfluentialNodesRequest>& prepared) {
  const sel::InfluentialNodesRequest& nodes = prepared.spec;
  FUZZ_CHECK(nodes.k >= 1 && nodes.k <= 6);  // "net" has 6 nodes
}

}  // namespace

int FuzzReleaseRequest(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t* wire = data + 1;
  const size_t n = size - 1;
  switch (data[0] % 5) {
    case 0:
      Run<v1::MeasureInconsistencyRequest, pm::MeasureRelease>(
          wire, n, buyer::PrepareMeasureInconsistency, CheckMeasure);
      break;
    case 1:
      Run<v1::QualityReportRequest, pm::MeasureRelease>(
          wire, n, buyer::PrepareQualityReport, CheckReport);
      break;
    case 2:
      Run<v1::ReleaseCuboidsRequest, core::cube::CuboidRequest>(
          wire, n, buyer::PrepareReleaseCuboids, CheckCuboids);
      break;
    case 3:
      Run<v1::TrainDecisionTreeRequest, sel::DecisionTreeRequest>(
          wire, n, buyer::PrepareTrainDecisionTree, CheckTree);
      break;
    case 4:
      Run<v1::SelectInfluentialNodesRequest, sel::InfluentialNodesRequest>(
          wire, n, buyer::PrepareSelectInfluentialNodes, CheckNodes);
      break;
  }
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzReleaseRequest)
