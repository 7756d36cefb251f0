// A dataset stored by an earlier server may hold invalid UTF-8 in a label;
// a `string` field carrying it made the client refuse the whole response
// (docs/security.md item 1: ListDatasets failed for every caller). The
// interceptor repairs such responses: this test runs a real gRPC server on
// loopback with a service that returns such text, with and without it.
#include "server/text_repair_interceptor.h"

#include <memory>
#include <string>
#include <vector>

#include "dpq/v1/buyer_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

namespace dpq::server {
namespace {

class BadTextService final : public v1::BuyerService::Service {
 public:
  grpc::Status ListDatasets(grpc::ServerContext*,
                            const v1::ListDatasetsRequest*,
                            v1::ListDatasetsResponse* response) override {
    v1::DatasetInfo* info = response->add_datasets();
    info->set_dataset_id("bad");
    info->set_description("Latin-1 caf\xE9");
    info->add_cube_dimensions()->add_labels("\xff\xfe");
    response->add_datasets()->set_dataset_id("good");
    return grpc::Status::OK;
  }
};

grpc::Status CallListDatasets(bool with_interceptor,
                              v1::ListDatasetsResponse* response) {
  BadTextService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  if (with_interceptor) {
    std::vector<
        std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
        creators;
    creators.push_back(MakeTextRepairInterceptorFactory());
    builder.experimental().SetInterceptorCreators(std::move(creators));
  }
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  EXPECT_NE(server, nullptr);
  auto stub = v1::BuyerService::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  const grpc::Status status =
      stub->ListDatasets(&context, v1::ListDatasetsRequest(), response);
  server->Shutdown();
  return status;
}

TEST(TextRepairInterceptorTest, WithoutItTheClientRefusesTheResponse) {
  // The finding, reproduced: the server sends, the client cannot parse.
  v1::ListDatasetsResponse response;
  EXPECT_FALSE(CallListDatasets(/*with_interceptor=*/false, &response).ok());
}

TEST(TextRepairInterceptorTest, RepairsTheResponseSoEveryoneCanList) {
  v1::ListDatasetsResponse response;
  const grpc::Status status = CallListDatasets(true, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.datasets_size(), 2);
  EXPECT_EQ(response.datasets(0).description(), "Latin-1 caf\xEF\xBF\xBD");
  EXPECT_EQ(response.datasets(0).cube_dimensions(0).labels(0),
            "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(response.datasets(1).dataset_id(), "good");
}

}  // namespace
}  // namespace dpq::server
