// ReleaseCuboids, TrainDecisionTree and SelectInfluentialNodes against the
// real dpq-server over TLS (docs/service.md "Buyer releases"), a graph
// dataset registered from an edge list, and conflict graphs rebuilt in the
// background after a start (docs/service.md "Conflict graphs are built at
// registration").
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {
namespace {

using ::grpc::StatusCode;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;

class ReleaseRpcsTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    v1::RegisterDatasetResponse people, net;
    ASSERT_THAT(
        client_->Register(admin_token_, PeopleManifest(), PeopleCsv(), &people),
        GrpcOk());
    ASSERT_THAT(client_->Register(admin_token_, NetManifest(), kEdges, &net),
                GrpcOk());
    EXPECT_EQ(net.dataset().kind(), v1::DATASET_KIND_GRAPH);
    EXPECT_EQ(net.stats().nodes(), 6u);
    EXPECT_EQ(net.stats().edges(), 5u);
    absl::StatusOr<std::string> token =
        client_->CreateBuyer(admin_token_, "dana");
    ASSERT_TRUE(token.ok()) << token.status();
    token_ = *token;
    ASSERT_THAT(client_->Grant(admin_token_, "dana", "people", 5), GrpcOk());
    ASSERT_THAT(client_->Grant(admin_token_, "dana", "net", 5), GrpcOk());
  }

  grpc::Status Cuboids(const v1::ReleaseCuboidsRequest& request,
                       v1::ReleaseCuboidsResponse* response) {
    auto context = Context(token_);
    return client_->buyer(token_).ReleaseCuboids(context.get(), request,
                                                 response);
  }
  grpc::Status Tree(const v1::TrainDecisionTreeRequest& request,
                    v1::TrainDecisionTreeResponse* response) {
    auto context = Context(token_);
    return client_->buyer(token_).TrainDecisionTree(context.get(), request,
                                                    response);
  }
  grpc::Status Nodes(const v1::SelectInfluentialNodesRequest& request,
                     v1::SelectInfluentialNodesResponse* response) {
    auto context = Context(token_);
    return client_->buyer(token_).SelectInfluentialNodes(context.get(), request,
                                                         response);
  }
  v1::DatasetInfo Describe(const std::string& id) {
    v1::DescribeDatasetRequest request;
    request.set_dataset_id(id);
    v1::DescribeDatasetResponse response;
    auto context = Context(token_);
    EXPECT_THAT(client_->buyer(token_).DescribeDataset(context.get(), request,
                                                       &response),
                GrpcOk());
    return response.dataset();
  }

  std::string token_;
};

TEST_F(ReleaseRpcsTest, DescribeShowsTheCubeAndThePublicExactCuboids) {
  const v1::DatasetInfo info = Describe("people");
  EXPECT_EQ(info.kind(), v1::DATASET_KIND_TABLE);
  EXPECT_THAT(info.supported_releases(),
              ElementsAre("MeasureInconsistency", "QualityReport",
                          "ReleaseCuboids", "TrainDecisionTree"));
  std::set<std::string> dims;
  for (const auto& d : info.cube_dimensions()) dims.insert(d.column());
  EXPECT_EQ(dims, (std::set<std::string>{"Sex", "Age", "Label"}));
  ASSERT_THAT(info.public_cuboids(), SizeIs(1));
  EXPECT_THAT(info.public_cuboids(0).dimensions(), ElementsAre("Sex"));
  for (const v1::CuboidCell& cell : info.public_cuboids(0).cells()) {
    EXPECT_EQ(cell.count(), cell.values(0) == "other" ? 0 : 20)
        << cell.DebugString();
  }
  // The exact cuboid makes the row count public and the ledger count
  // induced neighbours, two rows apart.
  EXPECT_TRUE(info.row_count_public());
  EXPECT_EQ(info.row_count(), 40u);
  EXPECT_EQ(info.charge_multiplier(), 2u);
}

TEST_F(ReleaseRpcsTest, ReleaseCuboidsChargesAndReplays) {
  v1::ReleaseCuboidsRequest request;
  request.set_dataset_id("people");
  v1::CuboidSpec* spec = request.add_cuboids();
  spec->add_dimensions("Sex");
  spec->add_dimensions("Label");
  request.set_epsilon(1);
  request.set_request_id("cube-1");
  v1::ReleaseCuboidsResponse first;
  ASSERT_THAT(Cuboids(request, &first), GrpcOk());
  ASSERT_THAT(first.cuboids(), SizeIs(1));
  EXPECT_THAT(first.cuboids(0).cells(), SizeIs(9));  // with "other" cells
  EXPECT_DOUBLE_EQ(first.epsilon_charged(), 1);
  EXPECT_DOUBLE_EQ(first.remaining_budget(), 4);
  EXPECT_FALSE(first.strategy().empty());
  v1::ReleaseCuboidsResponse again;
  ASSERT_THAT(Cuboids(request, &again), GrpcOk());
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  EXPECT_EQ(again.cuboids(0).SerializeAsString(),
            first.cuboids(0).SerializeAsString());

  request.mutable_cuboids(0)->add_dimensions("Height");
  request.set_request_id("cube-2");
  EXPECT_THAT(Cuboids(request, &again),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     HasSubstr("'Height' is not a cube dimension")));
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "dana", "people");
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_THAT(*entries, SizeIs(1));
  EXPECT_EQ((*entries)[0].operation(), "ReleaseCuboids [Sex,Label]");
}

TEST_F(ReleaseRpcsTest, TrainDecisionTreeChargesBothEpsilons) {
  v1::TrainDecisionTreeRequest request;
  request.set_dataset_id("people");
  request.set_label_column("Label");
  request.set_positive_class("yes");
  request.set_epsilon(1);
  request.set_accuracy_epsilon(0.5);
  request.set_generations(2);
  request.set_population(4);
  request.set_request_id("tree-1");
  v1::TrainDecisionTreeResponse response;
  ASSERT_THAT(Tree(request, &response), GrpcOk());
  EXPECT_FALSE(response.nodes().empty());
  EXPECT_FALSE(response.tree_text().empty());
  EXPECT_TRUE(response.has_tpr());
  // k_Q = 2 on "people" (its public cuboid [Sex]): 2 x (1 + 0.5).
  EXPECT_DOUBLE_EQ(response.epsilon_charged(), 3);
  EXPECT_DOUBLE_EQ(response.remaining_budget(), 2);

  request.set_request_id("tree-2");
  request.set_label_column("Income");
  EXPECT_THAT(Tree(request, &response),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("Income")));
  request.set_dataset_id("net");
  request.set_label_column("Label");
  EXPECT_THAT(Tree(request, &response),
              GrpcIs(StatusCode::FAILED_PRECONDITION,
                     HasSubstr("'net' is a graph; it answers "
                               "SelectInfluentialNodes")));
}

// Trees take their domains from the declared cube dimensions only: a
// dataset without them is refused before anything is charged, and the
// positive class must be one of the label's declared values.
TEST_F(ReleaseRpcsTest, TrainDecisionTreeNeedsDeclaredDimensions) {
  v1::DatasetManifest plain = PeopleManifest();
  plain.set_dataset_id("plain");
  plain.clear_cube_dimensions();
  plain.clear_public_cuboids();
  v1::RegisterDatasetResponse registered;
  ASSERT_THAT(client_->Register(admin_token_, plain, PeopleCsv(), &registered),
              GrpcOk());
  ASSERT_THAT(client_->Grant(admin_token_, "dana", "plain", 5), GrpcOk());
  v1::TrainDecisionTreeRequest request;
  request.set_dataset_id("plain");
  request.set_label_column("Label");
  request.set_positive_class("yes");
  request.set_epsilon(1);
  request.set_request_id("plain-1");
  v1::TrainDecisionTreeResponse response;
  EXPECT_THAT(Tree(request, &response),
              GrpcIs(StatusCode::FAILED_PRECONDITION,
                     HasSubstr("column 'Label' has no public domain: the "
                               "dataset owner must declare it as a cube "
                               "dimension")));
  request.set_dataset_id("people");
  request.set_positive_class("maybe");
  EXPECT_THAT(Tree(request, &response),
              GrpcIs(StatusCode::INVALID_ARGUMENT,
                     HasSubstr("positive_class 'maybe' is not a declared "
                               "value of the label column 'Label'")));
  for (const char* dataset : {"plain", "people"}) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        client_->Ledger(admin_token_, "dana", dataset);
    ASSERT_TRUE(entries.ok()) << entries.status();
    EXPECT_THAT(*entries, SizeIs(0)) << dataset;
  }
}

TEST_F(ReleaseRpcsTest, GraphFromAnEdgeListAnswersInfluentialNodesOnly) {
  const v1::DatasetInfo info = Describe("net");
  EXPECT_EQ(info.kind(), v1::DATASET_KIND_GRAPH);
  EXPECT_EQ(info.neighbouring(), "one edge added or removed (edge-DP)");
  EXPECT_THAT(info.supported_releases(), ElementsAre("SelectInfluentialNodes"));

  v1::SelectInfluentialNodesRequest request;
  request.set_dataset_id("net");
  request.set_k(2);
  request.set_epsilon(1);
  request.set_request_id("nodes-1");
  v1::SelectInfluentialNodesResponse response;
  ASSERT_THAT(Nodes(request, &response), GrpcOk());
  ASSERT_THAT(response.nodes(), SizeIs(2));
  EXPECT_NE(response.nodes(0), response.nodes(1));
  EXPECT_DOUBLE_EQ(response.epsilon_charged(), 1);
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client_->Ledger(admin_token_, "dana", "net");
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_THAT(*entries, SizeIs(1));
  EXPECT_EQ((*entries)[0].operation(),
            "SelectInfluentialNodes k=2 pareto global "
            "degree,egocentric_density");
  EXPECT_EQ((*entries)[0].neighbouring(),
            "one edge added or removed (edge-DP)");

  request.set_k(7);
  request.set_request_id("nodes-2");
  EXPECT_THAT(Nodes(request, &response),
              GrpcIs(StatusCode::INVALID_ARGUMENT, HasSubstr("node count")));
  request.set_k(1);
  request.set_dataset_id("people");
  EXPECT_THAT(Nodes(request, &response),
              GrpcIs(StatusCode::FAILED_PRECONDITION,
                     HasSubstr("'people' is a table")));
  v1::MeasureInconsistencyResponse measure;
  EXPECT_THAT(
      client_->Measure(token_, "net", v1::MEASURE_MI, 1, "m-net", &measure),
      GrpcIs(StatusCode::FAILED_PRECONDITION, HasSubstr("'net' is a graph")));
}

// Register returns before the conflict graph exists (no wait_for_graph);
// the first release waits for the background build and succeeds, also
// right after a restart.
TEST_F(ReleaseRpcsTest, FirstReleaseWaitsForTheBackgroundGraphBuild) {
  // Imports by server_path need an import directory (docs/security.md, item 3).
  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer(
      {"--import-dir",
       std::filesystem::path(HospitalCsvPath()).parent_path().string()}));
  v1::RegisterDatasetRequest header;
  *header.mutable_header()->mutable_manifest() = HospitalManifest("hosp");
  header.mutable_header()->set_server_path(HospitalCsvPath());
  v1::RegisterDatasetResponse registered;
  {
    auto context = Context(admin_token_);
    auto writer = client_->admin(admin_token_)
                      .RegisterDataset(context.get(), &registered);
    ASSERT_TRUE(writer->Write(header));
    writer->WritesDone();
    ASSERT_THAT(writer->Finish(), GrpcOk());
  }
  EXPECT_EQ(registered.stats().rows(), kHospitalRows);
  if (!registered.stats().graph_ready()) {
    EXPECT_EQ(registered.stats().edges(), 0u);
  }
  ASSERT_THAT(client_->Grant(admin_token_, "dana", "hosp", 3), GrpcOk());
  v1::MeasureInconsistencyResponse mi;
  ASSERT_THAT(client_->Measure(token_, "hosp", v1::MEASURE_MI, 1, "bg-1", &mi),
              GrpcOk());
  EXPECT_DOUBLE_EQ(mi.epsilon_charged(), 1);

  ASSERT_EQ(StopServer(), 0) << server_->Log();
  ASSERT_NO_FATAL_FAILURE(StartServer());
  ASSERT_THAT(client_->Measure(token_, "hosp", v1::MEASURE_P, 1, "bg-2", &mi),
              GrpcOk());
  EXPECT_DOUBLE_EQ(mi.epsilon_charged(), 1);
  EXPECT_DOUBLE_EQ(mi.remaining_budget(), 1);
  // The graph dataset came back too.
  v1::SelectInfluentialNodesRequest request;
  request.set_dataset_id("net");
  request.set_k(1);
  request.set_epsilon(0.5);
  request.set_request_id("bg-3");
  v1::SelectInfluentialNodesResponse nodes;
  EXPECT_THAT(Nodes(request, &nodes), GrpcOk());
}

}  // namespace
}  // namespace dpq::integration
