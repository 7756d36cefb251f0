#include "client/connection.h"

#include <chrono>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::StatusIs;

TEST(IsLoopbackTargetTest, RecognisesThisMachine) {
  EXPECT_TRUE(IsLoopbackTarget("localhost:50051"));
  EXPECT_TRUE(IsLoopbackTarget("LOCALHOST:1"));
  EXPECT_TRUE(IsLoopbackTarget("127.0.0.1:50051"));
  EXPECT_TRUE(IsLoopbackTarget("127.1.2.3:9"));
  EXPECT_TRUE(IsLoopbackTarget("[::1]:50051"));
  EXPECT_TRUE(IsLoopbackTarget("::1"));
  EXPECT_TRUE(IsLoopbackTarget("unix:/tmp/dpq.sock"));
  EXPECT_TRUE(IsLoopbackTarget("dns:///localhost:50051"));
}

TEST(IsLoopbackTargetTest, RejectsOtherHosts) {
  EXPECT_FALSE(IsLoopbackTarget("dpq.example.com:443"));
  EXPECT_FALSE(IsLoopbackTarget("10.0.0.1:50051"));
  EXPECT_FALSE(IsLoopbackTarget("128.0.0.1:50051"));
  EXPECT_FALSE(IsLoopbackTarget("127.0.0.1.evil.com:50051"));
  EXPECT_FALSE(IsLoopbackTarget("localhost.evil.com:1"));
  EXPECT_FALSE(IsLoopbackTarget("[2001:db8::1]:50051"));
}

TEST(NormalizeTargetTest, AddsDefaultPortOnlyWhenMissing) {
  EXPECT_EQ(NormalizeTarget("myhost"), "myhost:50051");
  EXPECT_EQ(NormalizeTarget("myhost:7000"), "myhost:7000");
  EXPECT_EQ(NormalizeTarget("[::1]"), "[::1]:50051");
  EXPECT_EQ(NormalizeTarget("[::1]:9"), "[::1]:9");
  EXPECT_EQ(NormalizeTarget("dns:///myhost:1"), "dns:///myhost:1");
  EXPECT_EQ(NormalizeTarget("unix:/tmp/s"), "unix:/tmp/s");
}

TEST(BearerValueTest, IsBearerScheme) {
  EXPECT_EQ(BearerValue("dpq_abc"), "Bearer dpq_abc");
}

TEST(PrepareContextTest, SetsDeadlineFromTimeout) {
  grpc::ClientContext context;
  const absl::Time before = absl::Now();
  PrepareContext(CallOptions{absl::Seconds(7), ""}, &context);
  const absl::Time deadline = absl::FromChrono(context.deadline());
  EXPECT_GE(deadline, before + absl::Seconds(7));
  EXPECT_LE(deadline, absl::Now() + absl::Seconds(7));
}

TEST(ConnectGrpcTest, EmptyTargetIsInvalid) {
  EXPECT_THAT(ConnectGrpc(ConnectionOptions{}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("--server")));
}

TEST(ConnectGrpcTest, BuildsAllStubsLazilyForTlsAndPlaintext) {
  ConnectionOptions tls;
  tls.target = "127.0.0.1:1";
  tls.token = "dpq_x";
  absl::StatusOr<Connection> a = ConnectGrpc(tls);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_NE(a->buyer, nullptr);
  EXPECT_NE(a->admin, nullptr);
  EXPECT_NE(a->health, nullptr);
  ConnectionOptions plain = tls;
  plain.insecure = true;
  absl::StatusOr<Connection> b = ConnectGrpc(plain);
  ASSERT_TRUE(b.ok()) << b.status();
  // Nothing listens on port 1: a call fails fast with UNAVAILABLE.
  grpc::ClientContext context;
  PrepareContext(CallOptions{absl::Seconds(5), "dpq_x"}, &context);
  grpc::health::v1::HealthCheckResponse resp;
  const grpc::Status status =
      b->health->Check(&context, grpc::health::v1::HealthCheckRequest(), &resp);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace dpq::client
