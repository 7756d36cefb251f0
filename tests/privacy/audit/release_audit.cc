#include "tests/privacy/audit/release_audit.h"

#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/util/status_macros.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/quality_report_impl.h"
#include "server/buyer/release_cuboids_impl.h"
#include "server/buyer/select_influential_nodes_impl.h"
#include "server/buyer/train_decision_tree_impl.h"
#include "server/registry/dataset_registry.h"
#include "server/storage/sqlite_accounts_store.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/testing/seeded_urbg.h"
#include "tools/dpq_measure/measure_tool.h"

namespace dpq::audit {
namespace {

namespace fs = std::filesystem;
using server::buyer::BuyerServiceImpl;

// ---- The production service with a seeded random source -------------------

// A registry in a fresh directory, an in-memory ledger and the buyer
// service whose every release draws from its own seeded generator.
class Harness {
 public:
  static absl::StatusOr<std::unique_ptr<Harness>> Create(uint64_t seed) {
    auto h = std::unique_ptr<Harness>(new Harness());
    std::string pattern =
        (fs::temp_directory_path() / "dpq-privacy-audit-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError("mkdtemp failed");
    }
    h->dir_ = pattern;
    server::registry::DatasetRegistry::Options options;
    options.data_dir = h->dir_.string();
    options.graph_threads = 1;
    ASSIGN_OR_RETURN(h->registry_,
                     server::registry::DatasetRegistry::Open(options));
    ASSIGN_OR_RETURN(h->ledger_,
                     server::storage::SqliteLedgerStore::Open(":memory:"));
    auto counter = std::make_shared<std::atomic<uint64_t>>(0);
    // The audit calls the *Impl functions: no call is authenticated.
    ASSIGN_OR_RETURN(h->accounts_,
                     server::storage::SqliteAccountsStore::Open(":memory:"));
    h->service_ = std::make_unique<BuyerServiceImpl>(
        h->registry_.get(), h->ledger_.get(), h->accounts_.get(),
        /*max_heavy_jobs=*/4,
        /*max_heavy_jobs_per_buyer=*/4,
        [counter, seed]() -> std::unique_ptr<core::dp::SecureUrbg> {
          // One independent stream per release.
          return std::make_unique<dpq::testing::SeededUrbg>(
              seed * 0x9E3779B97F4A7C15ULL + counter->fetch_add(1));
        });
    return h;
  }
  ~Harness() {
    service_.reset();
    registry_.reset();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  // Registers `csv` under `manifest` (its id replaced by `id`) and grants
  // the auditor an effectively unlimited budget on it.
  absl::Status Register(v1::DatasetManifest manifest, const std::string& id,
                        const std::string& csv) {
    manifest.set_dataset_id(id);
    RETURN_IF_ERROR(registry_->Register(manifest, csv).status());
    return ledger_->SetGranted(kAuditor, id, 8e6).status();
  }

  const BuyerServiceImpl& service() const { return *service_; }
  server::auth::Principal auditor() const {
    return server::auth::Principal{kAuditor, server::auth::Role::kBuyer};
  }
  std::string NextRequestId() { return absl::StrCat("audit-", ++requests_); }

 private:
  static constexpr char kAuditor[] = "auditor";
  Harness() = default;
  fs::path dir_;
  std::unique_ptr<server::registry::DatasetRegistry> registry_;
  std::unique_ptr<server::storage::SqliteLedgerStore> ledger_;
  std::unique_ptr<server::storage::SqliteAccountsStore> accounts_;
  std::unique_ptr<BuyerServiceImpl> service_;
  uint64_t requests_ = 0;
};

// One release on `dataset` through the production handler.
using Release = std::function<absl::StatusOr<Observation>(
    Harness& h, const std::string& dataset)>;

// Registers D and D' and draws `samples` releases on each.
absl::Status RunOnPair(const v1::DatasetManifest& manifest,
                       const std::string& csv_d, const std::string& csv_d_prime,
                       const Release& release, int samples, uint64_t seed,
                       std::vector<Observation>* on_d,
                       std::vector<Observation>* on_d_prime) {
  ASSIGN_OR_RETURN(std::unique_ptr<Harness> h, Harness::Create(seed));
  RETURN_IF_ERROR(h->Register(manifest, "d", csv_d));
  RETURN_IF_ERROR(h->Register(manifest, "d-prime", csv_d_prime));
  on_d->clear();
  on_d_prime->clear();
  for (int i = 0; i < samples; ++i) {
    ASSIGN_OR_RETURN(Observation a, release(*h, "d"));
    ASSIGN_OR_RETURN(Observation b, release(*h, "d-prime"));
    on_d->push_back(std::move(a));
    on_d_prime->push_back(std::move(b));
  }
  return absl::OkStatus();
}

// ---- Releases ---------------------------------------------------------------

Release Measure(v1::Measure measure, v1::SelectionMethod method, double epsilon,
                v1::RepairMethod repair = v1::REPAIR_METHOD_UNSPECIFIED) {
  return [=](Harness& h,
             const std::string& dataset) -> absl::StatusOr<Observation> {
    v1::MeasureInconsistencyRequest request;
    request.set_dataset_id(dataset);
    request.set_measure(measure);
    request.set_method(method);
    request.set_repair_method(repair);
    request.set_epsilon(epsilon);
    request.set_request_id(h.NextRequestId());
    v1::MeasureInconsistencyResponse response;
    RETURN_IF_ERROR(MeasureInconsistencyImpl(h.service().core(), h.auditor(),
                                             request, &response));
    // Everything released: the value, the interval's ends (the upper one
    // carries group_bound's uncovered-row count), theta and the degree bound.
    const v1::MeasureResult& r = response.result();
    Observation o;
    o.numbers = {{"value", static_cast<double>(r.value())},
                 {"lower95", static_cast<double>(r.lower95())},
                 {"upper95", static_cast<double>(r.upper95())}};
    o.keys = {{"theta", absl::StrCat(r.theta())},
              {"degree_upper", absl::StrCat(r.degree_upper())}};
    return o;
  };
}

Release Report(double epsilon, bool row_count = false) {
  return [=](Harness& h,
             const std::string& dataset) -> absl::StatusOr<Observation> {
    v1::QualityReportRequest request;
    request.set_dataset_id(dataset);
    request.set_epsilon(epsilon);
    request.set_include_row_count(row_count);
    request.set_request_id(h.NextRequestId());
    v1::QualityReportResponse response;
    RETURN_IF_ERROR(
        QualityReportImpl(h.service().core(), h.auditor(), request, &response));
    Observation o;
    for (const v1::MeasureResult& r : response.results()) {
      o.numbers.emplace_back(absl::StrCat("measure ", r.measure()),
                             static_cast<double>(r.value()));
      o.numbers.emplace_back(absl::StrCat("upper95 ", r.measure()),
                             static_cast<double>(r.upper95()));
    }
    if (response.has_row_count()) {
      o.numbers.emplace_back("rows",
                             static_cast<double>(response.row_count().value()));
    }
    return o;
  };
}

Release Cuboid(std::vector<std::string> dims, double epsilon) {
  return [=](Harness& h,
             const std::string& dataset) -> absl::StatusOr<Observation> {
    v1::ReleaseCuboidsRequest request;
    request.set_dataset_id(dataset);
    v1::CuboidSpec* spec = request.add_cuboids();
    for (const std::string& d : dims) spec->add_dimensions(d);
    request.set_epsilon(epsilon);
    request.set_request_id(h.NextRequestId());
    v1::ReleaseCuboidsResponse response;
    RETURN_IF_ERROR(ReleaseCuboidsImpl(h.service().core(), h.auditor(), request,
                                       &response));
    Observation o;
    for (const v1::CuboidCell& cell : response.cuboids(0).cells()) {
      o.numbers.emplace_back(absl::StrJoin(cell.values(), "|"), cell.count());
    }
    return o;
  };
}

Release Tree(double epsilon, double accuracy_epsilon) {
  return [=](Harness& h,
             const std::string& dataset) -> absl::StatusOr<Observation> {
    v1::TrainDecisionTreeRequest request;
    request.set_dataset_id(dataset);
    request.set_label_column("Label");
    request.set_positive_class("yes");
    request.set_epsilon(epsilon);
    request.set_accuracy_epsilon(accuracy_epsilon);
    request.set_generations(2);
    request.set_population(4);
    request.set_request_id(h.NextRequestId());
    v1::TrainDecisionTreeResponse response;
    RETURN_IF_ERROR(TrainDecisionTreeImpl(h.service().core(), h.auditor(),
                                          request, &response));
    Observation o;
    o.keys = {{"tree", response.tree_text()}};
    o.numbers = {{"tpr", response.tpr()}, {"tnr", response.tnr()}};
    return o;
  };
}

Release Nodes(v1::SelectionApproach approach, v1::SensitivityMode mode,
              uint32_t k, double epsilon) {
  return [=](Harness& h,
             const std::string& dataset) -> absl::StatusOr<Observation> {
    v1::SelectInfluentialNodesRequest request;
    request.set_dataset_id(dataset);
    request.set_k(k);
    request.set_approach(approach);
    request.set_sensitivity(mode);
    request.set_epsilon(epsilon);
    request.set_request_id(h.NextRequestId());
    v1::SelectInfluentialNodesResponse response;
    RETURN_IF_ERROR(SelectInfluentialNodesImpl(h.service().core(), h.auditor(),
                                               request, &response));
    Observation o;
    o.keys = {{"nodes", absl::StrJoin(response.nodes(), ",")},
              {"first", response.nodes(0)}};
    return o;
  };
}

// ---- Neighbouring pairs
// -------------------------------------------------------

struct TablePair {
  v1::DatasetManifest manifest;
  std::string d;
  std::string d_prime;  // D plus one row (or, with public cuboids, an
                        // induced neighbour)
};

void Declare(v1::DatasetManifest& m, const std::string& column,
             v1::ColumnType type) {
  v1::Column* c = m.add_column_types();
  c->set_name(column);
  c->set_type(type);
}

v1::DatasetManifest TableManifest(const std::string& constraints) {
  v1::DatasetManifest m;
  m.set_constraints(constraints);
  m.set_public_max_rows(100);
  return m;
}

// A hub row: 30 equal rows, and D' adds one that conflicts with all of
// them (I_MI +30, I_P +31, I_R +1).
TablePair HubPair() {
  TablePair p{TableManifest("A -> B"), "A,B\n", ""};
  Declare(p.manifest, "A", v1::COLUMN_TYPE_STRING);
  Declare(p.manifest, "B", v1::COLUMN_TYPE_STRING);
  for (int i = 0; i < 30; ++i) p.d += "k,b\n";
  p.d_prime = p.d + "k,c\n";
  return p;
}

// A hub row through a cross-column equality (group_bound's cross-keyed
// DCs): 30 rows arrive at k, and D' adds one departing from k at another
// gate, which conflicts with all of them (I_MI +30, I_P +31, I_R +1) while
// the largest value count c stays 30.
TablePair CrossHubPair() {
  TablePair p{TableManifest("t1&t2&EQ(t1.Dep,t2.Arr)&IQ(t1.Gate,t2.Gate)"),
              "Dep,Arr,Gate\n", ""};
  for (const char* column : {"Dep", "Arr", "Gate"}) {
    Declare(p.manifest, column, v1::COLUMN_TYPE_STRING);
  }
  for (int i = 0; i < 30; ++i) absl::StrAppend(&p.d, "d", i, ",k,g\n");
  p.d_prime = p.d + "k,z,h\n";
  return p;
}

// A row that moves the chosen theta: a 12-clique among 32 rows grows to a
// 13-clique (the maximum degree, and the projections' profile, move).
TablePair ThetaPair() {
  TablePair p{TableManifest("A -> B"), "A,B\n", ""};
  Declare(p.manifest, "A", v1::COLUMN_TYPE_STRING);
  Declare(p.manifest, "B", v1::COLUMN_TYPE_STRING);
  for (int i = 0; i < 12; ++i) absl::StrAppend(&p.d, "k,b", i, "\n");
  for (int i = 0; i < 20; ++i) absl::StrAppend(&p.d, "u", i, ",x\n");
  p.d_prime = p.d + "k,b12\n";
  return p;
}

// The type-flip pair (docs/privacy.md 2.2): column a holds "1.0", "1.00", ...
// and D' adds a row with a = "x". Declared text (a double column refuses "x" at
// registration, where the owner sees it): every cell means the same in D and
// D'.
TablePair TypeFlipPair(bool nan) {
  TablePair p{TableManifest("t1&t2&EQ(t1.a,t2.a)&IQ(t1.b,t2.b)"), "a,b\n", ""};
  Declare(p.manifest, "a", v1::COLUMN_TYPE_STRING);
  Declare(p.manifest, "b", v1::COLUMN_TYPE_INT64);
  if (nan) {
    // 39 "NaN" cells (NULL in a numeric column, 39 equal texts here).
    for (int i = 0; i < 39; ++i) absl::StrAppend(&p.d, "NaN,", i, "\n");
    absl::StrAppend(&p.d, "1.5,39\n");
  } else {
    for (int i = 0; i < 40; ++i) {
      absl::StrAppend(&p.d, "1.", std::string(static_cast<size_t>(i + 1), '0'),
                      ",", i, "\n");
    }
  }
  p.d_prime = p.d + "x,40\n";
  return p;
}

// Duplicate rows and empty (NULL) keys: D' adds a duplicate of the row
// that already conflicts with ten others.
TablePair DuplicatePair() {
  TablePair p{TableManifest("A -> B"), "A,B\n", ""};
  Declare(p.manifest, "A", v1::COLUMN_TYPE_STRING);
  Declare(p.manifest, "B", v1::COLUMN_TYPE_STRING);
  for (int i = 0; i < 10; ++i) p.d += "k,b\n";
  for (int i = 0; i < 5; ++i) p.d += ",b\n";  // NULL keys: no conflicts
  p.d += "k,c\n";
  p.d_prime = p.d + "k,c\n";
  return p;
}

// The scale where doubles used to decide the cover bound
// (core/measures/clique_lp_bound.h): 100,002 groups of 7 rows whose
// values differ, under an inequality DC across two equal columns v and w
// (so neither FD blocks nor order chains: the triangle LP of each K7 is
// 14/3, not a double), then a group of two rows (an edge); D' adds a third
// row to that group, closing a triangle. Cover LP 466,677 on D and 466,678
// on D', both integers.
TablePair ManyCliquesPair() {
  TablePair p{TableManifest("t1&t2&EQ(t1.g,t2.g)&LT(t1.v,t2.w)"), "g,v,w\n",
              ""};
  p.manifest.set_public_max_rows(1'000'000);
  Declare(p.manifest, "g", v1::COLUMN_TYPE_INT64);
  Declare(p.manifest, "v", v1::COLUMN_TYPE_INT64);
  Declare(p.manifest, "w", v1::COLUMN_TYPE_INT64);
  p.d.reserve(12'000'000);
  for (int g = 0; g < 100'002; ++g) {
    for (int v = 0; v < 7; ++v) absl::StrAppend(&p.d, g, ",", v, ",", v, "\n");
  }
  p.d += "-1,0,0\n-1,1,1\n";
  p.d_prime = p.d + "-1,2,2\n";
  return p;
}

// Out-of-order timestamps under an order DC (core/graph/order_chains.h):
// 12 log rows whose timestamps run backwards (a 12-clique, one chain), 20
// in order after them; D' adds a row late in seq with the earliest
// timestamp, which conflicts with every row and lengthens the chain. With
// `fd`, a host column constant per batch of 8 rows except a typo in row
// 10, under batch -> host: its star reaches rows 12-15, which no chain
// joins to it, so the component's LP runs with chain cuts instead of the
// matching shortcut.
TablePair ChainPair(bool fd) {
  TablePair p{TableManifest(fd ? "t1&t2&LT(t1.seq,t2.seq)&GT(t1.ts,t2.ts)\n"
                                 "batch -> host"
                               : "t1&t2&LT(t1.seq,t2.seq)&GT(t1.ts,t2.ts)"),
              "seq,ts,batch,host\n", ""};
  for (const char* c : {"seq", "ts", "batch"}) {
    Declare(p.manifest, c, v1::COLUMN_TYPE_INT64);
  }
  Declare(p.manifest, "host", v1::COLUMN_TYPE_STRING);
  for (int i = 0; i < 32; ++i) {
    const int ts = i < 12 ? 200 - 10 * i : 1000 + 10 * i;
    absl::StrAppend(&p.d, i, ",", ts, ",", i / 8, ",",
                    fd && i == 10 ? "typo" : absl::StrCat("h", i / 8), "\n");
  }
  p.d_prime = p.d + "40,0,5,h5\n";
  return p;
}

// People for cubes and trees: Sex (F/M), Age, Label (yes/no).
std::string People(int rows) {
  std::string csv = "Sex,Age,Label\n";
  for (int i = 0; i < rows; ++i) {
    absl::StrAppend(&csv, i % 2 == 0 ? "F" : "M", ",", 20 + i % 40, ",",
                    (i * 7) % 3 == 0 ? "yes" : "no", "\n");
  }
  return csv;
}

v1::DatasetManifest PeopleManifest() {
  v1::DatasetManifest m = TableManifest("Sex -> Label");
  Declare(m, "Sex", v1::COLUMN_TYPE_STRING);
  Declare(m, "Age", v1::COLUMN_TYPE_INT64);
  Declare(m, "Label", v1::COLUMN_TYPE_STRING);
  v1::CubeDimension* sex = m.add_cube_dimensions();
  sex->set_column("Sex");
  sex->add_domain("F");
  sex->add_domain("M");
  v1::CubeDimension* age = m.add_cube_dimensions();
  age->set_column("Age");
  for (double e : {0.0, 30.0, 50.0, 100.0}) age->add_bin_edges(e);
  v1::CubeDimension* label = m.add_cube_dimensions();
  label->set_column("Label");
  label->add_domain("no");
  label->add_domain("yes");
  return m;
}

// D' adds a row whose Sex is undeclared: it lands in the "other" cell.
TablePair OtherCellPair() {
  TablePair p{PeopleManifest(), People(30), ""};
  p.d_prime = p.d + "X,25,no\n";
  return p;
}

// With the public exact cuboid [Sex], neighbours are induced neighbours:
// D' changes one row's Age and Label (same Sex), two rows apart.
TablePair InducedPair() {
  TablePair p{PeopleManifest(), People(30), ""};
  p.manifest.add_public_cuboids()->add_dimensions("Sex");
  const std::string first = "F,20,yes\n";
  p.d_prime = p.d;
  const size_t at = p.d_prime.find(first);
  p.d_prime.replace(at, first.size(), "F,70,no\n");
  return p;
}

// A tree pair with a rare class: one positive among 24 rows, and D' adds a
// second (TPR's local sensitivity 1 / max(P - t, 1) is at its largest).
TablePair TreePair() {
  TablePair p{PeopleManifest(), "Sex,Age,Label\nF,25,yes\n", ""};
  for (int i = 1; i < 24; ++i) {
    absl::StrAppend(&p.d, i % 2 == 0 ? "F" : "M", ",", 20 + i, ",no\n");
  }
  p.d_prime = p.d + "F,26,yes\n";
  return p;
}

// A graph over nodes 0..9: a star 0-{1..5} and a path 6-7-8; D' adds the
// edge 0-9, which raises the maximum degree.
struct GraphPair {
  v1::DatasetManifest manifest;
  std::string d;
  std::string d_prime;
};
GraphPair HubEdgePair() {
  GraphPair p;
  p.manifest.set_kind(v1::DATASET_KIND_GRAPH);
  p.manifest.set_node_count(10);
  p.d = "0,1\n0,2\n0,3\n0,4\n0,5\n6,7\n7,8\n";
  p.d_prime = p.d + "0,9\n";
  return p;
}

AuditCase ServiceCase(std::string name, double charged, TablePair pair,
                      Release release) {
  return AuditCase{std::move(name), charged, /*quick_samples=*/3000,
                   [pair = std::move(pair), release = std::move(release)](
                       int samples, uint64_t seed, std::vector<Observation>* d,
                       std::vector<Observation>* d_prime) {
                     return RunOnPair(pair.manifest, pair.d, pair.d_prime,
                                      release, samples, seed, d, d_prime);
                   }};
}

AuditCase GraphCase(std::string name, double charged, Release release) {
  const GraphPair pair = HubEdgePair();
  return AuditCase{std::move(name), charged, /*quick_samples=*/3000,
                   [pair, release = std::move(release)](
                       int samples, uint64_t seed, std::vector<Observation>* d,
                       std::vector<Observation>* d_prime) {
                     return RunOnPair(pair.manifest, pair.d, pair.d_prime,
                                      release, samples, seed, d, d_prime);
                   }};
}

// ---- dpq-measure, the owner's tool
// ----------------------------------------------

// dpq-measure --measure M --epsilon 1 --seed S without --schema: the path
// where types were once inferred per run, so that the "x" row re-typed
// column a (docs/privacy.md 2.2); now every column is text by default.
AuditCase MeasureToolCase(std::string name, std::string measure, bool nan) {
  const TablePair pair = TypeFlipPair(nan);
  return AuditCase{
      std::move(name), 1.0, /*quick_samples=*/1000,
      [pair, measure](int samples, uint64_t seed, std::vector<Observation>* d,
                      std::vector<Observation>* d_prime) -> absl::Status {
        std::string pattern =
            (fs::temp_directory_path() / "dpq-audit-tool-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
          return absl::InternalError("mkdtemp failed");
        }
        const fs::path dir(pattern);
        std::ofstream(dir / "d.csv") << pair.d;
        std::ofstream(dir / "p.csv") << pair.d_prime;
        std::ofstream(dir / "dc.txt") << pair.manifest.constraints();
        const std::regex value_re("\"value\":(-?[0-9]+)");
        const std::regex theta_re("\"theta\":([0-9]+|null)");
        auto run = [&](const std::string& file,
                       uint64_t s) -> absl::StatusOr<Observation> {
          server::tools::MeasureToolOptions o;
          o.data_path = (dir / file).string();
          o.constraints_path = (dir / "dc.txt").string();
          o.measure = measure;
          o.epsilon = 1;
          o.public_max_rows = 100;
          o.seed = s;
          std::vector<std::string> warnings;
          ASSIGN_OR_RETURN(const std::string json,
                           server::tools::RunMeasureTool(o, &warnings));
          std::smatch v, t;
          if (!std::regex_search(json, v, value_re) ||
              !std::regex_search(json, t, theta_re)) {
            return absl::InternalError(absl::StrCat("unparsed: ", json));
          }
          Observation obs;
          obs.numbers = {{"value", std::stod(v[1].str())}};
          obs.keys = {{"theta", t[1].str()}};
          return obs;
        };
        d->clear();
        d_prime->clear();
        absl::Status status;
        for (int i = 0; i < samples && status.ok(); ++i) {
          absl::StatusOr<Observation> a = run("d.csv", seed + 2 * i);
          absl::StatusOr<Observation> b = run("p.csv", seed + 2 * i + 1);
          if (!a.ok() || !b.ok()) {
            status = a.ok() ? b.status() : a.status();
          } else {
            d->push_back(*std::move(a));
            d_prime->push_back(*std::move(b));
          }
        }
        std::error_code ignored;
        fs::remove_all(dir, ignored);
        return status;
      }};
}

}  // namespace

std::vector<AuditCase> AllAuditCases() {
  using v1::MEASURE_MI;
  using v1::MEASURE_P;
  using v1::MEASURE_R;
  std::vector<AuditCase> cases;
  const std::vector<std::pair<v1::SelectionMethod, const char*>> methods = {
      {v1::SELECTION_METHOD_GROUP_BOUND, "group_bound"},
      {v1::SELECTION_METHOD_GEM, "gem"},
      {v1::SELECTION_METHOD_OPTIMIZED, "optimized"},
      {v1::SELECTION_METHOD_HIERARCHICAL, "hierarchical"},
      {v1::SELECTION_METHOD_BASIC, "basic"},
      {v1::SELECTION_METHOD_BASELINE, "baseline"}};
  // MeasureInconsistency: every method on the hub row.
  for (const auto& [measure, label] :
       {std::pair{MEASURE_MI, "MI"}, std::pair{MEASURE_P, "P"}}) {
    for (const auto& [method, method_name] : methods) {
      cases.push_back(ServiceCase(absl::StrCat("MeasureInconsistency ", label,
                                               " ", method_name, ": hub row"),
                                  1, HubPair(), Measure(measure, method, 1)));
    }
  }
  cases.push_back(
      ServiceCase("MeasureInconsistency R vertex_cover: hub row", 1, HubPair(),
                  Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
                          v1::REPAIR_METHOD_VERTEX_COVER)));
  cases.push_back(
      ServiceCase("MeasureInconsistency R cover_bound: hub row", 1, HubPair(),
                  Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
                          v1::REPAIR_METHOD_COVER_BOUND)));
  cases.push_back(ServiceCase(
      "MeasureInconsistency R cover_bound: 10^5 K7 components, a triangle "
      "closed",
      1, ManyCliquesPair(),
      Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
              v1::REPAIR_METHOD_COVER_BOUND)));
  cases.back().long_only = true;
  cases.push_back(ServiceCase(
      "MeasureInconsistency R cover_bound: order DC, a chain lengthened", 1,
      ChainPair(/*fd=*/false),
      Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
              v1::REPAIR_METHOD_COVER_BOUND)));
  cases.push_back(ServiceCase(
      "MeasureInconsistency R cover_bound: order DC and FD, chain cuts", 1,
      ChainPair(/*fd=*/true),
      Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
              v1::REPAIR_METHOD_COVER_BOUND)));
  TablePair exact_hub = HubPair();
  exact_hub.manifest.set_exact_repair(true);
  cases.push_back(ServiceCase(
      "MeasureInconsistency R exact (exact_repair): hub row", 1, exact_hub,
      Measure(MEASURE_R, v1::SELECTION_METHOD_UNSPECIFIED, 1,
              v1::REPAIR_METHOD_EXACT)));
  // The other worst cases, with the default methods.
  const std::vector<std::pair<const char*, TablePair>> pairs = {
      {"theta-moving row", ThetaPair()},
      {"hub row through a cross-column equality", CrossHubPair()},
      {"type-flip cell (declared text)", TypeFlipPair(false)},
      {"NaN cells (declared text)", TypeFlipPair(true)},
      {"duplicate row, NULL keys", DuplicatePair()}};
  for (const auto& [pair_name, pair] : pairs) {
    for (const auto& [measure, label] :
         {std::pair{MEASURE_MI, "MI"}, std::pair{MEASURE_P, "P"},
          std::pair{MEASURE_R, "R"}}) {
      cases.push_back(ServiceCase(
          absl::StrCat("MeasureInconsistency ", label, ": ", pair_name), 1,
          pair, Measure(measure, v1::SELECTION_METHOD_UNSPECIFIED, 1)));
    }
  }
  cases.push_back(
      ServiceCase("QualityReport: hub row", 1, HubPair(), Report(1)));
  cases.push_back(ServiceCase("QualityReport with the row count: hub row", 1,
                              HubPair(), Report(1, /*row_count=*/true)));
  cases.push_back(ServiceCase("ReleaseCuboids [Sex,Label]: row in \"other\"", 1,
                              OtherCellPair(), Cuboid({"Sex", "Label"}, 1)));
  cases.push_back(ServiceCase(
      "ReleaseCuboids [Sex,Age] with public [Sex]: induced neighbours", 1,
      InducedPair(), Cuboid({"Sex", "Age"}, 1)));
  cases.push_back(ServiceCase(
      "MeasureInconsistency MI with public [Sex]: induced neighbours "
      "(charged k_Q = 2)",
      2, InducedPair(),
      Measure(MEASURE_MI, v1::SELECTION_METHOD_UNSPECIFIED, 1)));
  cases.push_back(ServiceCase("TrainDecisionTree (+ accuracy): added row", 2,
                              TreePair(), Tree(1, 1)));
  cases.back().quick_samples = 1500;  // a GA run per release
  cases.push_back(GraphCase(
      "SelectInfluentialNodes pareto global: edge to the hub", 1,
      Nodes(v1::SELECTION_APPROACH_PARETO, v1::SENSITIVITY_MODE_GLOBAL, 1, 1)));
  cases.push_back(GraphCase(
      "SelectInfluentialNodes aggregation local k=2: edge to the hub", 1,
      Nodes(v1::SELECTION_APPROACH_AGGREGATION, v1::SENSITIVITY_MODE_LOCAL, 2,
            1)));
  for (const char* measure : {"mi", "p", "r"}) {
    cases.push_back(
        MeasureToolCase(absl::StrCat("dpq-measure ", measure,
                                     " without --schema: type-flip cell"),
                        measure, /*nan=*/false));
  }
  cases.push_back(MeasureToolCase("dpq-measure mi without --schema: NaN cells",
                                  "mi", /*nan=*/true));
  return cases;
}

absl::StatusOr<CaseResult> RunAuditCase(const AuditCase& c, int samples,
                                        uint64_t seed, double alpha) {
  std::vector<Observation> on_d, on_d_prime;
  RETURN_IF_ERROR(c.run(samples, seed, &on_d, &on_d_prime));
  CaseResult result;
  result.name = c.name;
  result.charged = c.charged;
  result.report = AuditPrivacyLoss(on_d, on_d_prime, alpha);
  return result;
}

}  // namespace dpq::audit
