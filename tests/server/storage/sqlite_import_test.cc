// dpq-server --import-sqlite (server/storage/sqlite_import.h) against a
// real throw-away PostgreSQL cluster: an embedded data directory made by a
// real embedded server (two datasets, buyers, grants, a cap, releases,
// unfinished and charged reservations, a refund, a revocation) is copied,
// every item is compared with what the embedded stores held; a replica's
// stores and registry, and a dpq-server in the PostgreSQL mode, on the
// imported database serve it (old tokens, old request ids replayed,
// budgets, datasets in their versions); the import refuses a database
// that holds data, leaves nothing behind when it fails, and runs once when
// two are started together; the dpq-server binary's flag.
#include "server/storage/sqlite_import.h"

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/util/sha256_hex.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "server/registry/dataset_catalog.h"
#include "server/registry/dataset_registry.h"
#include "server/registry/registry_options.h"
#include "server/storage/postgres_accounts_store.h"
#include "server/storage/postgres_database.h"
#include "server/storage/postgres_dataset_catalog.h"
#include "server/storage/postgres_ledger_store.h"
#include "server/storage/sqlite_database.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/testing/files.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

namespace fs = std::filesystem;

using ::dpq::core::ledger::AmountUnits;
using ::dpq::core::ledger::BudgetState;
using ::dpq::core::ledger::EntryState;
using ::dpq::core::ledger::LedgerEntry;
using ::dpq::core::ledger::LedgerFilter;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::ReserveRequest;
using ::dpq::server::auth::Account;
using ::dpq::server::auth::AuditRecord;
using ::dpq::server::auth::Principal;
using ::dpq::server::auth::Role;
using ::dpq::server::registry::CatalogEntry;
using ::dpq::server::registry::CatalogRecord;
using ::dpq::server::registry::CatalogSnapshot;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::TestCluster;
using ::dpq::testing::TestServer;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

const ::testing::Environment* const kPostgres =
    dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 100});

std::string DemoPath(const std::string& file) {
  return absl::StrCat(DPQ_SOURCE_DIR, "/deploy/demo/", file);
}

v1::DatasetManifest HospitalManifest() {
  v1::DatasetManifest m;
  m.set_dataset_id("hospital");
  m.set_description("HoloClean hospital benchmark (import test)");
  m.set_constraints(ReadFileOrEmpty(DemoPath("hospital.dc")));
  m.set_public_max_rows(2000);
  m.set_infer_column_types(true);
  return m;
}

v1::DatasetManifest NetworkManifest() {
  v1::DatasetManifest m;
  m.set_dataset_id("network");
  m.set_kind(v1::DATASET_KIND_GRAPH);
  for (absl::string_view node :
       absl::StrSplit(ReadFileOrEmpty(DemoPath("network.nodes")), '\n',
                      absl::SkipWhitespace())) {
    m.add_node_labels(std::string(absl::StripAsciiWhitespace(node)));
  }
  return m;
}

// The units of a double amount, exactly (the stores' doubles are units /
// 10^12).
int64_t Units(double amount) {
  absl::StatusOr<int64_t> units = AmountUnits(amount, "amount");
  return units.ok() ? *units : -1;
}

// A dataset's three files in the embedded data directory.
struct DatasetFiles {
  std::string data, manifest_json, state_text;
};

// What the embedded server held when it stopped.
struct Embedded {
  std::string dir;  // the data directory
  std::string admin_token;
  std::map<std::string, std::string> buyer_tokens;  // alice, bob, carol
  std::vector<LedgerEntry> entries;                 // newest first
  std::vector<BudgetState> budgets;
  std::pair<double, double> hospital_cap_and_spent;
  std::vector<Account> buyers;
  Account admin;
  std::vector<AuditRecord> audit;  // newest first
  std::map<std::string, DatasetFiles> datasets;
  // What the clients received, by request id.
  std::map<std::string, v1::MeasureInconsistencyResponse> measures;
  v1::SelectInfluentialNodesResponse top_nodes;  // alice-top-1
  // What GetBudget showed each buyer.
  std::map<std::string, v1::GetBudgetResponse> shown_budgets;
};

grpc::Status GetBudget(const TestServer& server, const std::string& token,
                       v1::GetBudgetResponse* response) {
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  return server.BuyerStub()->GetBudget(&context, v1::GetBudgetRequest(),
                                       response);
}

// Stops the test server but keeps its data directory (`dir`, outside the
// fixture's temporary one).
class SqliteImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(TestCluster(), nullptr);
    ASSERT_FALSE(base_.empty());
  }

  absl::StatusOr<std::shared_ptr<PgPool>> Pool(const std::string& dsn) {
    PgPool::Options options;
    options.size = 4;
    absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Open(dsn, options);
    if (!pool.ok()) return pool.status();
    return std::shared_ptr<PgPool>(*std::move(pool));
  }

  absl::StatusOr<SqliteImportSummary> Import(const std::string& dir,
                                             const std::string& dsn) {
    absl::StatusOr<std::shared_ptr<PgPool>> pool = Pool(dsn);
    if (!pool.ok()) return pool.status();
    return ImportSqliteDataDir(dir, *pool, registry::RegistryOptions());
  }

  // An embedded server in base_/<name> with one buyer and nothing else.
  void MakeSmallDir(const std::string& name, std::string* dir) {
    *dir = absl::StrCat(base_, "/", name);
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<TestServer> server,
        TestServer::Start(dpq::testing::Transport::kInsecure,
                          [&](Options& o) { o.data_dir = *dir; }));
    ASSERT_OK(server->CreateBuyer("dora").status());
    // The ledger takes a grant on a dataset the registry lacks.
    ASSERT_OK(server->server().ledger().Grant("dora", "anything", 1).status());
  }

  // The full embedded data directory, in base_/embedded.
  void MakeEmbeddedDir(Embedded* out) {
    out->dir = base_ + "/embedded";
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<TestServer> server,
        TestServer::Start(dpq::testing::Transport::kInsecure,
                          [&](Options& o) { o.data_dir = out->dir; }));
    out->admin_token = server->admin_token();
    const std::string hospital_csv = ReadFileOrEmpty(DemoPath("hospital.csv"));
    ASSERT_OK(
        server->RegisterDataset(HospitalManifest(), hospital_csv).status());
    // Replaced once: version 2, with one row less.
    std::string shorter = hospital_csv;
    shorter.resize(shorter.rfind('\n', shorter.size() - 2) + 1);
    ASSERT_OK(server->server()
                  .registry()
                  .Replace(HospitalManifest(), shorter)
                  .status());
    ASSERT_OK(server
                  ->RegisterDataset(NetworkManifest(),
                                    ReadFileOrEmpty(DemoPath("network.csv")))
                  .status());
    for (const char* buyer : {"alice", "bob", "carol"}) {
      ASSERT_OK_AND_ASSIGN(out->buyer_tokens[buyer],
                           server->CreateBuyer(buyer));
    }
    ASSERT_OK(server->GrantBudget("alice", "hospital", 5).status());
    ASSERT_OK(server->GrantBudget("alice", "network", 1).status());
    ASSERT_OK(server->GrantBudget("bob", "hospital", 2).status());
    ASSERT_OK(server->GrantBudget("carol", "hospital", 0.3).status());
    {
      grpc::ClientContext context;
      TestServer::Authorize(context, server->admin_token());
      v1::SetDatasetCapRequest request;
      request.set_dataset_id("hospital");
      request.set_cap(50);
      v1::SetDatasetCapResponse response;
      ASSERT_TRUE(server->AdminStub()
                      ->SetDatasetCap(&context, request, &response)
                      .ok());
    }
    // Releases through the service (recorded answers).
    auto measure = [&](const std::string& buyer, v1::Measure m, double epsilon,
                       const std::string& request_id) {
      grpc::ClientContext context;
      TestServer::Authorize(context, out->buyer_tokens[buyer]);
      v1::MeasureInconsistencyRequest request;
      request.set_dataset_id("hospital");
      request.set_measure(m);
      request.set_epsilon(epsilon);
      request.set_request_id(request_id);
      v1::MeasureInconsistencyResponse response;
      const grpc::Status status = server->BuyerStub()->MeasureInconsistency(
          &context, request, &response);
      out->measures[response.request_id()] = response;
      return status;
    };
    ASSERT_TRUE(measure("alice", v1::MEASURE_MI, 0.5, "alice-mi-1").ok());
    ASSERT_TRUE(measure("alice", v1::MEASURE_P, 0.25, "alice-p-1").ok());
    ASSERT_TRUE(measure("bob", v1::MEASURE_MI, 1, "bob-mi-1").ok());
    ASSERT_TRUE(measure("bob", v1::MEASURE_P, 0.1, "bob-p-1").ok());
    ASSERT_TRUE(measure("carol", v1::MEASURE_MI, 0.1, "carol-mi-1").ok());
    {
      grpc::ClientContext context;
      TestServer::Authorize(context, out->buyer_tokens["alice"]);
      v1::SelectInfluentialNodesRequest request;
      request.set_dataset_id("network");
      request.set_k(3);
      request.set_epsilon(0.5);
      request.set_request_id("alice-top-1");
      ASSERT_TRUE(
          server->BuyerStub()
              ->SelectInfluentialNodes(&context, request, &out->top_nodes)
              .ok());
    }
    // Entries in the other states, straight through the ledger: one left
    // reserved (the server stops before it settles), one charged without
    // an answer, one refunded. Binary fingerprints.
    core::ledger::LedgerStore& ledger = server->server().ledger();
    auto reserve = [&](const std::string& buyer, const std::string& id,
                       double epsilon) -> absl::StatusOr<int64_t> {
      ReserveRequest r;
      r.buyer_id = buyer;
      r.dataset_id = "hospital";
      r.request_id = id;
      r.fingerprint = std::string("fp\0\xff", 4) + id;
      r.operation = "MeasureInconsistency MI gem";
      r.neighbouring = "tuple";
      r.epsilon = epsilon;
      absl::StatusOr<Reservation> reservation = ledger.Reserve(r);
      if (!reservation.ok()) return reservation.status();
      return reservation->entry_id.value_or(-1);
    };
    ASSERT_OK(reserve("alice", "alice-unfinished", 0.125).status());
    ASSERT_OK_AND_ASSIGN(const int64_t charged,
                         reserve("alice", "alice-no-answer", 0.0625));
    ASSERT_OK(ledger.ChargeWithoutAnswer(charged));
    ASSERT_OK_AND_ASSIGN(const int64_t refunded,
                         reserve("bob", "bob-refunded", 0.5));
    ASSERT_OK(ledger.Refund(refunded));
    {
      grpc::ClientContext context;
      TestServer::Authorize(context, server->admin_token());
      v1::RevokeBuyerRequest request;
      request.set_buyer_id("carol");
      v1::RevokeBuyerResponse response;
      ASSERT_TRUE(
          server->AdminStub()->RevokeBuyer(&context, request, &response).ok());
    }

    for (const char* buyer : {"alice", "bob"}) {
      ASSERT_TRUE(GetBudget(*server, out->buyer_tokens[buyer],
                            &out->shown_budgets[buyer])
                      .ok());
    }
    LedgerFilter all;
    all.limit = 1000;
    ASSERT_OK_AND_ASSIGN(out->entries, ledger.ListEntries(all));
    ASSERT_OK_AND_ASSIGN(out->budgets, ledger.ListBudgets(all));
    ASSERT_OK_AND_ASSIGN(out->hospital_cap_and_spent,
                         ledger.DatasetCapAndSpent("hospital"));
    auth::AccountsStore& accounts = server->server().accounts();
    ASSERT_OK_AND_ASSIGN(out->buyers, accounts.List(Role::kBuyer));
    ASSERT_OK_AND_ASSIGN(out->admin, accounts.Get(auth::kAdminId));
    ASSERT_OK_AND_ASSIGN(out->audit, accounts.ListAudit(1000));
    server.reset();  // stopped; out->dir stays

    for (const char* id : {"hospital", "network"}) {
      const std::string d = absl::StrCat(out->dir, "/datasets/", id, "/");
      out->datasets[id] = DatasetFiles{ReadFileOrEmpty(d + "data.csv"),
                                       ReadFileOrEmpty(d + "manifest.json"),
                                       ReadFileOrEmpty(d + "state.txt")};
      ASSERT_FALSE(out->datasets[id].data.empty()) << id;
    }
    ASSERT_THAT(out->entries, SizeIs(9));
    ASSERT_THAT(out->audit, Not(SizeIs(0)));
  }

  TempDir temp_dir_{"dpq-import"};
  const std::string base_ = temp_dir_.path();
};

// The replica-side stores on a database.
struct Replica {
  std::shared_ptr<PgPool> pool;
  std::unique_ptr<PostgresLedgerStore> ledger;
  std::unique_ptr<PostgresAccountsStore> accounts;
  std::shared_ptr<PostgresDatasetCatalog> catalog;
};

absl::StatusOr<Replica> OpenReplica(std::shared_ptr<PgPool> pool) {
  Replica r;
  r.pool = pool;
  PostgresLedgerOptions options;
  options.replica_id = "replica-check";
  absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> ledger =
      PostgresLedgerStore::Open(pool, options);
  if (!ledger.ok()) return ledger.status();
  r.ledger = *std::move(ledger);
  absl::StatusOr<std::unique_ptr<PostgresAccountsStore>> accounts =
      PostgresAccountsStore::Open(pool);
  if (!accounts.ok()) return accounts.status();
  r.accounts = *std::move(accounts);
  absl::StatusOr<std::unique_ptr<PostgresDatasetCatalog>> catalog =
      PostgresDatasetCatalog::Open(pool);
  if (!catalog.ok()) return catalog.status();
  r.catalog = *std::move(catalog);
  return r;
}

// Everything a second import must leave as it is.
struct DatabaseState {
  std::vector<LedgerEntry> entries;
  std::vector<BudgetState> budgets;
  std::vector<Account> buyers;
  std::vector<AuditRecord> audit;
  CatalogSnapshot catalog;
};

absl::StatusOr<DatabaseState> ReadState(Replica& r) {
  DatabaseState s;
  LedgerFilter all;
  all.limit = 1000;
  absl::StatusOr<std::vector<LedgerEntry>> entries = r.ledger->ListEntries(all);
  if (!entries.ok()) return entries.status();
  s.entries = *std::move(entries);
  absl::StatusOr<std::vector<BudgetState>> budgets = r.ledger->ListBudgets(all);
  if (!budgets.ok()) return budgets.status();
  s.budgets = *std::move(budgets);
  absl::StatusOr<std::vector<Account>> buyers = r.accounts->List(Role::kBuyer);
  if (!buyers.ok()) return buyers.status();
  s.buyers = *std::move(buyers);
  absl::StatusOr<std::vector<AuditRecord>> audit = r.accounts->ListAudit(1000);
  if (!audit.ok()) return audit.status();
  s.audit = *std::move(audit);
  absl::StatusOr<CatalogSnapshot> catalog = r.catalog->Snapshot();
  if (!catalog.ok()) return catalog.status();
  s.catalog = *std::move(catalog);
  return s;
}

void ExpectSameEntries(const std::vector<LedgerEntry>& actual,
                       const std::vector<LedgerEntry>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    SCOPED_TRACE(expected[i].request_id);
    EXPECT_EQ(actual[i].buyer_seq, expected[i].buyer_seq);
    EXPECT_EQ(actual[i].buyer_id, expected[i].buyer_id);
    EXPECT_EQ(actual[i].request_id, expected[i].request_id);
    EXPECT_EQ(actual[i].state, expected[i].state);
    EXPECT_EQ(actual[i].settled_at, expected[i].settled_at);
    EXPECT_EQ(actual[i].answer, expected[i].answer);
  }
}

void ExpectSameAudit(const std::vector<AuditRecord>& actual,
                     const std::vector<AuditRecord>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i].time, expected[i].time) << i;
    EXPECT_EQ(actual[i].actor, expected[i].actor) << i;
    EXPECT_EQ(actual[i].action, expected[i].action) << i;
    EXPECT_EQ(actual[i].details, expected[i].details) << i;
  }
}

TEST_F(SqliteImportTest, CopiesTheLedgerAccountsAndDatasetsExactlyOnce) {
  Embedded embedded;
  ASSERT_NO_FATAL_FAILURE(MakeEmbeddedDir(&embedded));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  const absl::Time before_import =
      absl::FromUnixMicros(absl::ToUnixMicros(absl::Now()));
  ASSERT_OK_AND_ASSIGN(const SqliteImportSummary summary,
                       Import(embedded.dir, dsn));
  EXPECT_EQ(summary.buyers, 3);
  EXPECT_EQ(summary.revoked_buyers, 1);
  EXPECT_TRUE(summary.admin);
  EXPECT_EQ(summary.audit_records, static_cast<int64_t>(embedded.audit.size()));
  EXPECT_EQ(summary.budgets, 4);
  EXPECT_EQ(summary.capped_datasets, 1);
  EXPECT_EQ(summary.entries, 9);
  EXPECT_EQ(summary.charged_reservations, 1);
  EXPECT_EQ(summary.datasets, 2);

  ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, Pool(dsn));
  ASSERT_OK_AND_ASSIGN(Replica replica, OpenReplica(pool));

  // The ledger: every entry with everything it records (entry_id is the
  // store's own handle); the reservation left unfinished is charged.
  LedgerFilter all;
  all.limit = 1000;
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       replica.ledger->ListEntries(all));
  ASSERT_EQ(entries.size(), embedded.entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const LedgerEntry& got = entries[i];
    const LedgerEntry& want = embedded.entries[i];
    SCOPED_TRACE(want.request_id);
    EXPECT_EQ(got.buyer_id, want.buyer_id);
    EXPECT_EQ(got.buyer_seq, want.buyer_seq);
    EXPECT_EQ(got.dataset_id, want.dataset_id);
    EXPECT_EQ(got.request_id, want.request_id);
    EXPECT_EQ(got.fingerprint, want.fingerprint);
    EXPECT_EQ(got.operation, want.operation);
    EXPECT_EQ(got.neighbouring, want.neighbouring);
    EXPECT_EQ(Units(got.epsilon), Units(want.epsilon));
    EXPECT_EQ(got.created_at, want.created_at);
    EXPECT_EQ(got.answer, want.answer);
    if (want.state == EntryState::kReserved) {
      EXPECT_EQ(got.state, EntryState::kCharged);
      ASSERT_TRUE(got.settled_at.has_value());
      EXPECT_GE(*got.settled_at, before_import);
    } else {
      EXPECT_EQ(got.state, want.state);
      EXPECT_EQ(got.settled_at, want.settled_at);
    }
  }
  // Budgets: the same grants, the reservation's epsilon now spent.
  ASSERT_OK_AND_ASSIGN(const std::vector<BudgetState> budgets,
                       replica.ledger->ListBudgets(all));
  ASSERT_EQ(budgets.size(), embedded.budgets.size());
  for (size_t i = 0; i < budgets.size(); ++i) {
    const BudgetState& want = embedded.budgets[i];
    SCOPED_TRACE(absl::StrCat(want.buyer_id, " on ", want.dataset_id));
    EXPECT_EQ(budgets[i].buyer_id, want.buyer_id);
    EXPECT_EQ(budgets[i].dataset_id, want.dataset_id);
    EXPECT_EQ(Units(budgets[i].granted), Units(want.granted));
    EXPECT_EQ(Units(budgets[i].spent),
              Units(want.spent) + Units(want.reserved));
    EXPECT_EQ(Units(budgets[i].reserved), 0);
  }
  EXPECT_EQ(Units(embedded.budgets[0].reserved), Units(0.125))
      << "alice's hospital budget held the unfinished reservation";
  ASSERT_OK_AND_ASSIGN(const auto cap_and_spent,
                       replica.ledger->DatasetCapAndSpent("hospital"));
  EXPECT_EQ(Units(cap_and_spent.first), Units(50));
  EXPECT_EQ(Units(cap_and_spent.second),
            Units(embedded.hospital_cap_and_spent.second) + Units(0.125));

  // The accounts: the same principals (hashes: the old tokens work, not
  // the revoked one) and the audit log.
  ASSERT_OK_AND_ASSIGN(const std::vector<Account> buyers,
                       replica.accounts->List(Role::kBuyer));
  ASSERT_EQ(buyers.size(), embedded.buyers.size());
  for (size_t i = 0; i < buyers.size(); ++i) {
    EXPECT_EQ(buyers[i].id, embedded.buyers[i].id);
    EXPECT_EQ(buyers[i].created_at, embedded.buyers[i].created_at);
    EXPECT_EQ(buyers[i].revoked, embedded.buyers[i].revoked);
  }
  ASSERT_OK_AND_ASSIGN(const Account admin,
                       replica.accounts->Get(auth::kAdminId));
  EXPECT_EQ(admin.role, Role::kAdmin);
  EXPECT_EQ(admin.created_at, embedded.admin.created_at);
  auto who = [&](const std::string& token) -> std::string {
    absl::StatusOr<std::optional<Principal>> p =
        replica.accounts->Authenticate(core::util::Sha256Hex(token));
    if (!p.ok()) return p.status().ToString();
    return p->has_value() ? (*p)->id : "nobody";
  };
  EXPECT_EQ(who(embedded.admin_token), "admin");
  EXPECT_EQ(who(embedded.buyer_tokens["alice"]), "alice");
  EXPECT_EQ(who(embedded.buyer_tokens["bob"]), "bob");
  EXPECT_EQ(who(embedded.buyer_tokens["carol"]), "nobody");
  ASSERT_OK_AND_ASSIGN(const std::vector<AuditRecord> audit,
                       replica.accounts->ListAudit(1000));
  ExpectSameAudit(audit, embedded.audit);

  // The catalog: each dataset's version, files and content hash, as the
  // registry publishes them.
  ASSERT_OK_AND_ASSIGN(const CatalogSnapshot snapshot,
                       replica.catalog->Snapshot());
  ASSERT_THAT(snapshot.datasets, SizeIs(2));
  EXPECT_EQ(snapshot.catalog_version, 2);
  for (const CatalogEntry& entry : snapshot.datasets) {
    SCOPED_TRACE(entry.dataset_id);
    const DatasetFiles& files = embedded.datasets[entry.dataset_id];
    EXPECT_EQ(entry.version, entry.dataset_id == "hospital" ? 2u : 1u);
    EXPECT_EQ(entry.content_sha256, core::util::Sha256Hex(files.data));
    ASSERT_OK_AND_ASSIGN(const CatalogRecord record,
                         replica.catalog->FetchRecord(entry));
    EXPECT_EQ(record.kind, entry.dataset_id == "hospital" ? "table" : "graph");
    EXPECT_EQ(record.manifest_json, files.manifest_json);
    EXPECT_EQ(record.state_text, files.state_text);
    EXPECT_THAT(replica.catalog->FetchData(entry), IsOkAndHolds(files.data));
  }

  // Once: a second import changes nothing.
  ASSERT_OK_AND_ASSIGN(const DatabaseState before, ReadState(replica));
  EXPECT_THAT(Import(embedded.dir, dsn),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("already holds dpq data (principals, ledger "
                                 "budgets, entries or caps, datasets)")));
  ASSERT_OK_AND_ASSIGN(const DatabaseState after, ReadState(replica));
  ExpectSameEntries(after.entries, before.entries);
  EXPECT_EQ(after.budgets.size(), before.budgets.size());
  EXPECT_EQ(after.buyers.size(), before.buyers.size());
  ExpectSameAudit(after.audit, before.audit);
  EXPECT_EQ(after.catalog.catalog_version, before.catalog.catalog_version);
  EXPECT_EQ(after.catalog.datasets, before.catalog.datasets);
  // The embedded directory was only read: its ledger still holds the
  // unfinished reservation.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteLedgerStore> old_ledger,
                       SqliteLedgerStore::Open(embedded.dir + "/ledger.db"));
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> old_entries,
                       old_ledger->ListEntries(all));
  EXPECT_EQ(std::count_if(old_entries.begin(), old_entries.end(),
                          [](const LedgerEntry& e) {
                            return e.state == EntryState::kReserved;
                          }),
            1);
}

TEST_F(SqliteImportTest, AReplicaOnTheImportedDatabaseServesTheSameState) {
  Embedded embedded;
  ASSERT_NO_FATAL_FAILURE(MakeEmbeddedDir(&embedded));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  ASSERT_OK(Import(embedded.dir, dsn).status());
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, Pool(dsn));
  ASSERT_OK_AND_ASSIGN(Replica replica, OpenReplica(pool));

  // Old request ids: a committed one replays its recorded answer, one
  // charged without an answer (also the reservation the import charged)
  // resumes at no cost, a refunded one is reserved anew.
  for (const LedgerEntry& e : embedded.entries) {
    SCOPED_TRACE(e.request_id);
    ReserveRequest retry;
    retry.buyer_id = e.buyer_id;
    retry.dataset_id = e.dataset_id;
    retry.request_id = e.request_id;
    retry.fingerprint = e.fingerprint;
    retry.operation = e.operation;
    retry.neighbouring = e.neighbouring;
    // The epsilon the original request was charged at (a listed amount is
    // the nearest double, which may round up to one unit more).
    retry.epsilon = core::ledger::EpsilonOfUnits(Units(e.epsilon));
    ASSERT_OK_AND_ASSIGN(const Reservation r, replica.ledger->Reserve(retry));
    switch (e.state) {
      case EntryState::kCommitted:
        ASSERT_TRUE(r.recorded_answer.has_value());
        EXPECT_EQ(*r.recorded_answer, e.answer);
        EXPECT_FALSE(r.entry_id.has_value());
        break;
      case EntryState::kCharged:
      case EntryState::kReserved:
        EXPECT_TRUE(r.resumed);
        EXPECT_TRUE(r.entry_id.has_value());
        break;
      case EntryState::kRefunded:
        EXPECT_FALSE(r.resumed);
        ASSERT_TRUE(r.entry_id.has_value());
        EXPECT_OK(replica.ledger->Refund(*r.entry_id));
        break;
    }
  }
  // Nothing of that charged anything: the budgets are the embedded ones
  // with the unfinished reservation spent.
  LedgerFilter all;
  all.limit = 1000;
  ASSERT_OK_AND_ASSIGN(const std::vector<BudgetState> budgets,
                       replica.ledger->ListBudgets(all));
  ASSERT_EQ(budgets.size(), embedded.budgets.size());
  for (size_t i = 0; i < budgets.size(); ++i) {
    EXPECT_EQ(Units(budgets[i].remaining()),
              Units(embedded.budgets[i].remaining()))
        << embedded.budgets[i].buyer_id << " on "
        << embedded.budgets[i].dataset_id;
  }
  // New entries are numbered after the imported ones, per buyer.
  int64_t alice_last = 0;
  for (const LedgerEntry& e : embedded.entries) {
    if (e.buyer_id == "alice") alice_last = std::max(alice_last, e.buyer_seq);
  }
  ReserveRequest fresh;
  fresh.buyer_id = "alice";
  fresh.dataset_id = "hospital";
  fresh.request_id = "alice-after-import";
  fresh.fingerprint = "new";
  fresh.operation = "MeasureInconsistency MI gem";
  fresh.neighbouring = "tuple";
  fresh.epsilon = 0.5;
  ASSERT_OK_AND_ASSIGN(const Reservation r, replica.ledger->Reserve(fresh));
  ASSERT_TRUE(r.entry_id.has_value());
  ASSERT_OK(replica.ledger->Commit(*r.entry_id, "answer"));
  LedgerFilter alice;
  alice.buyer_id = "alice";
  alice.limit = 1;
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> newest,
                       replica.ledger->ListEntries(alice));
  ASSERT_THAT(newest, SizeIs(1));
  EXPECT_EQ(newest[0].request_id, "alice-after-import");
  EXPECT_EQ(newest[0].buyer_seq, alice_last + 1);
  // A replica's registry with an empty cache loads every dataset from the
  // catalog, in its version, with the embedded files, and rebuilds the
  // conflict graph.
  registry::RegistryOptions options;
  options.data_dir = base_ + "/replica-cache";
  options.catalog = replica.catalog;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<registry::DatasetRegistry> registry,
                       registry::DatasetRegistry::Open(options));
  const auto datasets = registry->List();
  ASSERT_THAT(datasets, SizeIs(2));
  EXPECT_EQ(datasets[0]->manifest.dataset_id(), "hospital");
  EXPECT_EQ(datasets[0]->version, 2u);
  EXPECT_EQ(datasets[1]->manifest.dataset_id(), "network");
  EXPECT_EQ(datasets[1]->version, 1u);
  for (const auto& [id, files] : embedded.datasets) {
    SCOPED_TRACE(id);
    const std::string cached =
        absl::StrCat(options.data_dir, "/datasets/", id, "/");
    EXPECT_EQ(ReadFileOrEmpty(cached + "data.csv"), files.data);
    EXPECT_EQ(ReadFileOrEmpty(cached + "manifest.json"), files.manifest_json);
    EXPECT_EQ(ReadFileOrEmpty(cached + "state.txt"), files.state_text);
  }
  EXPECT_OK(datasets[0]
                ->WaitForConflictGraph(absl::Now() + absl::Seconds(60))
                .status());
}

TEST_F(SqliteImportTest, AServerInPostgresModeServesTheImportedMarketplace) {
  Embedded embedded;
  ASSERT_NO_FATAL_FAILURE(MakeEmbeddedDir(&embedded));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  ASSERT_OK(Import(embedded.dir, dsn).status());
  // A replica with a fresh data directory and the embedded server's admin
  // token file (docs/operations.md).
  ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<TestServer> server,
      TestServer::Start(dpq::testing::Transport::kInsecure, [&](Options& o) {
        o.database = dsn;
        o.replica_id = "replica-1";
        o.admin_token_file = embedded.dir + "/admin.token";
      }));
  EXPECT_FALSE(server->server().created_admin_token());
  EXPECT_EQ(server->admin_token(), embedded.admin_token);

  // The old admin token: the buyers, carol revoked.
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, embedded.admin_token);
    v1::ListBuyersResponse response;
    ASSERT_TRUE(server->AdminStub()
                    ->ListBuyers(&context, v1::ListBuyersRequest(), &response)
                    .ok());
    ASSERT_EQ(response.buyers_size(), 3);
    EXPECT_EQ(response.buyers(2).buyer_id(), "carol");
    EXPECT_TRUE(response.buyers(2).revoked());
    EXPECT_FALSE(response.buyers(0).revoked());
  }
  // The old buyer tokens: the same budgets (the unfinished reservation
  // now spent); the revoked token is refused.
  for (const char* buyer : {"alice", "bob"}) {
    SCOPED_TRACE(buyer);
    v1::GetBudgetResponse shown;
    ASSERT_TRUE(GetBudget(*server, embedded.buyer_tokens[buyer], &shown).ok());
    const v1::GetBudgetResponse& before = embedded.shown_budgets[buyer];
    ASSERT_EQ(shown.budgets_size(), before.budgets_size());
    for (int i = 0; i < shown.budgets_size(); ++i) {
      EXPECT_EQ(shown.budgets(i).dataset_id(), before.budgets(i).dataset_id());
      EXPECT_EQ(Units(shown.budgets(i).granted()),
                Units(before.budgets(i).granted()));
      EXPECT_EQ(Units(shown.budgets(i).remaining()),
                Units(before.budgets(i).remaining()));
    }
  }
  {
    v1::GetBudgetResponse shown;
    EXPECT_EQ(
        GetBudget(*server, embedded.buyer_tokens["carol"], &shown).error_code(),
        grpc::StatusCode::UNAUTHENTICATED);
  }
  // Old request ids replay the answers the clients received.
  int replayed = 0;
  for (const auto& [request_id, original] : embedded.measures) {
    // carol is revoked; bob-p-1's result shows its epsilon 0.1 quantised
    // (another double than the request's, so another fingerprint).
    if (request_id.rfind("carol", 0) == 0) continue;
    if (request_id == "bob-p-1") continue;
    SCOPED_TRACE(request_id);
    const std::string buyer =
        request_id.rfind("alice", 0) == 0 ? "alice" : "bob";
    grpc::ClientContext context;
    TestServer::Authorize(context, embedded.buyer_tokens[buyer]);
    v1::MeasureInconsistencyRequest request;
    request.set_dataset_id("hospital");
    request.set_measure(original.result().measure());
    request.set_epsilon(original.result().epsilon());
    request.set_request_id(request_id);
    v1::MeasureInconsistencyResponse replay;
    ASSERT_TRUE(server->BuyerStub()
                    ->MeasureInconsistency(&context, request, &replay)
                    .ok());
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(replay.epsilon_charged(), 0);
    EXPECT_EQ(replay.result().SerializeAsString(),
              original.result().SerializeAsString());
    ++replayed;
  }
  EXPECT_EQ(replayed, 3);  // alice-mi-1, alice-p-1, bob-mi-1
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, embedded.buyer_tokens["alice"]);
    v1::SelectInfluentialNodesRequest request;
    request.set_dataset_id("network");
    request.set_k(3);
    request.set_epsilon(0.5);
    request.set_request_id("alice-top-1");
    v1::SelectInfluentialNodesResponse replay;
    ASSERT_TRUE(server->BuyerStub()
                    ->SelectInfluentialNodes(&context, request, &replay)
                    .ok());
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(replay.nodes().size(), 3);
    EXPECT_TRUE(std::equal(replay.nodes().begin(), replay.nodes().end(),
                           embedded.top_nodes.nodes().begin(),
                           embedded.top_nodes.nodes().end()));
  }
  // The datasets in their versions, and a new release on the imported
  // table (its conflict graph rebuilt in the background).
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, embedded.buyer_tokens["alice"]);
    v1::ListDatasetsResponse response;
    ASSERT_TRUE(
        server->BuyerStub()
            ->ListDatasets(&context, v1::ListDatasetsRequest(), &response)
            .ok());
    ASSERT_EQ(response.datasets_size(), 2);
    EXPECT_EQ(response.datasets(0).dataset_id(), "hospital");
    EXPECT_EQ(response.datasets(0).version(), 2u);
    EXPECT_EQ(response.datasets(1).dataset_id(), "network");
    EXPECT_EQ(response.datasets(1).version(), 1u);
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, embedded.buyer_tokens["alice"]);
    v1::MeasureInconsistencyRequest request;
    request.set_dataset_id("hospital");
    request.set_measure(v1::MEASURE_MI);
    request.set_epsilon(0.5);
    request.set_request_id("alice-after-import");
    v1::MeasureInconsistencyResponse fresh;
    ASSERT_TRUE(server->BuyerStub()
                    ->MeasureInconsistency(&context, request, &fresh)
                    .ok());
    EXPECT_FALSE(fresh.replayed());
    EXPECT_EQ(fresh.epsilon_charged(), 0.5);
  }
}

TEST_F(SqliteImportTest, RefusesADatabaseThatHoldsDataOfAnyComponent) {
  std::string dir;
  ASSERT_NO_FATAL_FAILURE(MakeSmallDir("small", &dir));
  // One database per component, each holding a single thing.
  struct Case {
    const char* holds;
    std::function<absl::Status(Replica&)> write;
  };
  const std::vector<Case> cases = {
      {"principals",
       [](Replica& r) {
         return r.accounts->Create("zed", Role::kBuyer, std::string(64, 'a'))
             .status();
       }},
      {"ledger budgets, entries or caps",
       [](Replica& r) { return r.ledger->SetDatasetCap("elsewhere", 3); }},
      {"ledger budgets, entries or caps",
       [](Replica& r) {
         return r.ledger->Grant("zed", "elsewhere", 1).status();
       }},
      {"datasets",
       [](Replica& r) {
         CatalogRecord record;
         record.entry.dataset_id = "elsewhere";
         record.entry.version = 1;
         record.entry.content_sha256 = core::util::Sha256Hex("a,b\n");
         record.kind = "table";
         record.manifest_json = "{}";
         record.state_text = "version 1\n";
         return r.catalog->Publish(record, "a,b\n", std::nullopt).status();
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.holds);
    ASSERT_OK_AND_ASSIGN(const std::string dsn,
                         TestCluster()->CreateDatabase());
    ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, Pool(dsn));
    ASSERT_OK_AND_ASSIGN(Replica replica, OpenReplica(pool));
    ASSERT_OK(c.write(replica));
    ASSERT_OK_AND_ASSIGN(const DatabaseState before, ReadState(replica));
    EXPECT_THAT(Import(dir, dsn),
                StatusIs(absl::StatusCode::kFailedPrecondition,
                         HasSubstr(absl::StrCat("already holds dpq data (",
                                                c.holds, ")"))));
    ASSERT_OK_AND_ASSIGN(const DatabaseState after, ReadState(replica));
    EXPECT_EQ(after.buyers.size(), before.buyers.size());
    EXPECT_EQ(after.budgets.size(), before.budgets.size());
    EXPECT_EQ(after.entries.size(), before.entries.size());
    EXPECT_EQ(after.catalog.catalog_version, before.catalog.catalog_version);
    EXPECT_THAT(replica.accounts->Get(auth::kAdminId),
                StatusIs(absl::StatusCode::kNotFound, ::testing::_));
  }
}

TEST_F(SqliteImportTest, RefusesWhatIsNotAnEmbeddedDataDirectory) {
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  const std::string empty = base_ + "/empty";
  ASSERT_TRUE(fs::create_directory(empty));
  EXPECT_THAT(Import(empty, dsn),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("not an embedded data directory: it has no "
                                 "ledger.db")));
  EXPECT_FALSE(fs::exists(empty + "/ledger.db")) << "the import created it";
  EXPECT_THAT(Import(base_ + "/missing", dsn),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("is not a directory")));
}

TEST_F(SqliteImportTest, AFailureHalfwayLeavesTheDatabaseEmpty) {
  std::string dir;
  ASSERT_NO_FATAL_FAILURE(MakeSmallDir("broken", &dir));
  // A running total that disagrees with the entries: found only after the
  // accounts were written in the same transaction.
  {
    SqliteDatabase::Options options;
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteDatabase> db,
                         SqliteDatabase::Open(dir + "/ledger.db", options));
    ASSERT_OK(db->Exec("UPDATE budgets SET spent = spent + 7", "tampering"));
  }
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  EXPECT_THAT(Import(dir, dsn),
              StatusIs(absl::StatusCode::kDataLoss,
                       HasSubstr("budget of buyer 'dora' on dataset "
                                 "'anything' records 0.000000000007 spent")));
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, Pool(dsn));
  ASSERT_OK_AND_ASSIGN(Replica replica, OpenReplica(pool));
  EXPECT_THAT(replica.accounts->List(Role::kBuyer), IsOkAndHolds(SizeIs(0)));
  EXPECT_THAT(replica.accounts->Get(auth::kAdminId),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));
  EXPECT_THAT(replica.accounts->ListAudit(10), IsOkAndHolds(SizeIs(0)));
  EXPECT_THAT(replica.ledger->ListBudgets(LedgerFilter()),
              IsOkAndHolds(SizeIs(0)));
}

TEST_F(SqliteImportTest, OfTwoImportsStartedTogetherExactlyOneRuns) {
  std::string dir;
  ASSERT_NO_FATAL_FAILURE(MakeSmallDir("twice", &dir));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  // The schema first, so that both race on the import itself.
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, Pool(dsn));
  ASSERT_OK_AND_ASSIGN(Replica replica, OpenReplica(pool));
  absl::Barrier barrier(2);
  absl::StatusOr<SqliteImportSummary> results[2];
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      barrier.Block();
      results[i] = Import(dir, dsn);
    });
  }
  for (std::thread& t : threads) t.join();
  const int ok = static_cast<int>(results[0].ok()) + results[1].ok();
  EXPECT_EQ(ok, 1);
  for (const auto& result : results) {
    if (!result.ok()) {
      EXPECT_THAT(result, StatusIs(absl::StatusCode::kFailedPrecondition,
                                   HasSubstr("already holds dpq data")));
    }
  }
  EXPECT_THAT(replica.accounts->List(Role::kBuyer), IsOkAndHolds(SizeIs(1)));
  EXPECT_THAT(replica.ledger->ListBudgets(LedgerFilter()),
              IsOkAndHolds(SizeIs(1)));
}

// The dpq-server binary: --import-sqlite runs, prints a summary without
// the DSN, refuses a second run and flags it cannot run with.
TEST_F(SqliteImportTest, TheServerBinaryImportsOnceAndNeverPrintsTheDsn) {
  std::string dir;
  ASSERT_NO_FATAL_FAILURE(MakeSmallDir("binary", &dir));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, TestCluster()->CreateDatabase());
  const std::string dsn_file = base_ + "/dsn";
  {
    std::ofstream out(dsn_file);
    out << dsn << "\n";
  }
  const std::string out_path = base_ + "/stdout";
  const std::string err_path = base_ + "/stderr";
  auto run = [&](const std::string& args) {
    const std::string command = absl::StrCat(DPQ_SERVER_BINARY, " ", args, " >",
                                             out_path, " 2>", err_path);
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(
      run(absl::StrCat("--import-sqlite ", dir, " --database '", dsn, "'")), 0);
  EXPECT_EQ(ReadFileOrEmpty(out_path),
            absl::StrCat("dpq-server: imported '", dir,
                         "' into PostgreSQL: the admin and 1 buyer (0 "
                         "revoked), 1 audit record; 1 budget, 0 dataset "
                         "caps, 0 ledger entries; 0 datasets.\n"
                         "Start the replicas with the embedded server's "
                         "admin token (",
                         dir, "/admin.token) in their --admin-token-file.\n"));
  EXPECT_THAT(ReadFileOrEmpty(out_path) + ReadFileOrEmpty(err_path),
              Not(HasSubstr("dbname")));

  EXPECT_EQ(
      run(absl::StrCat("--import-sqlite ", dir, " --database-file ", dsn_file)),
      1);
  EXPECT_THAT(ReadFileOrEmpty(err_path), HasSubstr("already holds dpq data"));
  EXPECT_THAT(ReadFileOrEmpty(err_path), Not(HasSubstr("dbname")));

  EXPECT_EQ(run(absl::StrCat("--import-sqlite ", dir)), 2);
  EXPECT_THAT(ReadFileOrEmpty(err_path),
              HasSubstr("--import-sqlite needs the database"));
}

}  // namespace
}  // namespace dpq::server::storage
