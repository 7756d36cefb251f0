// `dpq health`: the gRPC health check, without a token.
#include "client/commands/health.h"

#include <map>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"

namespace dpq::client {
namespace {

using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::testing::_;
using ::testing::DoAll;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST_F(CliTest, HealthServingExits0WithoutToken) {
  env_vars_ = {{"DPQ_TOKEN", "dpq_env"}};
  HealthCheckRequest sent;
  HealthCheckResponse serving;
  serving.set_status(HealthCheckResponse::SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(serving),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"health", "--server", "localhost:50051"}), kExitOk);
  EXPECT_EQ(out(), "SERVING\n");
  EXPECT_EQ(sent.service(), "");
  EXPECT_EQ(options_.token, "");  // health never sends a token
}

TEST_F(CliTest, HealthNotServingExits1) {
  HealthCheckResponse not_serving;
  not_serving.set_status(HealthCheckResponse::NOT_SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(not_serving), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "health"}), kExitError);
  EXPECT_EQ(out(), "{\"status\":\"NOT_SERVING\"}\n");
  EXPECT_EQ(err(),
            "dpq: UNAVAILABLE: The server answers but reports NOT_SERVING, "
            "not SERVING.\n");
}

TEST_F(CliTest, HealthUnreachableExits1) {
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                    "failed to connect to all addresses")));
  EXPECT_EQ(Run({"health"}), kExitError);
  EXPECT_EQ(err(), "dpq: UNAVAILABLE: failed to connect to all addresses\n");
}

}  // namespace
}  // namespace dpq::client
