// deploy/nginx/dpq.conf's HTTP block (DPQ_HTTP_UPSTREAMS) in front of a
// real replica's HTTP listener: part of dpq_nginx_test (label
// integration-nginx).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/http_fixture.h"
#include "tests/integration/nginx_proxy.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

// deploy/nginx/dpq.conf's HTTP block in front of the replica: requests,
// answers, errors and the web headers pass through unchanged.
TEST_F(HttpGatewayTest, NginxPassesTheHttpApiThrough) {
  absl::StatusOr<std::unique_ptr<NginxProxy>> nginx = NginxProxy::Start(
      {server_->address()}, certs_, {absl::StrCat("127.0.0.1:", port_)});
  ASSERT_TRUE(nginx.ok()) << nginx.status();
  const std::string alice = NewBuyer("alice", "hospital", 5);
  const std::string url = absl::StrCat("https://", (*nginx)->http_address());
  const auto curl = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/curl", "-sS", "-i", "--cacert",
                                     certs_.ca()};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCommand(argv);
  };
  const CommandResult page = curl({url + "/"});
  ASSERT_EQ(page.exit_code, 0) << page.err << (*nginx)->Log();
  EXPECT_THAT(page.out, HasSubstr("HTTP/1.1 200"));
  EXPECT_THAT(page.out, HasSubstr("Content-Security-Policy: default-src "
                                  "'none'; script-src 'self'"));
  const CommandResult bought = curl(
      {"-H", "Authorization: Bearer " + alice, "-d",
       R"({"measure": "MEASURE_MI", "epsilon": 1, "requestId": "nginx-1"})",
       url + "/v1/datasets/hospital:measure"});
  EXPECT_THAT(bought.out, HasSubstr("HTTP/1.1 200"));
  EXPECT_THAT(bought.out, HasSubstr("Cache-Control: no-store"));
  EXPECT_THAT(bought.out,
              HasSubstr(R"("epsilonChargedUnits":"1000000000000")"));
  const CommandResult refused = curl({url + "/v1/admin/buyers"});
  EXPECT_THAT(refused.out, HasSubstr("HTTP/1.1 401"));
  EXPECT_THAT(refused.out, HasSubstr(R"("status":"UNAUTHENTICATED")"));
  EXPECT_FALSE((*nginx)->AccessLines("/v1/datasets/hospital:measure").empty());
}

}  // namespace
}  // namespace dpq::integration
