// The real dpq-server binary (build/bin/dpq-server), started with fork/exec:
// first-start messages, admin token file, request log lines, flag errors,
// config file, and the SIGTERM/SIGINT drain with exit code 0.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server {
namespace {

using ::dpq::testing::TestServer;
using ::testing::HasSubstr;
using ::testing::Not;

// A child process with its stderr collected by a thread.
class Process {
 public:
  explicit Process(std::vector<std::string> args) {
    args.insert(args.begin(), DPQ_SERVER_BINARY);
    int err[2];
    int out[2];
    if (pipe(err) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(err[1], 2);
      dup2(out[1], 1);
      close(err[0]);
      close(err[1]);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(err[1]);
    close(out[1]);
    readers_.emplace_back([this, fd = err[0]] { Drain(fd, &stderr_); });
    readers_.emplace_back([this, fd = out[0]] { Drain(fd, &stdout_); });
  }

  ~Process() {
    if (pid_ > 0 && !exit_code_.has_value()) {
      kill(pid_, SIGKILL);
      Wait();
    }
    for (std::thread& reader : readers_) reader.join();
  }

  // Waits until stderr contains `text`; false after `timeout`.
  bool WaitForStderr(const std::string& text,
                     absl::Duration timeout = absl::Seconds(30)) {
    absl::MutexLock lock(&mu_);
    auto found = [this, &text]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return absl::StrContains(stderr_, text) || closed_ == 2;
    };
    mu_.AwaitWithTimeout(absl::Condition(&found), timeout);
    return absl::StrContains(stderr_, text);
  }

  // The port from "dpq-server listening on HOST:PORT", or 0.
  int Port() {
    if (!WaitForStderr("dpq-server listening on ")) return 0;
    absl::MutexLock lock(&mu_);
    const size_t at = stderr_.find("dpq-server listening on ");
    const size_t end = stderr_.find('\n', at);
    const std::string address = stderr_.substr(at + 24, end - at - 24);
    int port = 0;
    if (!absl::SimpleAtoi(address.substr(address.rfind(':') + 1), &port)) {
      return 0;
    }
    return port;
  }

  // Exit code (or 128 + signal); kills the child after 60 s.
  int Wait() {
    if (exit_code_.has_value()) return *exit_code_;
    int status = 0;
    const absl::Time give_up = absl::Now() + absl::Seconds(60);
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (absl::Now() > give_up) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      absl::SleepFor(absl::Milliseconds(10));
    }
    exit_code_ =
        WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return *exit_code_;
  }

  void Signal(int signal_number) { kill(pid_, signal_number); }

  std::string Stderr() {
    absl::MutexLock lock(&mu_);
    return stderr_;
  }
  std::string Stdout() {
    absl::MutexLock lock(&mu_);
    return stdout_;
  }

 private:
  void Drain(int fd, std::string* into) {
    char buffer[4096];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof(buffer))) > 0) {
      absl::MutexLock lock(&mu_);
      into->append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    absl::MutexLock lock(&mu_);
    ++closed_;
  }

  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::vector<std::thread> readers_;
  absl::Mutex mu_;
  std::string stderr_ ABSL_GUARDED_BY(mu_);
  std::string stdout_ ABSL_GUARDED_BY(mu_);
  int closed_ ABSL_GUARDED_BY(mu_) = 0;
};

std::shared_ptr<grpc::Channel> Channel(int port) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", port),
                                   grpc::InsecureChannelCredentials(), args);
}

grpc::Status ListBuyers(int port, const std::string& token) {
  grpc::ClientContext context;
  TestServer::Authorize(context, token, absl::Seconds(10));
  v1::ListBuyersResponse response;
  return v1::AdminService::NewStub(Channel(port))
      ->ListBuyers(&context, {}, &response);
}

class ServerBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.empty());
    data_ = dir_ + "/data";
  }

  std::unique_ptr<Process> StartInsecure() {
    return std::make_unique<Process>(
        std::vector<std::string>{"--data-dir", data_, "--listen", "127.0.0.1:0",
                                 "--insecure", "--drain-seconds", "20"});
  }

  dpq::testing::TempDir temp_dir_{"dpq-binary"};
  const std::string dir_ = temp_dir_.path();
  std::string data_;
};

TEST_F(ServerBinaryTest, FirstStartCreatesTheAdminTokenAndSigtermDrains) {
  auto server = StartInsecure();
  const int port = server->Port();
  ASSERT_GT(port, 0) << server->Stderr();
  EXPECT_THAT(server->Stderr(),
              HasSubstr(absl::StrCat("dpq-server: created admin token in ",
                                     data_, "/admin.token")));
  EXPECT_THAT(server->Stderr(), HasSubstr("WARNING"));
  struct stat info;
  ASSERT_EQ(stat((data_ + "/admin.token").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  ASSERT_EQ(stat(data_.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700);
  const std::string token(absl::StripAsciiWhitespace(
      dpq::testing::ReadFileOrEmpty(data_ + "/admin.token")));

  ASSERT_TRUE(ListBuyers(port, token).ok());
  // One request log line, without the token.
  EXPECT_TRUE(server->WaitForStderr(
      "rpc=AdminService.ListBuyers principal=admin dataset=- epsilon=0 "
      "status=OK"));
  EXPECT_THAT(server->Stderr(), Not(HasSubstr(token)));

  // An upload in flight when SIGTERM arrives still completes.
  grpc::ClientContext context;
  TestServer::Authorize(context, token);
  v1::RegisterDatasetResponse response;
  auto stub = v1::AdminService::NewStub(Channel(port));
  auto writer = stub->RegisterDataset(&context, &response);
  v1::RegisterDatasetRequest header;
  header.mutable_header()->mutable_manifest()->set_dataset_id("drained");
  header.mutable_header()->mutable_manifest()->set_public_max_rows(10);
  header.mutable_header()->mutable_manifest()->set_infer_column_types(true);
  header.mutable_header()->mutable_manifest()->set_constraints("a -> b");
  ASSERT_TRUE(writer->Write(header));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server->Signal(SIGTERM);
  ASSERT_TRUE(server->WaitForStderr("SIGTERM received"));
  v1::RegisterDatasetRequest chunk;
  chunk.set_csv_chunk("a,b\n1,2\n3,4\n");
  ASSERT_TRUE(writer->Write(chunk));
  writer->WritesDone();
  const grpc::Status finished = writer->Finish();
  EXPECT_TRUE(finished.ok()) << finished.error_message();
  EXPECT_EQ(response.stats().rows(), 2u);
  EXPECT_EQ(server->Wait(), 0) << server->Stderr();
  EXPECT_THAT(server->Stderr(), HasSubstr("dpq-server: stopped"));

  // A restart keeps the token and the dataset, and says nothing about a
  // new token; SIGINT also drains and exits 0.
  auto again = StartInsecure();
  const int port2 = again->Port();
  ASSERT_GT(port2, 0) << again->Stderr();
  EXPECT_THAT(again->Stderr(), Not(HasSubstr("created admin token")));
  EXPECT_EQ(absl::StripAsciiWhitespace(
                dpq::testing::ReadFileOrEmpty(data_ + "/admin.token")),
            token);
  EXPECT_TRUE(ListBuyers(port2, token).ok());
  EXPECT_TRUE(
      std::filesystem::exists(data_ + "/datasets/drained/manifest.json"));
  again->Signal(SIGINT);
  EXPECT_EQ(again->Wait(), 0) << again->Stderr();
}

TEST_F(ServerBinaryTest, ConfigFileIsRead) {
  const std::string config = dir_ + "/dpq.conf";
  std::ofstream(config) << "# test\nlisten = 127.0.0.1:0\ninsecure = true\n"
                        << "data_dir = " << data_ << "\n";
  Process server({"--config", config});
  ASSERT_GT(server.Port(), 0) << server.Stderr();
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait(), 0);
}

TEST_F(ServerBinaryTest, UsageErrorsExitTwo) {
  {
    Process server({"--bogus", "1"});
    EXPECT_EQ(server.Wait(), 2);
    EXPECT_TRUE(server.WaitForStderr("Unknown flag --bogus"));
  }
  {
    Process server({"--data-dir", data_, "--listen", "127.0.0.1:0"});
    EXPECT_EQ(server.Wait(), 2);
    EXPECT_TRUE(server.WaitForStderr("tls_cert is missing"));
  }
  {
    Process server({"--data-dir", data_, "--insecure", "--tls-key", "/k"});
    EXPECT_EQ(server.Wait(), 2);
    EXPECT_TRUE(server.WaitForStderr("insecure excludes TLS"));
  }
  {
    const std::string config = dir_ + "/bad.conf";
    std::ofstream(config) << "listen = 127.0.0.1:0\nthreads = 4\n";
    Process server({"--config", config});
    EXPECT_EQ(server.Wait(), 2);
    EXPECT_TRUE(server.WaitForStderr("line 2: Unknown setting 'threads'"));
  }
}

TEST_F(ServerBinaryTest, UnreadableCertificateExitsOneNamingTheFile) {
  Process server({"--data-dir", data_, "--listen", "127.0.0.1:0", "--tls-cert",
                  "/no/such/server.pem", "--tls-key", "/no/such/server.key"});
  EXPECT_EQ(server.Wait(), 1);
  EXPECT_TRUE(server.WaitForStderr("tls_cert '/no/such/server.pem'"));
}

// The metrics listener starts only after every check: a start that a bad
// setting (here an import_dir that does not exist) stops never listened
// for scrapes, so no monitoring sees a server that is not there.
TEST_F(ServerBinaryTest, ABadConfigurationNeverStartsTheMetricsListener) {
  Process server({"--data-dir", data_, "--listen", "127.0.0.1:0", "--insecure",
                  "--metrics-listen", "127.0.0.1:0", "--import-dir",
                  dir_ + "/no-such-dir"});
  EXPECT_EQ(server.Wait(), 1);
  EXPECT_TRUE(server.WaitForStderr("import_dir"));
  EXPECT_THAT(server.Stderr(), Not(HasSubstr("metrics on ")));
  // A malformed metrics address is still refused at once.
  Process bad({"--data-dir", data_, "--listen", "127.0.0.1:0", "--insecure",
               "--metrics-listen", "localhost"});
  EXPECT_NE(bad.Wait(), 0);
  EXPECT_TRUE(bad.WaitForStderr("metrics_listen must be a numeric"));
}

TEST_F(ServerBinaryTest, PortInUseIsAClearError) {
  auto first = StartInsecure();
  const int port = first->Port();
  ASSERT_GT(port, 0);
  Process second({"--data-dir", dir_ + "/other", "--listen",
                  absl::StrCat("127.0.0.1:", port), "--insecure"});
  EXPECT_EQ(second.Wait(), 1);
  EXPECT_TRUE(second.WaitForStderr("Cannot listen on"));
  first->Signal(SIGTERM);
  EXPECT_EQ(first->Wait(), 0);
}

TEST_F(ServerBinaryTest, HelpPrintsUsage) {
  Process server({"--help"});
  EXPECT_EQ(server.Wait(), 0);
  server.WaitForStderr("never", absl::Milliseconds(200));
  EXPECT_THAT(server.Stdout(), HasSubstr("Usage: dpq-server"));
}

}  // namespace
}  // namespace dpq::server
