// `dpq admin create-buyer`: the token, once, in text and JSON (the demo and
// scripts read it from the JSON).
#include "client/commands/admin_create_buyer.h"

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

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

// The CreateBuyerResponse as it is: the buyer (with its creation time) and
// the token, on one line, so that `sed 's/.*"token" *: *"\(...\)".*/\1/'`
// (deploy/demo/run-demo.sh) finds it.
TEST(CreateBuyerTextTest, JsonIsTheBuyerAndTheToken) {
  dpq::v1::CreateBuyerResponse resp;
  resp.mutable_buyer()->set_buyer_id("alice");
  resp.mutable_buyer()->mutable_created_at()->set_seconds(1714564800);
  resp.set_token("dpq_0123");
  EXPECT_EQ(*ProtoJsonLine(resp),
            R"({"buyer":{"buyerId":"alice","revoked":false,)"
            R"("createdAt":"2024-05-01T12:00:00Z"},"token":"dpq_0123"})"
            "\n");
  const std::string human = CreateBuyerText(resp);
  EXPECT_THAT(human, HasSubstr("Created buyer alice."));
  EXPECT_THAT(human, HasSubstr("shown only once"));
  EXPECT_THAT(human, HasSubstr("\ndpq_0123\n"));
}

TEST(ParseAdminTest, CreateBuyer) {
  ParsedLine p({"admin", "create-buyer", "alice"});
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_NE(p.command<AdminCreateBuyerCommand>(), nullptr);
  EXPECT_EQ(p.command<AdminCreateBuyerCommand>()->request().name(), "alice");
  ExpectUsageError({"admin", "create-buyer"},
                   "dpq admin create-buyer expects NAME");
}

TEST_F(CliTest, CreateBuyerJsonIsTheBuyerAndTheToken) {
  v1::CreateBuyerRequest sent;
  v1::CreateBuyerResponse resp;
  resp.mutable_buyer()->set_buyer_id("alice");
  resp.set_token("dpq_abc");
  EXPECT_CALL(*admin_, CreateBuyer(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                            Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "admin", "create-buyer", "alice"}), kExitOk);
  EXPECT_EQ(sent.name(), "alice");
  EXPECT_EQ(out(), R"({"buyer":{"buyerId":"alice","revoked":false},)"
                   R"("token":"dpq_abc"})"
                   "\n");
  EXPECT_EQ(Run({"admin", "create-buyer", "alice"}), kExitOk);
  EXPECT_EQ(out(),
            "Created buyer alice. Its token (shown only once; store it "
            "safely):\ndpq_abc\n");
}

}  // namespace
}  // namespace dpq::client
