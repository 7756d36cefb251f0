#include "server/http/route_table.h"

#include <set>
#include <string>

#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::http {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

TEST(RouteTableTest, EveryRpcOfBothServicesHasARoute) {
  ASSERT_OK_AND_ASSIGN(RouteTable table, RouteTable::ForDpqV1());
  std::set<std::string> routed;
  for (const Route& route : table.routes()) {
    routed.insert(route.method->full_name());
  }
  for (const char* name : {"dpq.v1.BuyerService", "dpq.v1.AdminService"}) {
    const google::protobuf::ServiceDescriptor* service =
        google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
            name);
    ASSERT_NE(service, nullptr) << name;
    for (int i = 0; i < service->method_count(); ++i) {
      EXPECT_TRUE(routed.contains(service->method(i)->full_name()))
          << service->method(i)->full_name()
          << " has no google.api.http annotation";
    }
  }
  EXPECT_EQ(table.routes().size(), routed.size());
}

TEST(RouteTableTest, FindsRoutesAndTellsWhyNot) {
  ASSERT_OK_AND_ASSIGN(RouteTable table, RouteTable::ForDpqV1());
  ASSERT_OK_AND_ASSIGN(RouteMatch measure,
                       table.Find("POST", "/v1/datasets/hospital:measure"));
  EXPECT_EQ(measure.route->grpc_method,
            "/dpq.v1.BuyerService/MeasureInconsistency");
  EXPECT_THAT(measure.bindings, ElementsAre(Pair("dataset_id", "hospital")));
  ASSERT_OK_AND_ASSIGN(RouteMatch describe,
                       table.Find("GET", "/v1/datasets/hospital"));
  EXPECT_EQ(describe.route->method->name(), "DescribeDataset");
  ASSERT_OK_AND_ASSIGN(RouteMatch admin_list,
                       table.Find("GET", "/v1/admin/datasets"));
  EXPECT_EQ(admin_list.route->grpc_method, "/dpq.v1.AdminService/ListDatasets");
  ASSERT_OK_AND_ASSIGN(RouteMatch upload,
                       table.Find("POST", "/v1/admin/datasets"));
  EXPECT_TRUE(upload.route->method->client_streaming());
  EXPECT_THAT(table.Find("GET", "/v1/datasets/hospital:measure"),
              StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("POST")));
  EXPECT_THAT(table.Find("GET", "/v1/nothing"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("docs/http.md")));
}

TEST(RouteTableTest, RefusesAnUnknownService) {
  EXPECT_THAT(RouteTable::FromServices({"dpq.v1.NoService"}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

// docs/http.md carries the table dpq-server --print-http-routes prints.
TEST(RouteTableTest, DocsListEveryRoute) {
  ASSERT_OK_AND_ASSIGN(RouteTable table, RouteTable::ForDpqV1());
  const std::string docs =
      ::dpq::testing::ReadFileOrEmpty(DPQ_SOURCE_DIR "/docs/http.md");
  EXPECT_THAT(docs, HasSubstr(table.Markdown()))
      << "docs/http.md's route table is stale: paste in the output of "
         "dpq-server --print-http-routes:\n"
      << table.Markdown();
}

}  // namespace
}  // namespace dpq::server::http
