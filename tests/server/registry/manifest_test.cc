#include "server/registry/manifest.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::registry {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

v1::DatasetManifest Table() {
  v1::DatasetManifest m;
  m.set_dataset_id("zips");
  m.set_constraints("Zip -> City\n");
  m.set_public_max_rows(100);
  return m;
}

v1::DatasetManifest Graph() {
  v1::DatasetManifest m;
  m.set_dataset_id("net");
  m.set_kind(v1::DATASET_KIND_GRAPH);
  m.set_node_count(4);
  return m;
}

TEST(DatasetManifestTest, ValidManifestsPass) {
  EXPECT_THAT(ValidateManifest(Table()), IsOk());
  EXPECT_THAT(ValidateManifest(Graph()), IsOk());
}

TEST(DatasetManifestTest, KindUnspecifiedIsATable) {
  EXPECT_THAT(ManifestKind(Table()), IsOkAndHolds(v1::DATASET_KIND_TABLE));
  EXPECT_THAT(ManifestKind(Graph()), IsOkAndHolds(v1::DATASET_KIND_GRAPH));
  v1::DatasetManifest m = Table();
  m.set_kind(static_cast<v1::DatasetKind>(7));
  EXPECT_THAT(ManifestKind(m),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("kind must be DATASET_KIND_TABLE or "
                                 "DATASET_KIND_GRAPH, but is 7.")));
}

// Each invalid manifest is kInvalidArgument with a message that starts with
// (or names) the field at fault.
TEST(DatasetManifestTest, ValidationErrorsNameTheField) {
  struct Case {
    const char* name;
    v1::DatasetManifest manifest;
    const char* message;
  };
  std::vector<Case> cases;
  auto add = [&cases](const char* name, v1::DatasetManifest m,
                      const char* message) {
    cases.push_back({name, std::move(m), message});
  };
  {
    v1::DatasetManifest m = Table();
    m.set_dataset_id("-x");
    add("id", m, "dataset_id");
  }
  {
    v1::DatasetManifest m = Table();
    m.set_description(std::string(4097, 'x'));
    add("description", m,
        "description must be at most 4096 bytes, but has 4097.");
  }
  {
    v1::DatasetManifest m = Table();
    for (int i = 0; i < 3; ++i) m.add_public_cuboids()->add_dimensions("A");
    add("three cuboids", m,
        "public_cuboids may declare at most 2 exact cuboids, but declares 3");
  }
  {
    v1::DatasetManifest m = Table();
    v1::CuboidSpec* q = m.add_public_cuboids();
    q->add_dimensions("A");
    q->add_dimensions("A");
    add("dimension twice", m, "public_cuboids[0] names dimension 'A' twice.");
  }
  {
    v1::DatasetManifest m = Table();
    m.set_node_count(3);
    add("table with nodes", m,
        "node_labels and node_count apply to graph datasets only.");
  }
  {
    v1::DatasetManifest m = Table();
    m.set_public_max_rows(0);
    add("no row bound", m, "public_max_rows must be >= 1");
  }
  {
    v1::DatasetManifest m = Table();
    m.set_constraints(" \n\t");
    add("no constraints", m, "constraints is empty");
  }
  {
    v1::DatasetManifest m = Table();
    m.add_column_types()->set_type(v1::COLUMN_TYPE_INT64);
    add("unnamed column", m, "column_types: a column has an empty name.");
  }
  {
    v1::DatasetManifest m = Table();
    m.add_column_types()->set_name("Zip");
    m.add_column_types()->set_name("Zip");
    add("column twice", m, "column_types: column 'Zip' is listed twice.");
  }
  {
    v1::DatasetManifest m = Table();
    v1::Column* c = m.add_column_types();
    c->set_name("Zip");
    c->set_type(static_cast<v1::ColumnType>(9));
    add("unknown type", m, "column_types: column 'Zip' has type 9");
  }
  {
    v1::DatasetManifest m = Table();
    for (int i = 0; i < 65; ++i) m.add_null_values("NA");
    add("null values", m, "null_values may hold at most 64 spellings");
  }
  {
    v1::DatasetManifest m = Graph();
    m.set_constraints("A -> B");
    add("graph constraints", m,
        "constraints must be empty for a graph dataset");
  }
  {
    v1::DatasetManifest m = Graph();
    m.set_exact_repair(true);
    add("graph exact repair", m,
        "exact_repair must be empty for a graph dataset");
  }
  {
    v1::DatasetManifest m = Graph();
    m.add_node_labels("a");
    add("graph universe twice", m,
        "Give the node universe as node_labels or as node_count, not both.");
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_THAT(
        ValidateManifest(c.manifest),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)));
  }
}

TEST(DatasetManifestTest, JsonRoundTripKeepsEveryFieldUnderProtoNames) {
  v1::DatasetManifest m = Table();
  m.set_description("zip codes");
  v1::Column* c = m.add_column_types();
  c->set_name("Zip");
  c->set_type(v1::COLUMN_TYPE_INT64);
  m.add_null_values("NA");
  ASSERT_OK_AND_ASSIGN(const std::string json, ManifestToJson(m));
  // The stored form older servers wrote: the proto's field names.
  EXPECT_THAT(json, HasSubstr("\"dataset_id\": \"zips\""));
  EXPECT_THAT(json, HasSubstr("\"public_max_rows\""));
  ASSERT_OK_AND_ASSIGN(const v1::DatasetManifest back, ManifestFromJson(json));
  EXPECT_EQ(back.SerializeAsString(), m.SerializeAsString());
}

TEST(DatasetManifestTest, FromJsonAcceptsCamelCaseAndRefusesOtherText) {
  EXPECT_THAT(ManifestFromJson("{\"datasetId\": \"x\"}"), IsOk());
  EXPECT_THAT(ManifestFromJson("{not json"),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(ManifestFromJson("{\"no_such_field\": 1}"),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace dpq::server::registry
