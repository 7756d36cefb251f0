// The HTTP/JSON listener (dpq-server --http-listen, docs/http.md) against a
// real server over TLS: a ServerFixture registers the hospital and creates
// buyers, then /usr/bin/python3 runs tests/integration/http_api_test.py
// (unittest over http.client: routes, JSON mapping, errors, roles,
// ledger semantics, streamed uploads, limits, web headers, CORS, paging)
// and the curl examples of docs/http.md; the tests assert that the scripts
// passed every case.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tests/integration/http_fixture.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

TEST_F(HttpGatewayTest, ApiAnswersJsonWithTheGrpcSemantics) {
  const CommandResult r = RunCommand(
      {"/usr/bin/python3",
       absl::StrCat(kSourceDir, "/tests/integration/http_api_test.py")},
      ScriptEnv(), std::chrono::seconds(240));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << "\nserver log:\n"
                            << server_->Log();
  EXPECT_THAT(r.err, HasSubstr("\nOK"));
}

// The curl examples of docs/http.md, run as written (bash, Debian's curl).
TEST_F(HttpGatewayTest, DocsCurlExamplesRun) {
  const CommandResult r = RunCommand(
      {"/usr/bin/python3",
       absl::StrCat(kSourceDir, "/tests/integration/http_docs_examples.py"),
       absl::StrCat(kSourceDir, "/docs/http.md")},
      ScriptEnv(), std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << "\nserver log:\n"
                            << server_->Log();
  EXPECT_THAT(r.out, HasSubstr("examples passed"));
}

// With --client-ca the HTTP listener, as the gRPC one, wants a client
// certificate that CA signed: without one even the admin token gets 401.
TEST_F(HttpGatewayTest, MutualTlsNeedsAClientCertificateOverHttpToo) {
  ASSERT_EQ(StopServer(), 0);
  ASSERT_NO_FATAL_FAILURE(StartServer(
      {"--http-listen", "127.0.0.1:0", "--client-ca", certs_.ca()}));
  const int port = HttpPortInLog(server_->Log());
  ASSERT_GT(port, 0) << server_->Log();
  const std::string url =
      absl::StrCat("https://127.0.0.1:", port, "/v1/admin/buyers");
  const std::vector<std::string> curl = {
      "/usr/bin/curl",
      "-sS",
      "--cacert",
      certs_.ca(),
      "-H",
      "Authorization: Bearer " + admin_token_,
      "-w",
      " HTTP %{http_code}"};
  std::vector<std::string> without = curl;
  without.push_back(url);
  const CommandResult refused = RunCommand(without);
  EXPECT_THAT(refused.out, HasSubstr("client certificate"));
  EXPECT_THAT(refused.out, HasSubstr("HTTP 401"));
  std::vector<std::string> with = curl;
  with.insert(with.end(), {"--cert", certs_.client_cert(), "--key",
                           certs_.client_key(), url});
  const CommandResult accepted = RunCommand(with);
  EXPECT_THAT(accepted.out, HasSubstr("HTTP 200")) << accepted.err;
  EXPECT_THAT(accepted.out, HasSubstr(R"("buyers":)"));
}

}  // namespace
}  // namespace dpq::integration
