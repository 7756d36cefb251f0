// AdminService over a real server on loopback (tests/testing/server_fixture.h):
// every RPC, its auth, argument, not-found and already-exists errors, the
// upload limits, and the audit log.
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server {
namespace {

using ::dpq::testing::StatusIs;
using ::dpq::testing::TestServer;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::Property;

// Rows 1 and 2 violate zip -> city: one conflict edge.
constexpr char kCsv[] =
    "name,zip,city\n"
    "ann,1000,Lyon\n"
    "bob,1000,Paris\n"
    "cat,2000,Nice\n";
constexpr char kConstraints[] = "zip -> city\n";

// The first message of a RegisterDataset stream for kCsv's columns.
v1::RegisterDatasetRequest PeopleHeader(const std::string& id) {
  v1::RegisterDatasetRequest header;
  v1::DatasetManifest* manifest = header.mutable_header()->mutable_manifest();
  manifest->set_dataset_id(id);
  manifest->set_constraints(kConstraints);
  manifest->set_public_max_rows(100);
  manifest->set_infer_column_types(true);
  return header;
}

absl::Status ToAbsl(const grpc::Status& status) {
  return TestServer::ToAbsl(status);
}

class AdminServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // server_path imports from the directory around the data directory
    // (whose own files are still refused).
    ASSERT_OK_AND_ASSIGN(
        server_, TestServer::Start(dpq::testing::Transport::kInsecure,
                                   [](server::Options& options) {
                                     options.import_dir =
                                         std::filesystem::path(options.data_dir)
                                             .parent_path()
                                             .string();
                                   }));
    admin_ = server_->AdminStub();
  }

  // Calls `rpc` with the admin token (or `token`).
  template <typename Request, typename Response>
  absl::Status Call(grpc::Status (v1::AdminService::Stub::*rpc)(
                        grpc::ClientContext*, const Request&, Response*),
                    const Request& request, Response* response,
                    const std::string* token = nullptr) {
    grpc::ClientContext context;
    TestServer::Authorize(context,
                          token != nullptr ? *token : server_->admin_token());
    return ToAbsl(((*admin_).*rpc)(&context, request, response));
  }

  absl::Status Register(const std::string& id) {
    return server_->RegisterDataset(id, kCsv, kConstraints, 100).status();
  }

  std::unique_ptr<TestServer> server_;
  std::unique_ptr<v1::AdminService::Stub> admin_;
};

// Every admin RPC, called with the given context setup; streaming RPCs send
// a valid header and CSV.
std::vector<std::pair<
    std::string,
    std::function<grpc::Status(v1::AdminService::Stub&, grpc::ClientContext&)>>>
AllAdminRpcs() {
  using Stub = v1::AdminService::Stub;
  using Ctx = grpc::ClientContext;
  std::vector<std::pair<std::string, std::function<grpc::Status(Stub&, Ctx&)>>>
      rpcs;
  rpcs.emplace_back("RegisterDataset", [](Stub& stub, Ctx& ctx) {
    v1::RegisterDatasetResponse response;
    auto writer = stub.RegisterDataset(&ctx, &response);
    v1::RegisterDatasetRequest header;
    header.mutable_header()->mutable_manifest()->set_dataset_id("d");
    header.mutable_header()->mutable_manifest()->set_public_max_rows(10);
    header.mutable_header()->mutable_manifest()->set_infer_column_types(true);
    writer->Write(header);
    v1::RegisterDatasetRequest chunk;
    chunk.set_csv_chunk(kCsv);
    writer->Write(chunk);
    writer->WritesDone();
    return writer->Finish();
  });
  rpcs.emplace_back("ReplaceDataset", [](Stub& stub, Ctx& ctx) {
    v1::ReplaceDatasetResponse response;
    auto writer = stub.ReplaceDataset(&ctx, &response);
    v1::ReplaceDatasetRequest header;
    header.mutable_header()->mutable_manifest()->set_dataset_id("d");
    header.mutable_header()->mutable_manifest()->set_public_max_rows(10);
    header.mutable_header()->mutable_manifest()->set_infer_column_types(true);
    writer->Write(header);
    writer->WritesDone();
    return writer->Finish();
  });
  rpcs.emplace_back("DeleteDataset", [](Stub& stub, Ctx& ctx) {
    v1::DeleteDatasetRequest request;
    request.set_dataset_id("d");
    v1::DeleteDatasetResponse response;
    return stub.DeleteDataset(&ctx, request, &response);
  });
  rpcs.emplace_back("ListDatasets", [](Stub& stub, Ctx& ctx) {
    v1::AdminListDatasetsResponse response;
    return stub.ListDatasets(&ctx, {}, &response);
  });
  rpcs.emplace_back("CreateBuyer", [](Stub& stub, Ctx& ctx) {
    v1::CreateBuyerRequest request;
    request.set_name("mallory");
    v1::CreateBuyerResponse response;
    return stub.CreateBuyer(&ctx, request, &response);
  });
  rpcs.emplace_back("RevokeBuyer", [](Stub& stub, Ctx& ctx) {
    v1::RevokeBuyerRequest request;
    request.set_buyer_id("alice");
    v1::RevokeBuyerResponse response;
    return stub.RevokeBuyer(&ctx, request, &response);
  });
  rpcs.emplace_back("ListBuyers", [](Stub& stub, Ctx& ctx) {
    v1::ListBuyersResponse response;
    return stub.ListBuyers(&ctx, {}, &response);
  });
  rpcs.emplace_back("GrantBudget", [](Stub& stub, Ctx& ctx) {
    v1::GrantBudgetRequest request;
    request.set_buyer_id("alice");
    request.set_dataset_id("hospital");
    request.set_epsilon(100);
    v1::GrantBudgetResponse response;
    return stub.GrantBudget(&ctx, request, &response);
  });
  rpcs.emplace_back("SetBudget", [](Stub& stub, Ctx& ctx) {
    v1::SetBudgetRequest request;
    request.set_buyer_id("alice");
    request.set_dataset_id("hospital");
    request.set_granted(100);
    v1::SetBudgetResponse response;
    return stub.SetBudget(&ctx, request, &response);
  });
  rpcs.emplace_back("SetDatasetCap", [](Stub& stub, Ctx& ctx) {
    v1::SetDatasetCapRequest request;
    request.set_dataset_id("hospital");
    v1::SetDatasetCapResponse response;
    return stub.SetDatasetCap(&ctx, request, &response);
  });
  rpcs.emplace_back("ListLedger", [](Stub& stub, Ctx& ctx) {
    v1::ListLedgerResponse response;
    return stub.ListLedger(&ctx, {}, &response);
  });
  rpcs.emplace_back("ListAuditLog", [](Stub& stub, Ctx& ctx) {
    v1::ListAuditLogResponse response;
    return stub.ListAuditLog(&ctx, {}, &response);
  });
  return rpcs;
}

TEST_F(AdminServiceTest, EveryRpcNeedsAToken) {
  for (const auto& [name, rpc] : AllAdminRpcs()) {
    grpc::ClientContext context;
    EXPECT_THAT(
        ToAbsl(rpc(*admin_, context)),
        StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("bearer token")))
        << name;
  }
}

TEST_F(AdminServiceTest, EveryRpcRejectsABuyerToken) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  auto buyer_channel_stub = server_->AdminStub();
  for (const auto& [name, rpc] : AllAdminRpcs()) {
    grpc::ClientContext context;
    TestServer::Authorize(context, token);
    EXPECT_THAT(ToAbsl(rpc(*buyer_channel_stub, context)),
                StatusIs(absl::StatusCode::kPermissionDenied,
                         HasSubstr("Buyer 'alice' may not call admin RPCs")))
        << name;
  }
  // Nothing changed.
  v1::ListBuyersResponse buyers;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListBuyers, {}, &buyers));
  EXPECT_EQ(buyers.buyers_size(), 1);
  v1::ListAuditLogResponse audit;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListAuditLog, {}, &audit));
  EXPECT_EQ(audit.entries_size(), 1);  // the CreateBuyer above
}

TEST_F(AdminServiceTest, CreateBuyerReturnsATokenOnce) {
  v1::CreateBuyerRequest request;
  request.set_name("alice");
  v1::CreateBuyerResponse response;
  ASSERT_OK(Call(&v1::AdminService::Stub::CreateBuyer, request, &response));
  EXPECT_EQ(response.buyer().buyer_id(), "alice");
  EXPECT_FALSE(response.buyer().revoked());
  EXPECT_GT(response.buyer().created_at().seconds(), 1'600'000'000);
  EXPECT_THAT(response.token(), MatchesRegex("dpq_[0-9a-f]{64}"));

  v1::CreateBuyerResponse again;
  EXPECT_THAT(Call(&v1::AdminService::Stub::CreateBuyer, request, &again),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("alice")));

  // The buyer can authenticate with it.
  grpc::ClientContext context;
  TestServer::Authorize(context, response.token());
  v1::GetBudgetResponse budget;
  EXPECT_OK(ToAbsl(server_->BuyerStub()->GetBudget(&context, {}, &budget)));
}

TEST_F(AdminServiceTest, CreateBuyerValidatesTheName) {
  v1::CreateBuyerResponse response;
  v1::CreateBuyerRequest request;
  request.set_name("admin");
  EXPECT_THAT(Call(&v1::AdminService::Stub::CreateBuyer, request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("name 'admin' is reserved")));
  request.set_name("two words");
  EXPECT_THAT(Call(&v1::AdminService::Stub::CreateBuyer, request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name")));
  request.set_name("");
  EXPECT_THAT(Call(&v1::AdminService::Stub::CreateBuyer, request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name")));
}

TEST_F(AdminServiceTest, RevokeBuyerLocksTheTokenOutAtOnce) {
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  ASSERT_OK_AND_ASSIGN(const std::string other, server_->CreateBuyer("bob"));
  auto buyer = server_->BuyerStub();
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, token);
    v1::GetBudgetResponse budget;
    ASSERT_OK(ToAbsl(buyer->GetBudget(&context, {}, &budget)));
  }
  v1::RevokeBuyerRequest request;
  request.set_buyer_id("alice");
  v1::RevokeBuyerResponse response;
  ASSERT_OK(Call(&v1::AdminService::Stub::RevokeBuyer, request, &response));
  {
    // Same channel, next call.
    grpc::ClientContext context;
    TestServer::Authorize(context, token);
    v1::GetBudgetResponse budget;
    EXPECT_THAT(
        ToAbsl(buyer->GetBudget(&context, {}, &budget)),
        StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("revoked")));
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, other);
    v1::GetBudgetResponse budget;
    EXPECT_OK(ToAbsl(server_->BuyerStub()->GetBudget(&context, {}, &budget)));
  }
  v1::ListBuyersResponse buyers;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListBuyers, {}, &buyers));
  ASSERT_EQ(buyers.buyers_size(), 2);
  EXPECT_EQ(buyers.buyers(0).buyer_id(), "alice");
  EXPECT_TRUE(buyers.buyers(0).revoked());
  EXPECT_EQ(buyers.buyers(1).buyer_id(), "bob");
  EXPECT_FALSE(buyers.buyers(1).revoked());

  request.set_buyer_id("carol");
  EXPECT_THAT(Call(&v1::AdminService::Stub::RevokeBuyer, request, &response),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("carol")));
  request.set_buyer_id("admin");
  EXPECT_THAT(Call(&v1::AdminService::Stub::RevokeBuyer, request, &response),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("admin")));
}

TEST_F(AdminServiceTest, RegisterListReplaceDelete) {
  ASSERT_OK_AND_ASSIGN(v1::RegisterDatasetResponse registered,
                       server_->RegisterDataset("people", kCsv, kConstraints,
                                                100, /*chunk_bytes=*/7));
  EXPECT_EQ(registered.dataset().dataset_id(), "people");
  EXPECT_EQ(registered.dataset().public_max_rows(), 100u);
  EXPECT_EQ(registered.dataset().version(), 1u);
  EXPECT_EQ(registered.stats().rows(), 3u);
  // The conflict graph is built in the background: the response shows it
  // only if it was already done.
  EXPECT_EQ(registered.stats().edges(),
            registered.stats().graph_ready() ? 1u : 0u);
  EXPECT_EQ(registered.stats().csv_bytes(), std::string(kCsv).size());

  EXPECT_THAT(Register("people"),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("people")));

  v1::AdminListDatasetsResponse list;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, {}, &list));
  ASSERT_EQ(list.datasets_size(), 1);
  EXPECT_EQ(list.datasets(0).dataset().dataset_id(), "people");
  EXPECT_EQ(list.datasets(0).stats().rows(), 3u);
  EXPECT_EQ(list.datasets(0).dataset().kind(), v1::DATASET_KIND_TABLE);
  EXPECT_EQ(list.datasets(0).cap(), 0);
  EXPECT_EQ(list.datasets(0).spent_all_buyers(), 0);

  // Replace with one row more, from a file on the server.
  const std::string path = server_->data_dir() + "/../people2.csv";
  std::ofstream(path) << kCsv << "dan,2000,Nice\n";
  grpc::ClientContext context;
  TestServer::Authorize(context, server_->admin_token());
  v1::ReplaceDatasetResponse replaced;
  auto writer = admin_->ReplaceDataset(&context, &replaced);
  v1::ReplaceDatasetRequest header;
  header.mutable_header()->mutable_manifest()->set_dataset_id("people");
  header.mutable_header()->mutable_manifest()->set_constraints(kConstraints);
  header.mutable_header()->mutable_manifest()->set_public_max_rows(100);
  header.mutable_header()->mutable_manifest()->set_infer_column_types(true);
  header.mutable_header()->set_server_path(path);
  header.mutable_header()->set_wait_for_graph(true);
  ASSERT_TRUE(writer->Write(header));
  writer->WritesDone();
  ASSERT_OK(ToAbsl(writer->Finish()));
  EXPECT_EQ(replaced.dataset().version(), 2u);
  EXPECT_EQ(replaced.stats().rows(), 4u);
  // wait_for_graph: the new version's graph is in the response (dan
  // agrees with cat, so ann-bob stays the only conflict).
  EXPECT_TRUE(replaced.stats().graph_ready());
  EXPECT_EQ(replaced.stats().edges(), 1u);
  EXPECT_TRUE(replaced.stats().graph_error().empty());

  v1::DeleteDatasetRequest del;
  del.set_dataset_id("people");
  v1::DeleteDatasetResponse deleted;
  ASSERT_OK(Call(&v1::AdminService::Stub::DeleteDataset, del, &deleted));
  EXPECT_THAT(Call(&v1::AdminService::Stub::DeleteDataset, del, &deleted),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("people")));
  list.Clear();
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, {}, &list));
  EXPECT_EQ(list.datasets_size(), 0);
}

TEST_F(AdminServiceTest, ReplaceUnknownDatasetIsNotFound) {
  grpc::ClientContext context;
  TestServer::Authorize(context, server_->admin_token());
  v1::ReplaceDatasetResponse response;
  auto writer = admin_->ReplaceDataset(&context, &response);
  v1::ReplaceDatasetRequest message;
  message.mutable_header()->mutable_manifest()->set_dataset_id("ghost");
  message.mutable_header()->mutable_manifest()->set_public_max_rows(10);
  message.mutable_header()->mutable_manifest()->set_infer_column_types(true);
  message.mutable_header()->mutable_manifest()->set_constraints(kConstraints);
  writer->Write(message);
  message.set_csv_chunk(kCsv);
  writer->Write(message);
  writer->WritesDone();
  EXPECT_THAT(ToAbsl(writer->Finish()),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("ghost")));
}

TEST_F(AdminServiceTest, UploadMustStartWithTheHeader) {
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, server_->admin_token());
    v1::RegisterDatasetResponse response;
    auto writer = admin_->RegisterDataset(&context, &response);
    v1::RegisterDatasetRequest chunk;
    chunk.set_csv_chunk(kCsv);
    writer->Write(chunk);
    writer->WritesDone();
    EXPECT_THAT(
        ToAbsl(writer->Finish()),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("`header`")));
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, server_->admin_token());
    v1::RegisterDatasetResponse response;
    auto writer = admin_->RegisterDataset(&context, &response);
    writer->WritesDone();
    EXPECT_THAT(
        ToAbsl(writer->Finish()),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("`header`")));
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, server_->admin_token());
    v1::RegisterDatasetResponse response;
    auto writer = admin_->RegisterDataset(&context, &response);
    v1::RegisterDatasetRequest header;
    header.mutable_header()->mutable_manifest()->set_dataset_id("d");
    writer->Write(header);
    writer->Write(header);
    writer->WritesDone();
    EXPECT_THAT(ToAbsl(writer->Finish()),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("exactly once")));
  }
}

TEST_F(AdminServiceTest, RegisterRejectsBadManifestNamingTheField) {
  EXPECT_THAT(Register("bad id!"), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr("dataset_id")));
  EXPECT_THAT(
      server_->RegisterDataset("people", "", kConstraints, 100),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("CSV is empty")));
}

TEST(AdminImportDirTest, StartRefusesAMissingImportDirOrTheDataDirectory) {
  EXPECT_THAT(TestServer::Start(dpq::testing::Transport::kInsecure,
                                [](Options& options) {
                                  options.import_dir = "/no/such/import/dir";
                                })
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("import_dir '/no/such/import/dir'")));
  EXPECT_THAT(TestServer::Start(dpq::testing::Transport::kInsecure,
                                [](Options& options) {
                                  options.import_dir = options.data_dir;
                                })
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("is the data directory or inside it")));
}

// Without --import-dir a server_path is refused, saying how to enable it.
TEST(AdminImportDirTest, ServerPathIsRefusedWhileImportsAreOff) {
  ASSERT_OK_AND_ASSIGN(auto server, TestServer::Start());
  const std::string path = server->data_dir() + "/../people.csv";
  std::ofstream(path) << kCsv;
  grpc::ClientContext context;
  TestServer::Authorize(context, server->admin_token());
  v1::RegisterDatasetResponse response;
  auto admin = server->AdminStub();
  auto writer = admin->RegisterDataset(&context, &response);
  v1::RegisterDatasetRequest header = PeopleHeader("people");
  header.mutable_header()->set_server_path(path);
  ASSERT_TRUE(writer->Write(header));
  writer->WritesDone();
  EXPECT_THAT(ToAbsl(writer->Finish()),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("--import-dir")));
}

TEST(AdminUploadLimitTest, UploadAboveMaxUploadBytesIsResourceExhausted) {
  ASSERT_OK_AND_ASSIGN(auto server,
                       TestServer::Start(dpq::testing::Transport::kInsecure,
                                         [](Options& options) {
                                           options.max_upload_bytes = 64;
                                         }));
  std::string csv = "name,zip,city\n";
  for (int i = 0; i < 20; ++i) csv += absl::StrCat("n", i, ",", i, ",c\n");
  ASSERT_GT(csv.size(), 64u);
  EXPECT_THAT(server->RegisterDataset("big", csv, "zip -> city", 100,
                                      /*chunk_bytes=*/16),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("max_upload_bytes = 64")));
  // A small one still fits.
  EXPECT_OK(
      server->RegisterDataset("small", "a,b\n1,2\n", "a -> b", 10).status());
}

// DatasetUploadHeader.csv_bytes only sizes the server's buffer: a hint far
// above the limit or below the bytes sent registers exactly the bytes sent,
// and the limit still applies to them.
TEST(AdminUploadLimitTest, SizeHintIsOnlyAHint) {
  ASSERT_OK_AND_ASSIGN(auto server,
                       TestServer::Start(dpq::testing::Transport::kInsecure,
                                         [](Options& options) {
                                           options.max_upload_bytes = 1 << 16;
                                         }));
  auto upload = [&](const std::string& id, const std::string& csv,
                    uint64_t hint) {
    grpc::ClientContext context;
    TestServer::Authorize(context, server->admin_token());
    v1::RegisterDatasetResponse response;
    auto admin = server->AdminStub();
    auto writer = admin->RegisterDataset(&context, &response);
    v1::RegisterDatasetRequest header = PeopleHeader(id);
    header.mutable_header()->set_csv_bytes(hint);
    EXPECT_TRUE(writer->Write(header));
    for (size_t at = 0; at < csv.size(); at += 7) {
      v1::RegisterDatasetRequest chunk;
      chunk.set_csv_chunk(csv.substr(at, 7));
      if (!writer->Write(chunk)) break;
    }
    writer->WritesDone();
    const absl::Status status = ToAbsl(writer->Finish());
    return status.ok() ? absl::StatusOr<uint64_t>(response.stats().rows())
                       : absl::StatusOr<uint64_t>(status);
  };
  EXPECT_THAT(upload("huge_hint", kCsv, uint64_t{1} << 40),
              dpq::testing::IsOkAndHolds(3u));
  EXPECT_THAT(upload("small_hint", kCsv, 3), dpq::testing::IsOkAndHolds(3u));
  std::string big = "name,zip,city\n";
  while (big.size() <= (1u << 16)) big += "someone,12345,somewhere\n";
  EXPECT_THAT(upload("big", big, 10),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("max_upload_bytes")));
}

TEST(AdminUploadLimitTest, MessageAboveMaxMessageBytesIsRejected) {
  ASSERT_OK_AND_ASSIGN(auto server,
                       TestServer::Start(dpq::testing::Transport::kInsecure,
                                         [](Options& options) {
                                           options.max_message_bytes = 64 << 10;
                                         }));
  std::string csv = "name,value\n";
  while (csv.size() < (100 << 10)) csv += "someone,12345678\n";
  EXPECT_THAT(server->RegisterDataset("big", csv, "name -> value", 1 << 20,
                                      /*chunk_bytes=*/csv.size()),
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
  // The same bytes in small chunks fit.
  EXPECT_OK(server
                ->RegisterDataset("big", csv, "name -> value", 1 << 20,
                                  /*chunk_bytes=*/16 << 10)
                .status());
}

TEST_F(AdminServiceTest, GrantAndSetBudget) {
  ASSERT_OK(Register("people"));
  ASSERT_OK(server_->CreateBuyer("alice").status());
  ASSERT_OK_AND_ASSIGN(v1::Budget budget,
                       server_->GrantBudget("alice", "people", 1.0));
  EXPECT_EQ(budget.buyer_id(), "alice");
  EXPECT_DOUBLE_EQ(budget.granted(), 1.0);
  EXPECT_DOUBLE_EQ(budget.remaining(), 1.0);
  ASSERT_OK_AND_ASSIGN(budget, server_->GrantBudget("alice", "people", 0.5));
  EXPECT_DOUBLE_EQ(budget.granted(), 1.5);

  v1::SetBudgetRequest set;
  set.set_buyer_id("alice");
  set.set_dataset_id("people");
  set.set_granted(0.25);
  v1::SetBudgetResponse set_response;
  ASSERT_OK(Call(&v1::AdminService::Stub::SetBudget, set, &set_response));
  EXPECT_DOUBLE_EQ(set_response.budget().granted(), 0.25);
  EXPECT_DOUBLE_EQ(set_response.budget().remaining(), 0.25);

  set.set_granted(-1);
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetBudget, set, &set_response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("granted must be finite and >= 0")));
}

TEST_F(AdminServiceTest, SetBudgetBelowSpentIsFailedPrecondition) {
  ASSERT_OK(Register("people"));
  ASSERT_OK(server_->CreateBuyer("alice").status());
  ASSERT_OK(server_->GrantBudget("alice", "people", 1.0).status());
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = "alice";
  reserve.dataset_id = "people";
  reserve.request_id = "r1";
  reserve.fingerprint = "f";
  reserve.operation = "test";
  reserve.epsilon = 0.6;
  ASSERT_OK_AND_ASSIGN(auto reservation,
                       server_->server().ledger().Reserve(reserve));
  ASSERT_OK(server_->server().ledger().Commit(*reservation.entry_id, "answer"));

  v1::SetBudgetRequest set;
  set.set_buyer_id("alice");
  set.set_dataset_id("people");
  set.set_granted(0.5);
  v1::SetBudgetResponse response;
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetBudget, set, &response),
              StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::_));
}

TEST_F(AdminServiceTest, BudgetErrorsNameTheField) {
  ASSERT_OK(Register("people"));
  ASSERT_OK(server_->CreateBuyer("alice").status());
  EXPECT_THAT(server_->GrantBudget("zoe", "people", 1),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("zoe")));
  EXPECT_THAT(server_->GrantBudget("alice", "nope", 1),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("nope")));
  EXPECT_THAT(server_->GrantBudget("alice", "people", -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("epsilon must be finite and > 0, but is -1")));
  EXPECT_THAT(
      server_->GrantBudget("alice", "people", 0),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  EXPECT_THAT(
      server_->GrantBudget("", "people", 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("buyer_id")));
  EXPECT_THAT(
      server_->GrantBudget("alice", "", 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dataset_id")));
  v1::SetBudgetRequest set;
  set.set_buyer_id("alice");
  set.set_dataset_id("gone");
  set.set_granted(1);
  v1::SetBudgetResponse response;
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetBudget, set, &response),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("gone")));
}

// ListDatasets answers in pages (dataset_pager.h): page_size per page, a
// token to the next, a bad token refused.
TEST_F(AdminServiceTest, ListDatasetsPages) {
  for (const char* id : {"a1", "a2", "a3"}) ASSERT_OK(Register(id));
  v1::AdminListDatasetsRequest request;
  request.set_page_size(2);
  v1::AdminListDatasetsResponse first;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, request, &first));
  ASSERT_EQ(first.datasets_size(), 2);
  EXPECT_EQ(first.datasets(1).dataset().dataset_id(), "a2");
  ASSERT_FALSE(first.next_page_token().empty());
  request.set_page_token(first.next_page_token());
  v1::AdminListDatasetsResponse second;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, request, &second));
  ASSERT_EQ(second.datasets_size(), 1);
  EXPECT_EQ(second.datasets(0).dataset().dataset_id(), "a3");
  EXPECT_TRUE(second.next_page_token().empty());
  request.set_page_token("forged");
  EXPECT_THAT(
      Call(&v1::AdminService::Stub::ListDatasets, request, &second),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("page_token")));
}

// Amounts below the ledger's unit (10^-12) were accepted and stored as 0:
// a grant of nothing, or a cap of 0, which means no cap at all. They are
// refused, naming the field, and nothing changes.
TEST_F(AdminServiceTest, AmountsBelowOneLedgerUnitAreRefused) {
  ASSERT_OK(Register("people"));
  ASSERT_OK(server_->CreateBuyer("alice").status());
  ASSERT_OK(server_->GrantBudget("alice", "people", 1.0).status());
  EXPECT_THAT(server_->GrantBudget("alice", "people", 1e-13),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("epsilon is 1e-13"),
                             HasSubstr("would be stored as 0"))));
  v1::SetBudgetRequest set;
  set.set_buyer_id("alice");
  set.set_dataset_id("people");
  set.set_granted(1e-13);
  v1::SetBudgetResponse set_response;
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetBudget, set, &set_response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("granted is 1e-13")));
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("people");
  cap.set_cap(1e-13);
  v1::SetDatasetCapResponse cap_response;
  EXPECT_THAT(
      Call(&v1::AdminService::Stub::SetDatasetCap, cap, &cap_response),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cap is 1e-13")));
  ASSERT_OK_AND_ASSIGN(v1::Budget budget,
                       server_->GrantBudget("alice", "people", 1e-12));
  EXPECT_EQ(budget.granted(), 1.0 + 1e-12);
}

TEST_F(AdminServiceTest, SetDatasetCapShowsInListDatasets) {
  ASSERT_OK(Register("people"));
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("people");
  cap.set_cap(5);
  v1::SetDatasetCapResponse response;
  ASSERT_OK(Call(&v1::AdminService::Stub::SetDatasetCap, cap, &response));
  v1::AdminListDatasetsResponse list;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, {}, &list));
  ASSERT_EQ(list.datasets_size(), 1);
  EXPECT_DOUBLE_EQ(list.datasets(0).cap(), 5);

  cap.set_cap(-2);
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetDatasetCap, cap, &response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cap must be finite and >= 0")));
  cap.set_cap(1);
  cap.set_dataset_id("nope");
  EXPECT_THAT(Call(&v1::AdminService::Stub::SetDatasetCap, cap, &response),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("nope")));
}

TEST_F(AdminServiceTest, ListLedgerFiltersEntriesAndBudgets) {
  ASSERT_OK(Register("people"));
  ASSERT_OK(Register("places"));
  ASSERT_OK(server_->CreateBuyer("alice").status());
  ASSERT_OK(server_->CreateBuyer("bob").status());
  ASSERT_OK(server_->GrantBudget("alice", "people", 2).status());
  ASSERT_OK(server_->GrantBudget("bob", "places", 3).status());
  core::ledger::LedgerStore& ledger = server_->server().ledger();
  for (const auto& [buyer, dataset, id] :
       {std::tuple<std::string, std::string, std::string>{"alice", "people",
                                                          "a1"},
        {"alice", "people", "a2"},
        {"bob", "places", "b1"}}) {
    core::ledger::ReserveRequest reserve;
    reserve.buyer_id = buyer;
    reserve.dataset_id = dataset;
    reserve.request_id = id;
    reserve.fingerprint = id;
    reserve.operation = "MeasureInconsistency MI optimized";
    reserve.neighbouring = "one row added or removed (unbounded DP)";
    reserve.epsilon = 0.5;
    ASSERT_OK_AND_ASSIGN(auto reservation, ledger.Reserve(reserve));
    ASSERT_OK(ledger.Commit(*reservation.entry_id, "answer"));
  }

  v1::ListLedgerRequest request;
  request.set_buyer_id("alice");
  v1::ListLedgerResponse response;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListLedger, request, &response));
  ASSERT_EQ(response.entries_size(), 2);
  EXPECT_EQ(response.entries(0).request_id(), "a2");  // newest first
  EXPECT_EQ(response.entries(1).request_id(), "a1");
  EXPECT_EQ(response.entries(0).state(), v1::LEDGER_ENTRY_STATE_COMMITTED);
  EXPECT_DOUBLE_EQ(response.entries(0).epsilon(), 0.5);
  ASSERT_EQ(response.budgets_size(), 1);
  EXPECT_DOUBLE_EQ(response.budgets(0).spent(), 1.0);
  EXPECT_DOUBLE_EQ(response.budgets(0).remaining(), 1.0);

  request.Clear();
  request.set_limit(1);
  response.Clear();
  ASSERT_OK(Call(&v1::AdminService::Stub::ListLedger, request, &response));
  ASSERT_EQ(response.entries_size(), 1);
  EXPECT_EQ(response.entries(0).request_id(), "b1");
  EXPECT_EQ(response.budgets_size(), 2);

  request.Clear();
  request.set_dataset_id("places");
  response.Clear();
  ASSERT_OK(Call(&v1::AdminService::Stub::ListLedger, request, &response));
  ASSERT_EQ(response.entries_size(), 1);
  EXPECT_EQ(response.entries(0).buyer_id(), "bob");

  v1::AdminListDatasetsResponse list;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, {}, &list));
  ASSERT_EQ(list.datasets_size(), 2);
  EXPECT_DOUBLE_EQ(list.datasets(0).spent_all_buyers(), 1.0);
  EXPECT_DOUBLE_EQ(list.datasets(1).spent_all_buyers(), 0.5);

  request.Clear();
  request.set_limit(10001);
  EXPECT_THAT(Call(&v1::AdminService::Stub::ListLedger, request, &response),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("limit must be at most 10000")));
}

TEST_F(AdminServiceTest, MutationsAreAudited) {
  ASSERT_OK(Register("people"));
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  ASSERT_OK(server_->GrantBudget("alice", "people", 1.5).status());
  // A failed call is not audited.
  ASSERT_FALSE(server_->GrantBudget("alice", "people", -1).ok());
  v1::SetDatasetCapRequest cap;
  cap.set_dataset_id("people");
  cap.set_cap(4);
  v1::SetDatasetCapResponse cap_response;
  ASSERT_OK(Call(&v1::AdminService::Stub::SetDatasetCap, cap, &cap_response));
  v1::RevokeBuyerRequest revoke;
  revoke.set_buyer_id("alice");
  v1::RevokeBuyerResponse revoke_response;
  ASSERT_OK(
      Call(&v1::AdminService::Stub::RevokeBuyer, revoke, &revoke_response));
  v1::DeleteDatasetRequest del;
  del.set_dataset_id("people");
  v1::DeleteDatasetResponse del_response;
  ASSERT_OK(Call(&v1::AdminService::Stub::DeleteDataset, del, &del_response));

  v1::ListAuditLogResponse audit;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListAuditLog, {}, &audit));
  auto action = [](const std::string& name) {
    return Property(&v1::AuditEntry::action, name);
  };
  ASSERT_THAT(audit.entries(),
              ElementsAre(action("DeleteDataset"), action("RevokeBuyer"),
                          action("SetDatasetCap"), action("GrantBudget"),
                          action("CreateBuyer"), action("RegisterDataset")));
  for (const v1::AuditEntry& entry : audit.entries()) {
    EXPECT_EQ(entry.actor(), "admin");
    EXPECT_GT(entry.time().seconds(), 1'600'000'000);
    EXPECT_THAT(entry.details(), Not(HasSubstr(token.substr(4))));
  }
  EXPECT_EQ(audit.entries(3).details(),
            "buyer=alice dataset=people epsilon=1.5");
  EXPECT_EQ(audit.entries(4).details(), "buyer=alice");
  EXPECT_THAT(audit.entries(5).details(),
              AllOf(HasSubstr("dataset=people"), HasSubstr("rows=3")));

  v1::ListAuditLogRequest limited;
  limited.set_limit(2);
  audit.Clear();
  ASSERT_OK(Call(&v1::AdminService::Stub::ListAuditLog, limited, &audit));
  EXPECT_EQ(audit.entries_size(), 2);
  limited.set_limit(20000);
  EXPECT_THAT(Call(&v1::AdminService::Stub::ListAuditLog, limited, &audit),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("limit")));
}

TEST_F(AdminServiceTest, StateSurvivesARestart) {
  ASSERT_OK(Register("people"));
  ASSERT_OK_AND_ASSIGN(const std::string token, server_->CreateBuyer("alice"));
  ASSERT_OK(server_->GrantBudget("alice", "people", 2).status());
  const std::string admin_token = server_->admin_token();
  ASSERT_OK(server_->Restart());
  EXPECT_FALSE(server_->server().created_admin_token());
  EXPECT_EQ(server_->admin_token(), admin_token);
  admin_ = server_->AdminStub();

  v1::ListLedgerResponse ledger;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListLedger, {}, &ledger));
  ASSERT_EQ(ledger.budgets_size(), 1);
  EXPECT_DOUBLE_EQ(ledger.budgets(0).granted(), 2);
  v1::AdminListDatasetsResponse list;
  ASSERT_OK(Call(&v1::AdminService::Stub::ListDatasets, {}, &list));
  EXPECT_EQ(list.datasets_size(), 1);
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  v1::GetBudgetResponse budget;
  EXPECT_OK(ToAbsl(server_->BuyerStub()->GetBudget(&context, {}, &budget)));
}

}  // namespace
}  // namespace dpq::server
