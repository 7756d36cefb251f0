#include "tests/integration/harness.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <regex>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

extern char** environ;

namespace dpq::integration {
namespace {

using Clock = std::chrono::steady_clock;

// gRPC clients poll idle connections only every 5 s by default, so a
// server's GOAWAY on shutdown would wait that long for this process to
// close its idle connections. Poll more often (read at grpc_init).
const bool kFastBackupPoll = [] {
  ::setenv("GRPC_CLIENT_CHANNEL_BACKUP_POLL_INTERVAL_MS", "50", 0);
  return true;
}();

int DecodeWaitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Builds the child's environment from ours plus overrides.
std::vector<std::string> ChildEnvironment(
    const std::map<std::string, std::string>& overrides) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  // Our own gRPC tuning (kFastBackupPoll) is not the children's business.
  env.erase("GRPC_CLIENT_CHANNEL_BACKUP_POLL_INTERVAL_MS");
  for (const auto& [key, value] : overrides) {
    if (!key.empty() && key[0] == '-') {
      env.erase(key.substr(1));
    } else {
      env[key] = value;
    }
  }
  std::vector<std::string> out;
  for (const auto& [key, value] : env) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// In the child, after fork: only async-signal-safe calls, then exec.
[[noreturn]] void ExecChild(int out_fd, int err_fd, char* const argv[],
                            char* const envp[]) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  ::execve(argv[0], argv, envp);
  static const char kMsg[] = "exec failed\n";
  (void)!::write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
  ::_exit(127);
}

// waitpid with a timeout; SIGKILLs the child when it expires.
int WaitFor(pid_t pid, std::chrono::milliseconds timeout, bool* timed_out) {
  const auto end = Clock::now() + timeout;
  *timed_out = false;
  while (true) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return DecodeWaitStatus(status);
    if (r < 0 && errno != EINTR) return -1;
    if (Clock::now() >= end) {
      *timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string Trimmed(const std::string& s) {
  return std::string(absl::StripAsciiWhitespace(s));
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env,
                         std::chrono::seconds timeout) {
  CommandResult result;
  TempDir io;
  const std::string out_path = io.Sub("out");
  const std::string err_path = io.Sub("err");
  const int out_fd =
      ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd =
      ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out_fd < 0 || err_fd < 0) {
    result.err = "cannot create output files";
    return result;
  }
  std::vector<std::string> args = argv;
  std::map<std::string, std::string> child_env = env;
  if (!argv.empty() && argv[0] == kClientBinary &&
      child_env.count("LSAN_OPTIONS") == 0 &&
      std::getenv("LSAN_OPTIONS") == nullptr) {
    // The dpq client exits while gRPC's TLS threads wind down, like this
    // process: the same OpenSSL per-thread error state (lsan_suppressions.cc).
    // print_suppressions=0: a matched suppression is otherwise listed on
    // stderr at exit, lines that the one-line error checks would count
    // (seen in CliTest.ExactRepairDatasetReleasesTheExactCoverAcrossARestart
    // under ASan with two tests at a time).
    child_env["LSAN_OPTIONS"] = absl::StrCat(
        "suppressions=", kSourceDir,
        "/tests/integration/lsan_client.supp:print_suppressions=0");
  }
  std::vector<std::string> envs = ChildEnvironment(child_env);
  std::vector<char*> c_args = CStrings(args);
  std::vector<char*> c_env = CStrings(envs);
  const pid_t pid = ::fork();
  if (pid == 0) ExecChild(out_fd, err_fd, c_args.data(), c_env.data());
  ::close(out_fd);
  ::close(err_fd);
  if (pid < 0) {
    result.err = absl::StrCat("fork: ", std::strerror(errno));
    return result;
  }
  bool timed_out = false;
  result.exit_code = WaitFor(pid, timeout, &timed_out);
  result.out = ReadFileOrEmpty(out_path);
  result.err = ReadFileOrEmpty(err_path);
  if (timed_out) {
    absl::StrAppend(&result.err, "\n[timed out after ", timeout.count(),
                    " s: ", absl::StrJoin(argv, " "), "]");
  }
  return result;
}

absl::StatusOr<Certs> MakeCerts(const std::string& dir) {
  const CommandResult r = RunCommand(
      {"/bin/bash", absl::StrCat(kSourceDir, "/deploy/make-certs.sh"), dir});
  if (r.exit_code != 0) {
    return absl::InternalError(absl::StrCat(
        "deploy/make-certs.sh ", dir, " failed (", r.exit_code, "): ", r.err));
  }
  return Certs{dir};
}

absl::StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(
    const std::vector<std::string>& args, const std::string& log_path) {
  std::unique_ptr<ServerProcess> p(new ServerProcess());
  p->log_path_ = log_path;
  const int log_fd =
      ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log_fd < 0) {
    return absl::InternalError(absl::StrCat("cannot open ", log_path));
  }
  struct stat st;
  p->log_offset_ = ::fstat(log_fd, &st) == 0 ? st.st_size : 0;
  std::vector<std::string> argv = {kServerBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envs = ChildEnvironment({});
  std::vector<char*> c_args = CStrings(argv);
  std::vector<char*> c_env = CStrings(envs);
  const pid_t pid = ::fork();
  if (pid == 0) ExecChild(log_fd, log_fd, c_args.data(), c_env.data());
  ::close(log_fd);
  if (pid < 0) return absl::InternalError("fork failed");
  p->pid_ = pid;

  static constexpr char kListening[] = "dpq-server listening on ";
  const auto end = Clock::now() + std::chrono::seconds(60);
  while (Clock::now() < end) {
    const std::string log = p->Log();
    const size_t at = log.find(kListening);
    if (at != std::string::npos) {
      const size_t start = at + std::strlen(kListening);
      const size_t eol = log.find('\n', start);
      if (eol != std::string::npos) {
        p->address_ = Trimmed(log.substr(start, eol - start));
        return p;
      }
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      p->pid_ = -1;
      return absl::FailedPreconditionError(
          absl::StrCat("dpq-server exited with status ",
                       DecodeWaitStatus(status), " before listening: ", log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "dpq-server did not report listening within 60 s: ", p->Log()));
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) Kill();
}

std::string ServerProcess::Log() const {
  const std::string all = ReadFileOrEmpty(log_path_);
  return all.size() > log_offset_ ? all.substr(log_offset_) : std::string();
}

int ServerProcess::Wait(std::chrono::seconds timeout) {
  bool timed_out = false;
  const int code = WaitFor(pid_, timeout, &timed_out);
  pid_ = -1;
  return code;
}

int ServerProcess::Terminate(std::chrono::seconds timeout) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  return Wait(timeout);
}

void ServerProcess::Signal(int signal) {
  if (pid_ > 0) ::kill(pid_, signal);
}

void ServerProcess::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::shared_ptr<grpc::Channel> TlsChannel(const std::string& address,
                                          const std::string& ca_pem_path,
                                          const std::string& client_cert_path,
                                          const std::string& client_key_path,
                                          bool own_connection) {
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = ReadFileOrEmpty(ca_pem_path);
  if (!client_cert_path.empty() && !client_key_path.empty()) {
    ssl.pem_cert_chain = ReadFileOrEmpty(client_cert_path);
    ssl.pem_private_key = ReadFileOrEmpty(client_key_path);
  }
  grpc::ChannelArguments args;
  if (own_connection) args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(address, grpc::SslCredentials(ssl), args);
}

std::shared_ptr<grpc::Channel> InsecureChannel(const std::string& address) {
  return grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
}

std::unique_ptr<grpc::ClientContext> Context(
    const std::string& token, std::chrono::microseconds deadline) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) context->AddMetadata("authorization", "Bearer " + token);
  context->set_deadline(std::chrono::system_clock::now() + deadline);
  return context;
}

grpc::health::v1::HealthCheckResponse::ServingStatus CheckHealth(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    grpc::Status* call_status) {
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  auto context = Context("", std::chrono::seconds(10));
  const grpc::Status status = stub->Check(context.get(), request, &response);
  if (call_status != nullptr) *call_status = status;
  return status.ok() ? response.status()
                     : grpc::health::v1::HealthCheckResponse::UNKNOWN;
}

std::string ExpectErrorLines(const std::string& err) {
  const std::string text(absl::StripTrailingAsciiWhitespace(err));
  const size_t newline = text.find('\n');
  EXPECT_TRUE(absl::StartsWith(text, "dpq: ")) << text;
  if (newline == std::string::npos) return text;
  const std::string details = text.substr(newline + 1);
  EXPECT_TRUE(absl::StartsWith(details, "dpq: ")) << text;
  EXPECT_EQ(details.find('\n'), std::string::npos)
      << "two lines at most: " << text;
  return text.substr(0, newline);
}

std::optional<std::string> JsonField(const std::string& json,
                                     const std::string& key) {
  const std::regex re("\"" + key +
                      "\"\\s*:\\s*(\"([^\"]*)\"|[-+0-9.eE]+|true|false|null)");
  std::smatch m;
  if (!std::regex_search(json, m, re)) return std::nullopt;
  return m[2].matched ? m[2].str() : m[1].str();
}

double JsonNumber(const std::string& json, const std::string& key) {
  const std::optional<std::string> v = JsonField(json, key);
  double d = -1e300;
  EXPECT_TRUE(v.has_value() && absl::SimpleAtod(*v, &d))
      << "no number \"" << key << "\" in " << json;
  return d;
}

std::string Describe(const grpc::Status& status) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int code = status.error_code();
  const char* name = code >= 0 && code <= 16 ? kNames[code] : "?";
  return absl::StrCat(name, ": ", status.error_message());
}

std::string HospitalCsvPath() {
  return absl::StrCat(kSourceDir, "/deploy/demo/hospital.csv");
}
std::string HospitalDcPath() {
  return absl::StrCat(kSourceDir, "/deploy/demo/hospital.dc");
}
std::string HospitalSchemaPath() {
  return absl::StrCat(kSourceDir, "/deploy/demo/hospital.schema");
}

v1::DatasetManifest HospitalManifest(const std::string& dataset_id) {
  v1::DatasetManifest m;
  m.set_dataset_id(dataset_id);
  m.set_description("HoloClean hospital benchmark (integration test)");
  m.set_constraints(ReadFileOrEmpty(HospitalDcPath()));
  m.set_public_max_rows(2000);
  m.set_infer_column_types(true);
  return m;
}

struct Client::Connection {
  explicit Connection(std::shared_ptr<grpc::Channel> c)
      : channel(std::move(c)),
        buyer(v1::BuyerService::NewStub(channel)),
        admin(v1::AdminService::NewStub(channel)) {}
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::BuyerService::Stub> buyer;
  std::unique_ptr<v1::AdminService::Stub> admin;
};

Client::Client(ChannelFactory factory) : factory_(std::move(factory)) {}
Client::Client(std::shared_ptr<grpc::Channel> channel)
    : shared_(std::make_unique<Connection>(std::move(channel))) {}
Client::~Client() = default;

Client::Connection& Client::For(const std::string& token) {
  if (shared_ != nullptr) return *shared_;
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<Connection>& c = connections_[token];
  if (c == nullptr) c = std::make_unique<Connection>(factory_());
  return *c;
}

grpc::Channel& Client::channel(const std::string& token) {
  return *For(token).channel;
}
v1::BuyerService::Stub& Client::buyer(const std::string& token) {
  return *For(token).buyer;
}
v1::AdminService::Stub& Client::admin(const std::string& token) {
  return *For(token).admin;
}

namespace {

// Streams header + chunks through `writer`; returns Finish().
template <typename Request, typename Writer>
grpc::Status Upload(Writer& writer, const v1::DatasetManifest& manifest,
                    const std::string& csv, size_t chunk_bytes) {
  Request header;
  *header.mutable_header()->mutable_manifest() = manifest;
  // The tests check the conflict graph's size in the response: wait for
  // the background build (tests of the background build itself send their
  // own headers).
  header.mutable_header()->set_wait_for_graph(true);
  bool ok = writer->Write(header);
  for (size_t pos = 0; ok && pos < csv.size(); pos += chunk_bytes) {
    Request chunk;
    chunk.set_csv_chunk(csv.substr(pos, chunk_bytes));
    ok = writer->Write(chunk);
  }
  if (ok) writer->WritesDone();
  return writer->Finish();
}

}  // namespace

grpc::Status Client::Register(const std::string& token,
                              const v1::DatasetManifest& manifest,
                              const std::string& csv,
                              v1::RegisterDatasetResponse* response,
                              size_t chunk_bytes) {
  auto context = Context(token);
  auto writer = admin(token).RegisterDataset(context.get(), response);
  return Upload<v1::RegisterDatasetRequest>(writer, manifest, csv, chunk_bytes);
}

grpc::Status Client::Replace(const std::string& token,
                             const v1::DatasetManifest& manifest,
                             const std::string& csv,
                             v1::ReplaceDatasetResponse* response) {
  auto context = Context(token);
  auto writer = admin(token).ReplaceDataset(context.get(), response);
  return Upload<v1::ReplaceDatasetRequest>(writer, manifest, csv, 64 * 1024);
}

grpc::Status Client::RegisterHospital(const std::string& admin_token,
                                      const std::string& dataset_id) {
  v1::RegisterDatasetResponse response;
  return Register(admin_token, HospitalManifest(dataset_id),
                  ReadFileOrEmpty(HospitalCsvPath()), &response);
}

absl::StatusOr<std::string> Client::CreateBuyer(const std::string& admin_token,
                                                const std::string& name) {
  v1::CreateBuyerRequest request;
  request.set_name(name);
  v1::CreateBuyerResponse response;
  auto context = Context(admin_token);
  const grpc::Status s =
      admin(admin_token).CreateBuyer(context.get(), request, &response);
  if (!s.ok()) {
    return absl::InternalError(
        absl::StrCat("CreateBuyer(", name, "): ", Describe(s)));
  }
  return response.token();
}

grpc::Status Client::Grant(const std::string& admin_token,
                           const std::string& buyer, const std::string& dataset,
                           double epsilon) {
  v1::GrantBudgetRequest request;
  request.set_buyer_id(buyer);
  request.set_dataset_id(dataset);
  request.set_epsilon(epsilon);
  v1::GrantBudgetResponse response;
  auto context = Context(admin_token);
  return admin(admin_token).GrantBudget(context.get(), request, &response);
}

grpc::Status Client::Measure(const std::string& token,
                             const std::string& dataset, v1::Measure measure,
                             double epsilon, const std::string& request_id,
                             v1::MeasureInconsistencyResponse* response,
                             std::chrono::microseconds deadline) {
  v1::MeasureInconsistencyRequest request;
  request.set_dataset_id(dataset);
  request.set_measure(measure);
  request.set_epsilon(epsilon);
  request.set_request_id(request_id);
  auto context = Context(token, deadline);
  return buyer(token).MeasureInconsistency(context.get(), request, response);
}

absl::StatusOr<v1::Budget> Client::Budget(const std::string& token,
                                          const std::string& dataset) {
  v1::GetBudgetRequest request;
  request.set_dataset_id(dataset);
  v1::GetBudgetResponse response;
  auto context = Context(token);
  const grpc::Status s =
      buyer(token).GetBudget(context.get(), request, &response);
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat("GetBudget: ", Describe(s)));
  }
  for (const v1::Budget& b : response.budgets()) {
    if (b.dataset_id() == dataset) return b;
  }
  v1::Budget zero;
  zero.set_dataset_id(dataset);
  return zero;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Client::Ledger(
    const std::string& admin_token, const std::string& buyer,
    const std::string& dataset) {
  v1::ListLedgerRequest request;
  request.set_buyer_id(buyer);
  request.set_dataset_id(dataset);
  request.set_limit(10000);
  v1::ListLedgerResponse response;
  auto context = Context(admin_token);
  const grpc::Status s =
      admin(admin_token).ListLedger(context.get(), request, &response);
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat("ListLedger: ", Describe(s)));
  }
  return std::vector<v1::LedgerEntry>(response.entries().begin(),
                                      response.entries().end());
}

int HttpPortInLog(const std::string& log) {
  const std::string marker = "http on 127.0.0.1:";
  const size_t at = log.find(marker);
  if (at == std::string::npos) return 0;
  const size_t start = at + marker.size();
  const size_t end = log.find_first_not_of("0123456789", start);
  int port = 0;
  if (!absl::SimpleAtoi(log.substr(start, end - start), &port)) return 0;
  return port;
}

std::string ServerFixture::NewBuyer(const std::string& name,
                                    const std::string& dataset,
                                    double epsilon) {
  absl::StatusOr<std::string> token = client_->CreateBuyer(admin_token_, name);
  EXPECT_TRUE(token.ok()) << token.status();
  EXPECT_THAT(client_->Grant(admin_token_, name, dataset, epsilon), GrpcOk());
  return token.value_or("");
}

void ServerFixture::SetUp() {
  absl::StatusOr<Certs> certs = MakeCerts(dir_.Sub("certs"));
  ASSERT_TRUE(certs.ok()) << certs.status();
  certs_ = *certs;
  ASSERT_NO_FATAL_FAILURE(StartServer());
}

void ServerFixture::TearDown() {
  if (server_ != nullptr && server_->running()) {
    const std::string log = server_->Log();
    EXPECT_EQ(StopServer(), 0)
        << "dpq-server did not exit cleanly after SIGTERM; its log:\n"
        << log.substr(log.size() > 4000 ? log.size() - 4000 : 0);
  }
}

int ServerFixture::StopServer() {
  // Close our connections first: gRPC's server shutdown otherwise waits
  // seconds for idle client connections to go away.
  client_.reset();
  return server_->Terminate();
}

void ServerFixture::StartServer(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      "--data-dir", data_dir(),           "--listen",  "127.0.0.1:0",
      "--tls-cert", certs_.server_cert(), "--tls-key", certs_.server_key()};
  args.insert(args.end(), extra.begin(), extra.end());
  absl::StatusOr<std::unique_ptr<ServerProcess>> server =
      ServerProcess::Start(args, log_path());
  ASSERT_TRUE(server.ok()) << server.status();
  server_ = *std::move(server);
  admin_token_ = Trimmed(ReadFileOrEmpty(data_dir() + "/admin.token"));
  ASSERT_FALSE(admin_token_.empty()) << "no " << data_dir() << "/admin.token";
  client_ = std::make_unique<Client>(
      [address = server_->address(), ca = certs_.ca()] {
        return TlsChannel(address, ca, "", "", /*own_connection=*/true);
      });
}

CommandResult ServerFixture::Dpq(const std::vector<std::string>& args,
                                 const std::string& token) {
  std::vector<std::string> argv = {kClientBinary, "--server",
                                   server_->address(), "--ca", certs_.ca()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env;
  if (token.empty()) {
    env["-DPQ_TOKEN"] = "";
  } else {
    env["DPQ_TOKEN"] = token;
  }
  return RunCommand(argv, env);
}

}  // namespace dpq::integration
