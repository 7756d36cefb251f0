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
#include "google/protobuf/util/json_util.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

class HttpGatewayTest : public ServerFixture {
 protected:
  // The fixture's server again, with the HTTP listener, a small message
  // limit (128 KiB: the body limit is then 4/3 of it plus 64 KiB) and one
  // allowed cross-origin page.
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_EQ(StopServer(), 0);
    ASSERT_NO_FATAL_FAILURE(StartServer(
        {"--http-listen", "127.0.0.1:0", "--max-message-bytes", "131072",
         "--http-cors-origins", "https://console.example.com"}));
    port_ = HttpPortInLog(server_->Log());
    ASSERT_GT(port_, 0) << server_->Log();
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  }

  // The environment the scripts read (their docstrings list it).
  std::map<std::string, std::string> ScriptEnv() {
    std::string manifest;
    v1::DatasetManifest people = PeopleManifest();
    people.set_dataset_id("people_http");
    EXPECT_TRUE(
        google::protobuf::util::MessageToJsonString(people, &manifest).ok());
    const std::string csv = dir_.Sub("people.csv");
    WriteFileOrDie(csv, PeopleCsv());
    return {{"PYTHONDONTWRITEBYTECODE", "1"},
            {"DPQ_TEST_HTTP_URL", absl::StrCat("https://127.0.0.1:", port_)},
            {"DPQ_TEST_CA", certs_.ca()},
            {"DPQ_TEST_ADMIN_TOKEN", admin_token_},
            {"DPQ_TEST_TOKEN_ALICE", NewBuyer("alice", "hospital", 5)},
            {"DPQ_TEST_TOKEN_CAROL", NewBuyer("carol", "hospital", 0.5)},
            {"DPQ_TEST_UPLOAD_MANIFEST", manifest},
            {"DPQ_TEST_UPLOAD_CSV", csv},
            {"DPQ_TEST_CORS_ORIGIN", "https://console.example.com"},
            {"DPQ_TEST_SOURCE_DIR", kSourceDir}};
  }

  int port_ = 0;
};

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
