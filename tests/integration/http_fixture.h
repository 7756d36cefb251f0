// The fixture of the HTTP listener's integration tests
// (http_gateway_test.cc, http_nginx_test.cc): the harness's TLS server
// with --http-listen, a small message limit and one allowed cross-origin
// page, the hospital registered, and the environment the Python scripts
// read.
#ifndef DPQ_TESTS_INTEGRATION_HTTP_FIXTURE_H_
#define DPQ_TESTS_INTEGRATION_HTTP_FIXTURE_H_

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {

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

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_HTTP_FIXTURE_H_
