// The web console against a real dpq-server in Debian's Chromium: this
// test starts the server (plaintext, --insecure, with --http-listen),
// registers the hospital and a dataset whose description is markup,
// creates the buyer alice with epsilon 5, then runs
// tests/browser/console_test.py (its docstring lists the cases) and
// asserts that every case passed and that the screenshots were written.
#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

constexpr char kXssDescription[] = "<img src=x onerror=\"window.__xss=1\">";

class ConsoleBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<ServerProcess>> server =
        ServerProcess::Start(
            {"--data-dir", dir_.Sub("data"), "--listen", "127.0.0.1:0",
             "--insecure", "--http-listen", "127.0.0.1:0"},
            dir_.Sub("server.log"));
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    port_ = HttpPortInLog(server_->Log());
    ASSERT_GT(port_, 0) << server_->Log();
    admin_ = ReadFileOrEmpty(dir_.Sub("data/admin.token"));
    while (!admin_.empty() && admin_.back() == '\n') admin_.pop_back();
    client_ = std::make_unique<Client>(grpc::CreateChannel(
        server_->address(), grpc::InsecureChannelCredentials()));
    ASSERT_THAT(client_->RegisterHospital(admin_, "hospital"), GrpcOk());
    v1::DatasetManifest xss = PeopleManifest();
    xss.set_dataset_id("xssdata");
    xss.set_description(kXssDescription);
    v1::RegisterDatasetResponse registered;
    ASSERT_THAT(client_->Register(admin_, xss, PeopleCsv(), &registered),
                GrpcOk());
    absl::StatusOr<std::string> alice = client_->CreateBuyer(admin_, "alice");
    ASSERT_TRUE(alice.ok()) << alice.status();
    alice_ = *alice;
    ASSERT_THAT(client_->Grant(admin_, "alice", "hospital", 5), GrpcOk());
  }

  void TearDown() override {
    client_.reset();
    if (server_ != nullptr) {
      EXPECT_EQ(server_->Terminate(), 0) << server_->Log();
    }
  }

  TempDir dir_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<Client> client_;
  std::string admin_;
  std::string alice_;
  int port_ = 0;
};

TEST_F(ConsoleBrowserTest, BuyerBuysAndAdminGrantsAndRevokesInChromium) {
  const std::string shots = DPQ_BROWSER_ARTIFACTS_DIR;
  std::filesystem::remove_all(shots);
  std::filesystem::create_directories(shots);
  const CommandResult r = RunCommand(
      {"/usr/bin/python3",
       absl::StrCat(kSourceDir, "/tests/browser/console_test.py"), "-v"},
      {{"PYTHONDONTWRITEBYTECODE", "1"},
       {"DPQ_TEST_HTTP_URL", absl::StrCat("http://127.0.0.1:", port_)},
       {"DPQ_TEST_ADMIN_TOKEN", admin_},
       {"DPQ_TEST_BUYER_TOKEN", alice_},
       {"DPQ_TEST_SCREENSHOT_DIR", shots},
       {"DPQ_TEST_XSS_DATASET", "xssdata"}},
      std::chrono::seconds(180));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << "\nserver log:\n"
                            << server_->Log();
  EXPECT_THAT(r.err, HasSubstr("\nOK"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("skipped")));
  for (const char* png : {"buyer.png", "buyer-phone.png", "admin.png"}) {
    const std::string bytes = ReadFileOrEmpty(absl::StrCat(shots, "/", png));
    EXPECT_GT(bytes.size(), 1000u) << png;
    EXPECT_EQ(bytes.substr(0, 4), "\x89PNG") << png;
  }
}

}  // namespace
}  // namespace dpq::integration
