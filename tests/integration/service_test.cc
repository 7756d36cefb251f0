// Every RPC of dpq.v1.BuyerService and dpq.v1.AdminService against the real
// dpq-server over TLS, plus the standard health and reflection services.

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/util/sha256_hex.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "reflection/reflection_subset.grpc.pb.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Ge;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

// No response may carry a raw cell of the private rows.
template <typename Message>
void ExpectNoRows(const Message& m) {
  EXPECT_THAT(m.DebugString(), Not(HasSubstr(kHospitalCellValue)));
  EXPECT_THAT(m.SerializeAsString(), Not(HasSubstr(kHospitalCellValue)));
}

class ServiceTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  }
};

TEST_F(ServiceTest, HealthIsServingWithoutAToken) {
  const auto channel = TlsChannel(server_->address(), certs_.ca());
  for (const char* service :
       {"", "dpq.v1.BuyerService", "dpq.v1.AdminService"}) {
    grpc::Status call;
    EXPECT_EQ(CheckHealth(channel, service, &call),
              grpc::health::v1::HealthCheckResponse::SERVING)
        << "service '" << service << "': " << Describe(call);
  }
  grpc::Status unknown;
  CheckHealth(channel, "no.such.Service", &unknown);
  EXPECT_THAT(unknown, GrpcIs(grpc::StatusCode::NOT_FOUND, ::testing::_));
}

TEST_F(ServiceTest, ReflectionListsBothServices) {
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(
      TlsChannel(server_->address(), certs_.ca()));
  auto context = Context("");
  auto stream = stub->ServerReflectionInfo(context.get());
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("*");
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::set<std::string> names;
  for (const auto& s : response.list_services_response().service()) {
    names.insert(s.name());
  }
  EXPECT_TRUE(names.count("dpq.v1.BuyerService"));
  EXPECT_TRUE(names.count("dpq.v1.AdminService"));
  EXPECT_TRUE(names.count("grpc.health.v1.Health"));
  EXPECT_THAT(stream->Finish(), GrpcOk());
}

TEST_F(ServiceTest, FirstStartWroteAPrivateAdminTokenAndSaidWhere) {
  const std::string path = data_dir() + "/admin.token";
  const auto perms = std::filesystem::status(path).permissions();
  EXPECT_EQ(perms, std::filesystem::perms::owner_read |
                       std::filesystem::perms::owner_write)
      << "admin.token must be mode 0600";
  EXPECT_THAT(admin_token_, ::testing::MatchesRegex("dpq_[0-9a-f]{64}"));
  EXPECT_THAT(server_->Log(),
              HasSubstr("dpq-server: created admin token in " + path));
  EXPECT_THAT(server_->Log(),
              HasSubstr("dpq-server listening on " + server_->address()));
}

TEST_F(ServiceTest, RegisterReportsTrueSizesToTheAdminOnly) {
  v1::RegisterDatasetResponse registered;
  ASSERT_THAT(client_->Register(admin_token_, HospitalManifest("hospital2"),
                                ReadFileOrEmpty(HospitalCsvPath()), &registered,
                                /*chunk_bytes=*/4096),
              GrpcOk());
  EXPECT_EQ(registered.dataset().dataset_id(), "hospital2");
  EXPECT_EQ(registered.stats().rows(), kHospitalRows);
  EXPECT_EQ(registered.stats().edges(), kHospitalEdges);
  EXPECT_EQ(registered.stats().csv_bytes(),
            ReadFileOrEmpty(HospitalCsvPath()).size());
  EXPECT_EQ(registered.dataset().row_count(), 0u) << "row count not public";
  ExpectNoRows(registered);

  v1::AdminListDatasetsResponse admin_list;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListDatasets(context.get(), {}, &admin_list),
      GrpcOk());
  ASSERT_THAT(admin_list.datasets(), SizeIs(2));
  EXPECT_EQ(admin_list.datasets(0).dataset().dataset_id(), "hospital");
  EXPECT_EQ(admin_list.datasets(1).dataset().dataset_id(), "hospital2");
  EXPECT_EQ(admin_list.datasets(0).stats().rows(), kHospitalRows);
  EXPECT_EQ(admin_list.datasets(0).stats().edges(), kHospitalEdges);
  ExpectNoRows(admin_list);
}

// max_edges is a flag (and a config key) of dpq-server: a registration
// whose conflict graph is larger fails with the limit named, nothing
// stored. At the limit kHospitalEdges the stored hospital table still
// loads; 200 rows sharing one key with distinct values make 19,900 edges.
TEST_F(ServiceTest, MaxEdgesFlagBoundsTheRegistration) {
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(
      StartServer({"--max-edges", absl::StrCat(kHospitalEdges)}));
  std::string csv = "K,V\n";
  for (int i = 0; i < 200; ++i) absl::StrAppend(&csv, "k,v", i, "\n");
  v1::DatasetManifest manifest;
  manifest.set_dataset_id("too_many");
  manifest.set_constraints("K -> V\n");
  manifest.set_public_max_rows(400);
  manifest.set_infer_column_types(true);
  v1::RegisterDatasetResponse registered;
  EXPECT_THAT(
      client_->Register(admin_token_, manifest, csv, &registered),
      GrpcIs(grpc::StatusCode::RESOURCE_EXHAUSTED, HasSubstr("max_edges")));
  v1::AdminListDatasetsResponse admin_list;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListDatasets(context.get(), {}, &admin_list),
      GrpcOk());
  ASSERT_THAT(admin_list.datasets(), SizeIs(1));
  EXPECT_EQ(admin_list.datasets(0).dataset().dataset_id(), "hospital");
}

// The cost class is fixed at registration from the conflict graph's size
// and recorded (state.txt), shown to admins only; on a heavy dataset eight
// concurrent releases (fresh request ids, one max_heavy_releases slot)
// queue after their charge and all complete, and the class survives a
// restart. 1,500 rows under one key with distinct values: a clique of
// 1,124,250 edges (above 1,000,000).
TEST_F(ServiceTest, HeavyDatasetsAreClassedAtRegistrationAndQueued) {
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer({"--max-heavy-releases", "1"}));
  std::string csv = "K,V\n";
  for (int i = 0; i < 1500; ++i) absl::StrAppend(&csv, "k,v", i, "\n");
  v1::DatasetManifest manifest;
  manifest.set_dataset_id("clique");
  manifest.set_constraints("K -> V\n");
  manifest.set_public_max_rows(3000);
  manifest.set_infer_column_types(true);
  v1::RegisterDatasetResponse registered;
  ASSERT_THAT(client_->Register(admin_token_, manifest, csv, &registered),
              GrpcOk());
  EXPECT_EQ(registered.stats().edges(), 1500u * 1499 / 2);
  EXPECT_EQ(registered.stats().release_cost(), "heavy");
  EXPECT_THAT(ReadFileOrEmpty(data_dir() + "/datasets/clique/state.txt"),
              HasSubstr("release_cost heavy\n"));
  v1::AdminListDatasetsResponse admin_list;
  {
    auto context = Context(admin_token_);
    ASSERT_THAT(client_->admin(admin_token_)
                    .ListDatasets(context.get(), {}, &admin_list),
                GrpcOk());
  }
  for (const auto& d : admin_list.datasets()) {
    EXPECT_EQ(d.stats().release_cost(),
              d.dataset().dataset_id() == "clique" ? "heavy" : "light");
  }
  absl::StatusOr<std::string> token =
      client_->CreateBuyer(admin_token_, "mallory");
  ASSERT_TRUE(token.ok()) << token.status();
  ASSERT_THAT(client_->Grant(admin_token_, "mallory", "clique", 1), GrpcOk());
  std::vector<v1::MeasureInconsistencyResponse> answers(8);
  std::vector<grpc::Status> statuses(8);
  std::vector<std::thread> callers;
  for (size_t i = 0; i < answers.size(); ++i) {
    callers.emplace_back([&, i] {
      statuses[i] = client_->Measure(*token, "clique", v1::MEASURE_MI, 0.01,
                                     absl::StrCat("heavy-", i), &answers[i]);
    });
  }
  for (std::thread& t : callers) t.join();
  for (size_t i = 0; i < answers.size(); ++i) {
    ASSERT_THAT(statuses[i], GrpcOk()) << i;
    EXPECT_EQ(answers[i].result().method(), "group_bound");
  }
  absl::StatusOr<v1::Budget> budget = client_->Budget(*token, "clique");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_NEAR(budget->spent(), 0.08, 1e-12);
  // Recorded: the restarted server (whose graph is rebuilt in the
  // background) still classes it heavy.
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer());
  {
    auto context = Context(admin_token_);
    ASSERT_THAT(client_->admin(admin_token_)
                    .ListDatasets(context.get(), {}, &admin_list),
                GrpcOk());
  }
  for (const auto& d : admin_list.datasets()) {
    if (d.dataset().dataset_id() == "clique") {
      EXPECT_EQ(d.stats().release_cost(), "heavy");
    }
  }
}

TEST_F(ServiceTest, RegisterFromAServerPath) {
  // Imports by server_path need an import directory (docs/security.md, item 3).
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer(
      {"--import-dir",
       std::filesystem::path(HospitalCsvPath()).parent_path().string()}));
  v1::RegisterDatasetRequest header;
  *header.mutable_header()->mutable_manifest() = HospitalManifest("bypath");
  header.mutable_header()->set_server_path(HospitalCsvPath());
  header.mutable_header()->set_wait_for_graph(true);
  v1::RegisterDatasetResponse response;
  auto context = Context(admin_token_);
  auto writer =
      client_->admin(admin_token_).RegisterDataset(context.get(), &response);
  ASSERT_TRUE(writer->Write(header));
  writer->WritesDone();
  ASSERT_THAT(writer->Finish(), GrpcOk());
  EXPECT_EQ(response.stats().rows(), kHospitalRows);
  EXPECT_EQ(response.stats().edges(), kHospitalEdges);
}

// docs/security.md, item 3: `dpq admin register pe --server-path
// /proc/self/environ` printed the server's environment in the "known columns"
// list of a constraint error; /etc/shadow and DATA_DIR/admin.token likewise.
// Now server_path reads only regular files inside the configured import
// directory (off by default), and its errors never quote the file.
TEST_F(ServiceTest, ServerPathReadsOnlyTheImportDirectoryAndNeverEchoesIt) {
  constexpr char kMarker[] = "env-secret-7f3a9c";
  ASSERT_EQ(::setenv("DPQ_ATTACK_MARKER", kMarker, 1), 0);
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer());  // inherits the marker
  ::unsetenv("DPQ_ATTACK_MARKER");
  const auto attack = [&](const std::string& server_path) {
    return Dpq({"admin", "register", "pe", "--server-path", server_path,
                "--constraints", HospitalDcPath(), "--public-max-rows",
                "100000", "--infer-types"},
               admin_token_);
  };
  const auto expect_nothing_echoed = [&](const CommandResult& r) {
    EXPECT_NE(r.exit_code, 0);
    for (const std::string* text : {&r.out, &r.err}) {
      EXPECT_THAT(*text, Not(HasSubstr(kMarker)));
      EXPECT_THAT(*text, Not(HasSubstr(admin_token_)));
      EXPECT_THAT(*text, Not(HasSubstr("known columns")));
    }
  };

  // Off by default: refused, saying how to turn imports on.
  CommandResult r = attack("/proc/self/environ");
  expect_nothing_echoed(r);
  EXPECT_THAT(r.err, AllOf(HasSubstr("FAILED_PRECONDITION"),
                           HasSubstr("--import-dir")));

  // With an import directory holding the demo CSV, a symbolic link out of
  // it and a CSV whose header is secret.
  const std::string import_dir = dir_.Sub("import");
  std::filesystem::create_directory(import_dir);
  std::filesystem::copy_file(HospitalCsvPath(), import_dir + "/hospital.csv");
  std::filesystem::create_symlink("/proc/self/environ",
                                  import_dir + "/environ.csv");
  std::filesystem::create_symlink(data_dir() + "/admin.token",
                                  import_dir + "/token.csv");
  {
    std::ofstream secret(import_dir + "/secret.csv");
    secret << kMarker << ",x\n1,2\n";
  }
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ::setenv("DPQ_ATTACK_MARKER", kMarker, 1);
  ASSERT_NO_FATAL_FAILURE(StartServer({"--import-dir", import_dir}));
  ::unsetenv("DPQ_ATTACK_MARKER");
  for (const std::string& outside :
       {std::string("/proc/self/environ"), std::string("/etc/shadow"),
        data_dir() + "/admin.token", std::string("environ.csv"),
        std::string("token.csv"), std::string("../data/admin.token"),
        import_dir + "/../data/admin.token"}) {
    r = attack(outside);
    expect_nothing_echoed(r);
    EXPECT_THAT(r.err, HasSubstr("PERMISSION_DENIED")) << outside;
  }
  // A file inside the directory that does not parse: the line and field,
  // never its header names.
  r = attack("secret.csv");
  expect_nothing_echoed(r);
  EXPECT_THAT(r.err,
              AllOf(HasSubstr("INVALID_ARGUMENT"), HasSubstr("constraints"),
                    HasSubstr("details are withheld")));
  // The same file uploaded shows the full message (the admin has it).
  r = Dpq({"admin", "register", "pe", "--data", import_dir + "/secret.csv",
           "--constraints", HospitalDcPath(), "--public-max-rows", "100000",
           "--infer-types"},
          admin_token_);
  EXPECT_THAT(r.err, HasSubstr("known columns"));

  // A permitted import, by a path relative to the directory.
  r = Dpq({"admin", "register", "imported", "--server-path", "hospital.csv",
           "--constraints", HospitalDcPath(), "--public-max-rows", "100000",
           "--schema", HospitalSchemaPath()},
          admin_token_);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  v1::AdminListDatasetsResponse list;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListDatasets(context.get(), {}, &list),
      GrpcOk());
  ASSERT_THAT(list.datasets(), SizeIs(2));
  EXPECT_EQ(list.datasets(1).dataset().dataset_id(), "imported");
  EXPECT_EQ(list.datasets(1).stats().rows(), kHospitalRows);
}

TEST_F(ServiceTest, BuyersSeePublicMetadataOnly) {
  absl::StatusOr<std::string> token = client_->CreateBuyer(admin_token_, "bob");
  ASSERT_TRUE(token.ok()) << token.status();

  v1::ListDatasetsResponse list;
  auto context = Context(*token);
  ASSERT_THAT(client_->buyer(*token).ListDatasets(context.get(), {}, &list),
              GrpcOk());
  ASSERT_THAT(list.datasets(), SizeIs(1));
  ExpectNoRows(list);

  v1::DescribeDatasetRequest request;
  request.set_dataset_id("hospital");
  v1::DescribeDatasetResponse described;
  context = Context(*token);
  ASSERT_THAT(client_->buyer(*token).DescribeDataset(context.get(), request,
                                                     &described),
              GrpcOk());
  const v1::DatasetInfo& info = described.dataset();
  EXPECT_EQ(info.dataset_id(), "hospital");
  EXPECT_EQ(info.public_max_rows(), 2000u);
  EXPECT_FALSE(info.row_count_public());
  EXPECT_EQ(info.row_count(), 0u);
  EXPECT_THAT(info.constraints(), SizeIs(15));
  EXPECT_THAT(info.columns(), SizeIs(19));
  EXPECT_EQ(info.columns(0).name(), "ProviderNumber");
  EXPECT_THAT(info.supported_measures(),
              ElementsAre(v1::MEASURE_MI, v1::MEASURE_P, v1::MEASURE_R));
  EXPECT_FALSE(info.neighbouring().empty());
  EXPECT_GE(info.version(), 1u);
  ExpectNoRows(described);
}

TEST_F(ServiceTest, MeasureChargesAndReportsTheRelease) {
  absl::StatusOr<std::string> token =
      client_->CreateBuyer(admin_token_, "carol");
  ASSERT_TRUE(token.ok()) << token.status();
  ASSERT_THAT(client_->Grant(admin_token_, "carol", "hospital", 3), GrpcOk());

  v1::MeasureInconsistencyResponse mi;
  ASSERT_THAT(
      client_->Measure(*token, "hospital", v1::MEASURE_MI, 1, "m-1", &mi),
      GrpcOk());
  EXPECT_EQ(mi.result().measure(), v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(mi.result().epsilon(), 1);
  EXPECT_DOUBLE_EQ(mi.epsilon_charged(), 1);
  EXPECT_DOUBLE_EQ(mi.remaining_budget(), 2);
  EXPECT_GT(mi.result().theta(), 0u);
  EXPECT_GT(mi.result().bound95(), 0);
  EXPECT_EQ(mi.result().method(), "group_bound");  // the default
  EXPECT_LE(mi.result().lower95(), mi.result().value());
  EXPECT_GE(mi.result().upper95(), mi.result().value());
  EXPECT_EQ(mi.result().estimate(), v1::ESTIMATE_LOWER_BOUND);
  EXPECT_EQ(mi.request_id(), "m-1");
  EXPECT_FALSE(mi.replayed());
  // The DP estimate is near the truth (11313); the bound is a 95% bound on
  // the noise only, so allow a wide margin plus the truncation bias (the
  // value estimates a lower bound).
  EXPECT_LT(
      std::abs(mi.result().value() - static_cast<int64_t>(kHospitalEdges)),
      20 * mi.result().bound95() + 12000);
  ExpectNoRows(mi);

  v1::MeasureInconsistencyResponse r;
  ASSERT_THAT(
      client_->Measure(*token, "hospital", v1::MEASURE_R, 0.5, "m-2", &r),
      GrpcOk());
  EXPECT_EQ(r.result().measure(), v1::MEASURE_R);
  EXPECT_EQ(r.result().theta(), 0u);
  // The default for a dataset without exact_repair: the LP lower bound.
  EXPECT_EQ(r.result().method(), "cover_bound");
  EXPECT_EQ(r.result().estimate(), v1::ESTIMATE_LOWER_BOUND);
  EXPECT_GT(r.result().bound95(), 0);
  EXPECT_DOUBLE_EQ(r.remaining_budget(), 1.5);

  // Without a request id: refused, nothing charged (an id the server
  // picked could not reach a client whose charged call timed out).
  v1::MeasureInconsistencyResponse p;
  EXPECT_THAT(client_->Measure(*token, "hospital", v1::MEASURE_P, 0.5, "", &p),
              GrpcIs(grpc::StatusCode::INVALID_ARGUMENT,
                     HasSubstr("request_id is required")));
  ASSERT_THAT(
      client_->Measure(*token, "hospital", v1::MEASURE_P, 0.5, "p-1", &p),
      GrpcOk());
  EXPECT_EQ(p.result().measure(), v1::MEASURE_P);
  EXPECT_EQ(p.result().method(), "group_bound");
  EXPECT_EQ(p.result().estimate(), v1::ESTIMATE_LOWER_BOUND);
  EXPECT_EQ(p.request_id(), "p-1");

  absl::StatusOr<v1::Budget> budget = client_->Budget(*token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->granted(), 3);
  EXPECT_DOUBLE_EQ(budget->spent(), 2);
  EXPECT_DOUBLE_EQ(budget->reserved(), 0);
  EXPECT_DOUBLE_EQ(budget->remaining(), 1);
}

TEST_F(ServiceTest, QualityReportIsOneChargeForThreeMeasures) {
  absl::StatusOr<std::string> token =
      client_->CreateBuyer(admin_token_, "dave");
  ASSERT_TRUE(token.ok()) << token.status();
  ASSERT_THAT(client_->Grant(admin_token_, "dave", "hospital", 1), GrpcOk());
  v1::QualityReportRequest request;
  request.set_dataset_id("hospital");
  request.set_epsilon(0.9);
  request.set_request_id("report-1");
  v1::QualityReportResponse report;
  auto context = Context(*token);
  ASSERT_THAT(
      client_->buyer(*token).QualityReport(context.get(), request, &report),
      GrpcOk());
  ASSERT_THAT(report.results(), SizeIs(3));
  EXPECT_EQ(report.results(0).measure(), v1::MEASURE_MI);
  EXPECT_EQ(report.results(1).measure(), v1::MEASURE_P);
  EXPECT_EQ(report.results(2).measure(), v1::MEASURE_R);
  for (const v1::MeasureResult& r : report.results()) {
    EXPECT_NEAR(r.epsilon(), 0.3, 1e-12);
  }
  EXPECT_DOUBLE_EQ(report.epsilon_charged(), 0.9);
  EXPECT_NEAR(report.remaining_budget(), 0.1, 1e-12);
  ExpectNoRows(report);
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "dave", "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_THAT(*entries, SizeIs(1)) << "one charge for the report";
  EXPECT_EQ((*entries)[0].request_id(), "report-1");
  EXPECT_DOUBLE_EQ((*entries)[0].epsilon(), 0.9);
  EXPECT_EQ((*entries)[0].state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
}

TEST_F(ServiceTest, GetBudgetShowsOnlyTheCallersOwnLedger) {
  absl::StatusOr<std::string> erin = client_->CreateBuyer(admin_token_, "erin");
  absl::StatusOr<std::string> frank =
      client_->CreateBuyer(admin_token_, "frank");
  ASSERT_TRUE(erin.ok() && frank.ok());
  ASSERT_THAT(client_->Grant(admin_token_, "erin", "hospital", 2), GrpcOk());
  ASSERT_THAT(client_->Grant(admin_token_, "frank", "hospital", 2), GrpcOk());
  v1::MeasureInconsistencyResponse ignored;
  ASSERT_THAT(
      client_->Measure(*erin, "hospital", v1::MEASURE_MI, 1, "e-1", &ignored),
      GrpcOk());
  ASSERT_THAT(client_->Measure(*frank, "hospital", v1::MEASURE_MI, 0.5, "f-1",
                               &ignored),
              GrpcOk());

  v1::GetBudgetRequest request;  // every dataset, with history
  request.set_include_history(true);
  v1::GetBudgetResponse response;
  auto context = Context(*erin);
  ASSERT_THAT(
      client_->buyer(*erin).GetBudget(context.get(), request, &response),
      GrpcOk());
  ASSERT_THAT(response.budgets(), SizeIs(1));
  EXPECT_EQ(response.budgets(0).buyer_id(), "erin");
  EXPECT_DOUBLE_EQ(response.budgets(0).spent(), 1);
  ASSERT_THAT(response.history(), SizeIs(1));
  EXPECT_EQ(response.history(0).buyer_id(), "erin");
  EXPECT_EQ(response.history(0).request_id(), "e-1");
  EXPECT_EQ(response.history(0).state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
  EXPECT_FALSE(response.history(0).operation().empty());
}

TEST_F(ServiceTest, BuyerAccountsAreListedAndTokensStoredAsHashes) {
  absl::StatusOr<std::string> token =
      client_->CreateBuyer(admin_token_, "gina");
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_THAT(*token, ::testing::MatchesRegex("dpq_[0-9a-f]{64}"));

  // Neither token is stored in plain text anywhere in the data directory
  // (except the admin's own admin.token file); the SHA-256 is.
  std::string all_files;
  for (const auto& f :
       std::filesystem::recursive_directory_iterator(data_dir())) {
    if (!f.is_regular_file() || f.path().filename() == "admin.token") continue;
    all_files += ReadFileOrEmpty(f.path().string());
  }
  EXPECT_THAT(all_files, Not(HasSubstr(*token)));
  EXPECT_THAT(all_files, Not(HasSubstr(admin_token_)));
  EXPECT_THAT(all_files, HasSubstr(core::util::Sha256Hex(*token)));

  v1::ListBuyersResponse buyers;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListBuyers(context.get(), {}, &buyers),
      GrpcOk());
  ASSERT_THAT(buyers.buyers(), SizeIs(1));
  EXPECT_EQ(buyers.buyers(0).buyer_id(), "gina");
  EXPECT_FALSE(buyers.buyers(0).revoked());
  EXPECT_GT(buyers.buyers(0).created_at().seconds(), 0);
  EXPECT_THAT(buyers.DebugString(), Not(HasSubstr(*token)));

  // Taken name.
  v1::CreateBuyerRequest again;
  again.set_name("gina");
  v1::CreateBuyerResponse ignored;
  context = Context(admin_token_);
  EXPECT_THAT(
      client_->admin(admin_token_).CreateBuyer(context.get(), again, &ignored),
      GrpcIs(grpc::StatusCode::ALREADY_EXISTS, HasSubstr("gina")));

  v1::RevokeBuyerRequest revoke;
  revoke.set_buyer_id("gina");
  v1::RevokeBuyerResponse revoked;
  context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).RevokeBuyer(context.get(), revoke, &revoked),
      GrpcOk());
  context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListBuyers(context.get(), {}, &buyers),
      GrpcOk());
  ASSERT_THAT(buyers.buyers(), SizeIs(1));
  EXPECT_TRUE(buyers.buyers(0).revoked());
}

TEST_F(ServiceTest, SetBudgetCapLedgerAndAuditLog) {
  absl::StatusOr<std::string> hank = client_->CreateBuyer(admin_token_, "hank");
  absl::StatusOr<std::string> ivy = client_->CreateBuyer(admin_token_, "ivy");
  ASSERT_TRUE(hank.ok() && ivy.ok());

  v1::SetBudgetRequest set;
  set.set_buyer_id("hank");
  set.set_dataset_id("hospital");
  set.set_granted(2);
  v1::SetBudgetResponse set_response;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).SetBudget(context.get(), set, &set_response),
      GrpcOk());
  EXPECT_DOUBLE_EQ(set_response.budget().granted(), 2);
  EXPECT_DOUBLE_EQ(set_response.budget().remaining(), 2);
  ASSERT_THAT(client_->Grant(admin_token_, "ivy", "hospital", 2), GrpcOk());

  v1::MeasureInconsistencyResponse ignored;
  ASSERT_THAT(
      client_->Measure(*hank, "hospital", v1::MEASURE_MI, 1.5, "h-1", &ignored),
      GrpcOk());
  // Below what is spent: refused.
  set.set_granted(1);
  context = Context(admin_token_);
  EXPECT_THAT(
      client_->admin(admin_token_).SetBudget(context.get(), set, &set_response),
      GrpcIs(grpc::StatusCode::FAILED_PRECONDITION, ::testing::_));

  // Cap 2 over all buyers: hank spent 1.5, so ivy can spend 0.5 at most.
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("hospital");
  cap.set_cap(2);
  v1::SetDatasetCapResponse cap_response;
  context = Context(admin_token_);
  ASSERT_THAT(client_->admin(admin_token_)
                  .SetDatasetCap(context.get(), cap, &cap_response),
              GrpcOk());
  EXPECT_THAT(
      client_->Measure(*ivy, "hospital", v1::MEASURE_MI, 1, "i-1", &ignored),
      GrpcIs(grpc::StatusCode::RESOURCE_EXHAUSTED, HasSubstr("cap")));
  EXPECT_THAT(
      client_->Measure(*ivy, "hospital", v1::MEASURE_MI, 0.5, "i-2", &ignored),
      GrpcOk());

  v1::AdminListDatasetsResponse datasets;
  context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListDatasets(context.get(), {}, &datasets),
      GrpcOk());
  ASSERT_THAT(datasets.datasets(), SizeIs(1));
  EXPECT_DOUBLE_EQ(datasets.datasets(0).cap(), 2);
  EXPECT_DOUBLE_EQ(datasets.datasets(0).spent_all_buyers(), 2);

  // Ledger, filtered by buyer and by dataset.
  absl::StatusOr<std::vector<v1::LedgerEntry>> hank_entries =
      client_->Ledger(admin_token_, "hank", "");
  ASSERT_TRUE(hank_entries.ok()) << hank_entries.status();
  ASSERT_THAT(*hank_entries, SizeIs(1));
  EXPECT_EQ((*hank_entries)[0].request_id(), "h-1");
  absl::StatusOr<std::vector<v1::LedgerEntry>> all =
      client_->Ledger(admin_token_, "", "hospital");
  ASSERT_TRUE(all.ok()) << all.status();
  int committed = 0;
  for (const v1::LedgerEntry& e : *all) {
    committed += e.state() == v1::LEDGER_ENTRY_STATE_COMMITTED;
  }
  EXPECT_EQ(committed, 2);
  v1::ListLedgerRequest ledger_request;
  ledger_request.set_buyer_id("ivy");
  v1::ListLedgerResponse ledger;
  context = Context(admin_token_);
  ASSERT_THAT(client_->admin(admin_token_)
                  .ListLedger(context.get(), ledger_request, &ledger),
              GrpcOk());
  ASSERT_THAT(ledger.budgets(), SizeIs(1));
  EXPECT_EQ(ledger.budgets(0).buyer_id(), "ivy");
  EXPECT_DOUBLE_EQ(ledger.budgets(0).spent(), 0.5);

  // The audit log has the admin's actions, newest first.
  v1::ListAuditLogResponse audit;
  context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).ListAuditLog(context.get(), {}, &audit),
      GrpcOk());
  std::vector<std::string> actions;
  for (const v1::AuditEntry& e : audit.entries()) {
    actions.push_back(e.action());
    EXPECT_EQ(e.actor(), "admin");
    EXPECT_GT(e.time().seconds(), 0);
  }
  EXPECT_THAT(actions, ::testing::IsSupersetOf(
                           {"RegisterDataset", "CreateBuyer", "SetBudget",
                            "GrantBudget", "SetDatasetCap"}));
  ASSERT_FALSE(actions.empty());
  EXPECT_EQ(actions.front(), "SetDatasetCap");
}

TEST_F(ServiceTest, ReplaceKeepsTheLedgerAndDeleteRemovesTheDataset) {
  absl::StatusOr<std::string> token =
      client_->CreateBuyer(admin_token_, "jack");
  ASSERT_TRUE(token.ok()) << token.status();
  ASSERT_THAT(client_->Grant(admin_token_, "jack", "hospital", 2), GrpcOk());
  v1::MeasureInconsistencyResponse ignored;
  ASSERT_THAT(
      client_->Measure(*token, "hospital", v1::MEASURE_MI, 1, "j-1", &ignored),
      GrpcOk());

  // The new version: the first 500 rows only.
  const std::string csv = ReadFileOrEmpty(HospitalCsvPath());
  size_t pos = 0;
  for (int line = 0; line <= 500; ++line) pos = csv.find('\n', pos) + 1;
  v1::ReplaceDatasetResponse replaced;
  ASSERT_THAT(client_->Replace(admin_token_, HospitalManifest("hospital"),
                               csv.substr(0, pos), &replaced),
              GrpcOk());
  EXPECT_EQ(replaced.stats().rows(), 500u);
  EXPECT_LT(replaced.stats().edges(), kHospitalEdges);
  EXPECT_GE(replaced.dataset().version(), 2u);

  absl::StatusOr<v1::Budget> budget = client_->Budget(*token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), 1) << "spent epsilon still counts";
  ASSERT_THAT(
      client_->Measure(*token, "hospital", v1::MEASURE_P, 1, "j-2", &ignored),
      GrpcOk());

  v1::DeleteDatasetRequest del;
  del.set_dataset_id("hospital");
  v1::DeleteDatasetResponse deleted;
  auto context = Context(admin_token_);
  ASSERT_THAT(
      client_->admin(admin_token_).DeleteDataset(context.get(), del, &deleted),
      GrpcOk());
  v1::DescribeDatasetRequest describe;
  describe.set_dataset_id("hospital");
  v1::DescribeDatasetResponse described;
  context = Context(*token);
  EXPECT_THAT(client_->buyer(*token).DescribeDataset(context.get(), describe,
                                                     &described),
              GrpcIs(grpc::StatusCode::NOT_FOUND, HasSubstr("hospital")));
  // Its ledger entries are kept.
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "jack", "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  EXPECT_THAT(*entries, SizeIs(2));
}

TEST_F(ServiceTest, RequestLogHasOneLinePerRequestAndNoDataValues) {
  absl::StatusOr<std::string> token = client_->CreateBuyer(admin_token_, "kim");
  ASSERT_TRUE(token.ok()) << token.status();
  ASSERT_THAT(client_->Grant(admin_token_, "kim", "hospital", 1), GrpcOk());
  v1::MeasureInconsistencyResponse response;
  ASSERT_THAT(client_->Measure(*token, "hospital", v1::MEASURE_MI, 0.25,
                               "log-1", &response),
              GrpcOk());
  // The retry replays the recorded answer; both lines name the id.
  ASSERT_THAT(client_->Measure(*token, "hospital", v1::MEASURE_MI, 0.25,
                               "log-1", &response),
              GrpcOk());
  const std::string log = server_->Log();
  std::vector<std::string> found;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (absl::StrContains(line, "MeasureInconsistency") &&
        absl::StrContains(line, "kim") && absl::StrContains(line, "hospital")) {
      found.emplace_back(line);
      EXPECT_THAT(std::string(line), ::testing::ContainsRegex("latency"));
      EXPECT_THAT(std::string(line), HasSubstr("0.25"));
      EXPECT_THAT(std::string(line),
                  ::testing::ContainsRegex("status=(0|OK)( |$)"));
    }
  }
  ASSERT_EQ(found.size(), 2u) << log;
  EXPECT_THAT(found[0], HasSubstr("request_id=log-1 replayed=false"));
  EXPECT_THAT(found[1], HasSubstr("request_id=log-1 replayed=true"));
  EXPECT_THAT(log, Not(HasSubstr(kHospitalCellValue)));
  EXPECT_THAT(log, Not(HasSubstr(*token)));
  EXPECT_THAT(log, Not(HasSubstr(admin_token_)));
}

}  // namespace
}  // namespace dpq::integration
