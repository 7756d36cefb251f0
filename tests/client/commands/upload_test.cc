// `dpq admin register` and `dpq admin replace` (client/commands/upload and
// admin_register/admin_replace): flags, the manifest and the stream sent,
// local file checks and the output.
#include "client/commands/upload.h"

#include <map>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/commands/admin_register.h"
#include "client/commands/admin_replace.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"
#include "tests/client/proto_text_testing.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Invoke;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// The upload flags `p` parsed into (register or replace); nullptr if `p`
// is another command.
const UploadFlags* UploadOf(const ParsedLine& p) {
  if (const auto* r = p.command<AdminRegisterCommand>()) return &r->upload();
  if (const auto* r = p.command<AdminReplaceCommand>()) return &r->upload();
  return nullptr;
}

TEST(ParseAdminTest, RegisterWithEveryFlag) {
  ParsedLine p({"admin", "register", "hospital", "--data", "h.csv",
                "--constraints=h.dc", "--public-max-rows", "1000",
                "--description", "Hospital records", "--row-count-public",
                "--schema", "h.schema", "--null-value", "NA",
                "--null-value=?"});
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_NE(p.command<AdminRegisterCommand>(), nullptr);
  const UploadFlags& up = *UploadOf(p);
  const v1::DatasetManifest& m = up.header().manifest();
  EXPECT_EQ(m.dataset_id(), "hospital");
  EXPECT_EQ(up.data_path(), "h.csv");
  EXPECT_EQ(up.header().server_path(), "");
  EXPECT_EQ(up.constraints_path(), "h.dc");
  EXPECT_EQ(m.public_max_rows(), 1000u);
  EXPECT_EQ(m.description(), "Hospital records");
  EXPECT_TRUE(m.row_count_public());
  EXPECT_EQ(up.schema_path(), "h.schema");
  EXPECT_THAT(m.null_values(), ElementsAre("NA", "?"));
}

TEST(ParseAdminTest, ExactRepairIsATableFlag) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    ParsedLine exact({"admin", sub, "tax", "--data", "t.csv", "--constraints",
                      "t.dc", "--public-max-rows", "5", "--exact-repair"});
    ASSERT_TRUE(exact.ok()) << exact.status();
    EXPECT_TRUE(UploadOf(exact)->header().manifest().exact_repair());
    ParsedLine bound({"admin", sub, "tax", "--data", "t.csv", "--constraints",
                      "t.dc", "--public-max-rows", "5"});
    ASSERT_TRUE(bound.ok()) << bound.status();
    EXPECT_FALSE(UploadOf(bound)->header().manifest().exact_repair());
    ExpectUsageError({"admin", sub, "g", "--kind", "graph", "--data", "e.csv",
                      "--node-count", "4", "--exact-repair"},
                     "--exact-repair applies to tables only, not to --kind "
                     "graph");
    ExpectUsageError({"admin", sub, "tax", "--data", "t.csv", "--constraints",
                      "t.dc", "--public-max-rows", "5", "--exact-repair=yes"},
                     "--exact-repair takes no value");
  }
}

TEST(ParseAdminTest, RegisterFromServerPath) {
  ParsedLine p({"admin", "register", "tax", "--server-path", "/srv/tax.csv",
                "--constraints", "t.dc", "--public-max-rows", "5"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(UploadOf(p)->header().server_path(), "/srv/tax.csv");
  EXPECT_EQ(UploadOf(p)->data_path(), "");
  EXPECT_FALSE(UploadOf(p)->header().manifest().row_count_public());
}

TEST(ParseAdminTest, RegisterAndReplaceErrors) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    ExpectUsageError(
        {"admin", sub, "h", "--constraints", "c", "--public-max-rows", "5"},
        "dpq admin " + sub + ": --data is required (or --server-path)");
    ExpectUsageError(
        {"admin", sub, "h", "--data", "d", "--public-max-rows", "5"},
        "dpq admin " + sub + ": --constraints is required");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c"},
                     "--public-max-rows is required");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "many"},
                     "--public-max-rows expects a non-negative integer, got "
                     "'many'");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "-4"},
                     "--public-max-rows expects a non-negative integer");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--server-path", "p",
                      "--constraints", "c", "--public-max-rows", "4"},
                     "either --data (upload) or --server-path");
    ExpectUsageError({"admin", sub, "--data", "d", "--constraints", "c",
                      "--public-max-rows", "4"},
                     "expects ID");
    ExpectUsageError({"admin", sub, "h", "--data", "d", "--constraints", "c",
                      "--public-max-rows", "4", "--row-count-public=1"},
                     "--row-count-public takes no value");
    ExpectUsageError({"admin", sub, "h", "--data=", "--constraints", "c",
                      "--public-max-rows", "4"},
                     "--data must not be empty");
  }
  EXPECT_NE(ParsedLine({"admin", "replace", "h", "--data", "d", "--constraints",
                        "c", "--public-max-rows", "4"})
                .command<AdminReplaceCommand>(),
            nullptr);
}

TEST(ParseRegisterCubeTest, PublicCuboidsAndCubeDimensionsAreRepeatable) {
  ParsedLine p({"admin", "register", "adult", "--data", "a.csv",
                "--constraints", "a.dc", "--public-max-rows", "50000",
                "--cube-dimension", "Sex", "--cube-dimension=Age:0,30,60,100",
                "--public-cuboid", "Sex", "--public-cuboid=Sex,Age", "--kind",
                "TABLE"});
  ASSERT_TRUE(p.ok()) << p.status();
  const v1::DatasetManifest& m = UploadOf(p)->header().manifest();
  EXPECT_EQ(m.kind(), v1::DATASET_KIND_TABLE);
  ASSERT_EQ(m.cube_dimensions_size(), 2);
  EXPECT_EQ(m.cube_dimensions(0).column(), "Sex");
  EXPECT_EQ(m.cube_dimensions(1).column(), "Age");
  EXPECT_THAT(m.cube_dimensions(1).bin_edges(), ElementsAre(0, 30, 60, 100));
  ASSERT_EQ(m.public_cuboids_size(), 2);
  EXPECT_THAT(m.public_cuboids(0).dimensions(), ElementsAre("Sex"));
  EXPECT_THAT(m.public_cuboids(1).dimensions(), ElementsAre("Sex", "Age"));
}

TEST(ParseRegisterCubeTest, GraphNeedsItsNodesButNoConstraintsNorMaxRows) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    ParsedLine p({"admin", sub, "karate", "--kind", "graph", "--data", "e.csv",
                  "--node-count", "34"});
    ASSERT_TRUE(p.ok()) << p.status();
    const UploadFlags& up = *UploadOf(p);
    EXPECT_EQ(up.header().manifest().kind(), v1::DATASET_KIND_GRAPH);
    EXPECT_EQ(up.data_path(), "e.csv");
    EXPECT_EQ(up.constraints_path(), "");
    EXPECT_EQ(up.header().manifest().public_max_rows(), 0u);
    EXPECT_EQ(up.header().manifest().node_count(), 34u);
  }
  ParsedLine labels({"admin", "register", "g", "--kind", "graph", "--data",
                     "e.csv", "--nodes", "nodes.txt"});
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(UploadOf(labels)->nodes_path(), "nodes.txt");
  ExpectUsageError(
      {"admin", "register", "g", "--kind", "graph", "--data", "e.csv"},
      "--kind graph needs the node universe");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data",
                    "e.csv", "--node-count", "3", "--nodes", "n.txt"},
                   "--kind graph needs the node universe");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data",
                    "e.csv", "--node-count", "0"},
                   "--node-count must be at least 1");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "5", "--node-count", "3"},
                   "--node-count applies to --kind graph only");
  // Tables: --infer-types, and COL=* asks for a domain from the data.
  ParsedLine table({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "5", "--infer-types",
                    "--cube-dimension", "A=*"});
  ASSERT_TRUE(table.ok()) << table.status();
  const v1::DatasetManifest& m = UploadOf(table)->header().manifest();
  EXPECT_TRUE(m.infer_column_types());
  ASSERT_EQ(m.cube_dimensions_size(), 1);
  EXPECT_TRUE(m.cube_dimensions(0).infer_domain());
  EXPECT_THAT(m.cube_dimensions(0).domain(), IsEmpty());
  // A table still needs both.
  ExpectUsageError({"admin", "register", "t", "--kind", "table", "--data", "d"},
                   "--constraints is required");
}

TEST(ParseRegisterCubeTest, Errors) {
  ExpectUsageError({"admin", "register", "g", "--kind", "tree", "--data", "d"},
                   "--kind must be one of table, graph; got 'tree'");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--public-cuboid", "A"},
                   "--public-cuboid applies to tables only");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--cube-dimension", "A"},
                   "--cube-dimension applies to tables only");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--constraints", "c"},
                   "--constraints applies to tables only, not to --kind graph");
  ExpectUsageError({"admin", "replace", "g", "--kind", "graph", "--data", "d",
                    "--public-max-rows", "5"},
                   "--public-max-rows applies to tables only");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "4", "--public-cuboid", "A,,B"},
                   "--public-cuboid: empty name");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "4", "--cube-dimension", "A:x"},
                   "bin edge 'x'");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--kind",
                    "graph", "--data", "d"},
                   "--kind is given more than once");
}

TEST(UploadTextTest, GraphsCountNodesAndEdges) {
  v1::DatasetInfo info;
  info.set_dataset_id("net");
  info.set_version(1);
  info.set_kind(v1::DATASET_KIND_GRAPH);
  v1::DatasetStats stats;
  stats.set_rows(9);
  stats.set_edges(9);
  stats.set_nodes(8);
  stats.set_csv_bytes(50);
  stats.set_graph_ready(true);
  const google::protobuf::RepeatedPtrField<std::string> no_notes;
  EXPECT_EQ(UploadText(info, stats, no_notes, /*replaced=*/false),
            "Registered net (version 1): a graph with 8 declared nodes and 9 "
            "edges, 50 bytes.\n");
  v1::RegisterDatasetResponse resp;
  *resp.mutable_dataset() = info;
  *resp.mutable_stats() = stats;
  EXPECT_THAT(*ProtoJsonLine(resp),
              HasSubstr(R"j("kind":"DATASET_KIND_GRAPH",)j"));
  EXPECT_THAT(
      *ProtoJsonLine(resp),
      HasSubstr(R"j("stats":{"rows":"9","csvBytes":"50","edges":"9",)j"
                R"j("graphBuildSeconds":0,"graphReady":true,"graphError":"",)j"
                R"j("nodes":"8","releaseCost":""},"notes":[]})j"));
}

TEST(UploadTextTest, TablesShowTheOwnersNotesAndAFailedRebuild) {
  v1::DatasetInfo info;
  info.set_dataset_id("h");
  info.set_version(3);
  v1::DatasetStats stats;
  stats.set_rows(10);
  stats.set_csv_bytes(100);
  stats.set_edges(4);
  google::protobuf::RepeatedPtrField<std::string> notes;
  notes.Add(
      "Column types inferred from the data, now frozen and public: "
      "a int64.");
  EXPECT_EQ(UploadText(info, stats, notes, /*replaced=*/true),
            "Replaced h (version 3): 10 rows, 100 bytes, 4 conflicting pairs; "
            "graph built in 0 s.\nNote: Column types inferred from the data, "
            "now frozen and public: a int64.\n");
  v1::ReplaceDatasetResponse resp;
  *resp.mutable_notes() = notes;
  EXPECT_THAT(*ProtoJsonLine(resp),
              HasSubstr(R"("notes":["Column types inferred)"));
  stats.set_graph_error("out of memory");
  EXPECT_EQ(UploadText(info, stats, {}, /*replaced=*/false),
            "Registered h (version 3): 10 rows, 100 bytes; the conflict graph "
            "failed: out of memory\n");
}

TEST(UploadTextTest, RegisteredAndReplacedTables) {
  const auto info = HospitalInfo();
  dpq::v1::DatasetStats stats;
  stats.set_rows(1000);
  stats.set_csv_bytes(52000);
  stats.set_edges(11295);
  stats.set_graph_build_seconds(0.125);
  const google::protobuf::RepeatedPtrField<std::string> no_notes;
  EXPECT_EQ(UploadText(info, stats, no_notes, /*replaced=*/false),
            "Registered hospital (version 2): 1000 rows, 52000 bytes, 11295 "
            "conflicting pairs; graph built in 0.125 s.\n");
  EXPECT_THAT(UploadText(info, stats, no_notes, /*replaced=*/true),
              HasSubstr("Replaced hospital (version 2)"));
}

// Records what an upload stream receives.
struct StreamLog {
  std::vector<v1::RegisterDatasetRequest> messages;
  int writes_done = 0;
};

TEST_F(CliTest, RegisterStreamsHeaderThenChunksInOrder) {
  env_.upload_chunk_bytes = 4;
  const std::string csv = "zip,city\n1,A\n1,B\n22,C\n";  // 22 bytes
  const std::string data = TempFile("h.csv", csv);
  const std::string dc = TempFile("h.dc", "zip -> city\n");
  const std::string schema = TempFile("h.schema", "zip: int64\ncity: string\n");

  StreamLog log;
  RegisterScript script;
  script.sink = &log.messages;
  script.writes_done = &log.writes_done;
  script.respond = [](v1::RegisterDatasetResponse* response) {
    response->mutable_dataset()->set_dataset_id("hospital");
    response->mutable_dataset()->set_version(1);
    response->mutable_stats()->set_rows(3);
    response->mutable_stats()->set_csv_bytes(23);
    response->mutable_stats()->set_edges(1);
  };
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));

  EXPECT_EQ(
      Run({"admin", "register", "hospital", "--data", data, "--constraints", dc,
           "--schema", schema, "--public-max-rows", "1000", "--description",
           "Hospital", "--row-count-public", "--null-value", "NA", "--json"}),
      kExitOk)
      << err();

  ASSERT_EQ(csv.size(), 22u);
  ASSERT_EQ(log.messages.size(), 1u + 6u);  // header + ceil(22 / 4) chunks
  ASSERT_TRUE(log.messages[0].has_header());
  const v1::DatasetUploadHeader& header = log.messages[0].header();
  EXPECT_EQ(header.server_path(), "");
  const v1::DatasetManifest& m = header.manifest();
  EXPECT_EQ(m.dataset_id(), "hospital");
  EXPECT_EQ(m.description(), "Hospital");
  EXPECT_EQ(m.constraints(), "zip -> city\n");
  EXPECT_EQ(m.public_max_rows(), 1000u);
  EXPECT_TRUE(m.row_count_public());
  EXPECT_FALSE(m.exact_repair());
  ASSERT_EQ(m.null_values_size(), 1);
  EXPECT_EQ(m.null_values(0), "NA");
  ASSERT_EQ(m.column_types_size(), 2);
  EXPECT_EQ(m.column_types(0).name(), "zip");
  EXPECT_EQ(m.column_types(0).type(), v1::COLUMN_TYPE_INT64);
  EXPECT_EQ(m.column_types(1).name(), "city");
  EXPECT_EQ(m.column_types(1).type(), v1::COLUMN_TYPE_STRING);
  std::string joined;
  for (size_t i = 1; i < log.messages.size(); ++i) {
    ASSERT_EQ(log.messages[i].payload_case(),
              v1::RegisterDatasetRequest::kCsvChunk);
    EXPECT_EQ(log.messages[i].csv_chunk().size(),
              i + 1 < log.messages.size() ? 4u : 2u);
    joined += log.messages[i].csv_chunk();
  }
  EXPECT_EQ(joined, csv);
  EXPECT_EQ(log.writes_done, 1);
  // The RegisterDatasetResponse as it is.
  EXPECT_THAT(out(), StartsWith(R"({"dataset":{"datasetId":"hospital",)"));
  EXPECT_THAT(out(),
              HasSubstr(R"("stats":{"rows":"3","csvBytes":"23","edges":"1",)"
                        R"("graphBuildSeconds":0,"graphReady":false,)"
                        R"("graphError":"","nodes":"0","releaseCost":""},)"
                        R"("notes":[]})"
                        "\n"));
}

TEST_F(CliTest, RegisterWithServerPathSendsOnlyTheHeader) {
  const std::string dc = TempFile("t.dc", "A -> B\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "tax", "--server-path", "/srv/tax.csv",
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].header().server_path(), "/srv/tax.csv");
  EXPECT_EQ(messages[0].header().manifest().column_types_size(), 0);
  EXPECT_THAT(out(), StartsWith("Registered "));
}

TEST_F(CliTest, UploadDefaultDeadlineIsLonger) {
  const std::string dc = TempFile("d.dc", "A -> B\n");
  absl::Duration remaining;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Invoke([&](grpc::ClientContext* ctx,
                           v1::RegisterDatasetResponse* response,
                           grpc::CompletionQueue* cq) {
        remaining = absl::FromChrono(ctx->deadline()) - absl::Now();
        return new FakeUpload<v1::RegisterDatasetRequest,
                              v1::RegisterDatasetResponse>(RegisterScript(),
                                                           response, cq);
      }));
  EXPECT_EQ(Run({"admin", "register", "t", "--server-path", "/x",
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitOk);
  EXPECT_GT(remaining, absl::Seconds(590));
}

TEST_F(CliTest, ReplaceUsesReplaceDataset) {
  const std::string data = TempFile("r.csv", "a\n1\n");
  const std::string dc = TempFile("r.dc", "a -> a\n");
  std::vector<v1::ReplaceDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncReplaceDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "replace", "r", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9"}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].header().manifest().dataset_id(), "r");
  EXPECT_EQ(messages[1].csv_chunk(), "a\n1\n");
  EXPECT_THAT(out(), StartsWith("Replaced "));
}

TEST_F(CliTest, ServerClosingTheStreamStopsTheUploadAndReportsItsError) {
  env_.upload_chunk_bytes = 2;
  const std::string data = TempFile("big.csv", "a,b\n1,2\n3,4\n");
  const std::string dc = TempFile("big.dc", "a -> b\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  int writes_done = 0;
  RegisterScript script;
  script.sink = &messages;
  script.writes_done = &writes_done;
  // The header and one chunk go through; then the server has closed.
  script.accept_writes = 2;
  script.status = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                               "Upload above the 8-byte limit");
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));
  EXPECT_EQ(Run({"admin", "register", "big", "--data", data, "--constraints",
                 dc, "--public-max-rows", "9"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: RESOURCE_EXHAUSTED: Upload above the 8-byte limit\n");
  EXPECT_THAT(out(), IsEmpty());
  // The third write failed: nothing more was written, no WritesDone.
  EXPECT_EQ(messages.size(), 2u);
  EXPECT_EQ(writes_done, 0);
}

TEST_F(CliTest, MissingLocalFilesFailBeforeAnyRpc) {
  const std::string data = TempFile("ok.csv", "a\n1\n");
  const std::string dc = TempFile("ok.dc", "a -> a\n");
  // StrictMock: any RPC would fail the test.
  EXPECT_EQ(Run({"admin", "register", "h", "--data", MissingPath("h.csv"),
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: NOT_FOUND: Cannot read --data file '" +
                       MissingPath("h.csv") + "': no such file.\n");
  EXPECT_EQ(Run({"admin", "register", "h", "--data", data, "--constraints",
                 MissingPath("h.dc"), "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --constraints "
                                "file"));
  EXPECT_EQ(Run({"admin", "replace", "h", "--data", data, "--constraints", dc,
                 "--schema", MissingPath("s"), "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --schema file"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, BadSchemaFileIsInvalidArgumentNamingTheFile) {
  const std::string data = TempFile("s.csv", "a\n1\n");
  const std::string dc = TempFile("s.dc", "a -> a\n");
  const std::string schema = TempFile("bad.schema", "a: complex\n");
  EXPECT_EQ(Run({"admin", "register", "h", "--data", data, "--constraints", dc,
                 "--schema", schema, "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: INVALID_ARGUMENT: --schema file '" +
                                schema + "': "));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, RegisterSendsCubeDeclarationsInTheManifest) {
  const std::string data = TempFile("cube.csv", "Sex,Age\nF,31\n");
  const std::string dc = TempFile("cube.dc", "Sex -> Age\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "cube", "--data", data, "--constraints",
                 dc, "--public-max-rows", "10", "--cube-dimension", "Sex=F|M",
                 "--cube-dimension", "Age:0,30,100", "--public-cuboid", "Sex",
                 "--public-cuboid", "Sex,Age"}),
            kExitOk)
      << err();
  ASSERT_GE(messages.size(), 1u);
  const v1::DatasetManifest& m = messages[0].header().manifest();
  EXPECT_EQ(m.kind(), v1::DATASET_KIND_UNSPECIFIED);
  ASSERT_EQ(m.cube_dimensions_size(), 2);
  EXPECT_EQ(m.cube_dimensions(0).column(), "Sex");
  EXPECT_THAT(m.cube_dimensions(0).domain(), ::testing::ElementsAre("F", "M"));
  EXPECT_EQ(m.cube_dimensions(1).column(), "Age");
  EXPECT_THAT(m.cube_dimensions(1).bin_edges(),
              ::testing::ElementsAre(0, 30, 100));
  ASSERT_EQ(m.public_cuboids_size(), 2);
  EXPECT_THAT(m.public_cuboids(0).dimensions(), ::testing::ElementsAre("Sex"));
  EXPECT_THAT(m.public_cuboids(1).dimensions(),
              ::testing::ElementsAre("Sex", "Age"));
}

TEST_F(CliTest, RegisterAndReplaceSendExactRepair) {
  const std::string data = TempFile("x.csv", "a,b\n1,2\n1,3\n");
  const std::string dc = TempFile("x.dc", "a -> b\n");
  std::vector<v1::RegisterDatasetRequest> registered;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&registered));
  EXPECT_EQ(Run({"admin", "register", "x", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--infer-types", "--exact-repair"}),
            kExitOk)
      << err();
  ASSERT_GE(registered.size(), 1u);
  EXPECT_TRUE(registered[0].header().manifest().exact_repair());

  std::vector<v1::ReplaceDatasetRequest> replaced;
  EXPECT_CALL(*admin_, PrepareAsyncReplaceDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&replaced));
  EXPECT_EQ(Run({"admin", "replace", "x", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--infer-types"}),
            kExitOk)
      << err();
  ASSERT_GE(replaced.size(), 1u);
  EXPECT_FALSE(replaced[0].header().manifest().exact_repair());

  // Graphs have no I_R: refused locally, nothing is sent.
  const int connects = connects_;
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", data,
                 "--node-count", "4", "--exact-repair"}),
            kExitUsage);
  EXPECT_THAT(err(), HasSubstr("--exact-repair applies to tables only"));
  EXPECT_EQ(connects_, connects);
}

TEST_F(CliTest, RegisterGraphSendsKindNodesAndNoConstraints) {
  const std::string edges = TempFile("edges.csv", "source,target\n1,2\n2,3\n");
  const std::string nodes = TempFile("nodes.txt", "1\r\n2\n\n3\n4\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", edges,
                 "--nodes", nodes}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 2u);
  const v1::DatasetManifest& m = messages[0].header().manifest();
  EXPECT_EQ(m.kind(), v1::DATASET_KIND_GRAPH);
  // One label per line; CR and empty lines dropped; node 4 is isolated.
  EXPECT_THAT(m.node_labels(), ::testing::ElementsAre("1", "2", "3", "4"));
  EXPECT_EQ(m.constraints(), "");
  EXPECT_EQ(m.public_max_rows(), 0u);
  EXPECT_EQ(messages[1].csv_chunk(), "source,target\n1,2\n2,3\n");
}

TEST_F(CliTest, UnparsableUploadReplyIsAnErrorNotAnAbort) {
  // The server registered the dataset but its reply has a string field that
  // is not UTF-8 (a Latin-1 cube label): gRPC's ClientWriter::Finish
  // aborted the process on it (exit 134).
  const std::string data = TempFile("l1.csv", "a,b\n\xff\xfe,2\n1,3\n");
  const std::string dc = TempFile("l1.dc", "a -> b\n");
  RegisterScript script;
  script.reply_parses = false;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));
  EXPECT_EQ(Run({"admin", "register", "l1", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--cube-dimension", "a"}),
            kExitError);
  EXPECT_EQ(err(),
            "dpq: INTERNAL: The server reports that RegisterDataset "
            "succeeded, but its answer could not be parsed (for example, a "
            "text field that is not valid UTF-8), so dpq cannot show it.\n");
  EXPECT_THAT(out(), IsEmpty());
}

TEST_F(CliTest, UploadTextFilesMustBeUtf8WithLineAndColumn) {
  const std::string data = TempFile("u.csv", "a,b\n1,2\n");
  const std::string dc = TempFile("u.dc", "a -> b\nb -> \xff\n");
  // StrictMock: nothing is sent (the server used to answer "The upload
  // stream is empty").
  EXPECT_EQ(Run({"admin", "register", "u", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: " + dc +
                       ":2:6: not valid UTF-8 (byte 0xff); --constraints "
                       "files must be UTF-8 text.\n");
  const std::string schema = TempFile("u.schema", "a: int64\n\xe9: string\n");
  const std::string good_dc = TempFile("u2.dc", "a -> b\n");
  EXPECT_EQ(Run({"admin", "register", "u", "--data", data, "--constraints",
                 good_dc, "--schema", schema, "--public-max-rows", "9"}),
            kExitError);
  EXPECT_THAT(err(), HasSubstr(schema + ":2:1: not valid UTF-8 (byte 0xe9)"));
  const std::string nodes = TempFile("u.nodes", "1\n2\xff\n");
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", data,
                 "--nodes", nodes}),
            kExitError);
  EXPECT_THAT(err(), HasSubstr(nodes + ":2:2: not valid UTF-8"));
  EXPECT_EQ(connects_, 0);
}

}  // namespace
}  // namespace dpq::client
