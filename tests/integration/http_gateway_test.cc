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

}  // namespace
}  // namespace dpq::integration
