// Integration-test harness: runs the REAL dpq-server binary as a child
// process on loopback (`--listen 127.0.0.1:0`, address parsed from its
// "dpq-server listening on HOST:PORT" line), with TLS material from
// deploy/make-certs.sh, and talks to it with the generated dpq.v1 stubs and
// the `dpq` binary.
//
// Not thread-safe unless stated: each test owns its harness objects. The
// stubs themselves may be used from many threads.
#ifndef DPQ_TESTS_INTEGRATION_HARNESS_H_
#define DPQ_TESTS_INTEGRATION_HARNESS_H_

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/temp_dir.h"

namespace dpq::integration {

// Paths of the binaries under test and of the source tree (set by CMake).
inline constexpr char kServerBinary[] = DPQ_SERVER_BINARY;
inline constexpr char kClientBinary[] = DPQ_CLIENT_BINARY;
inline constexpr char kSourceDir[] = DPQ_SOURCE_DIR;

// The shared test helpers, by their short names in every integration test.
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::TempDir;
using ::dpq::testing::WriteFileOrDie;

// The output of a finished child process.
struct CommandResult {
  // Exit status, or 128 + signal if it was killed; -1 if it could not run
  // or timed out (it is then killed).
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] (a path) with argv, waits at most `timeout`. `env` entries
// are added to (or replace) the parent's environment; a value of "" with
// key prefixed by '-' (e.g. "-DPQ_TOKEN") removes that variable.
CommandResult RunCommand(
    const std::vector<std::string>& argv,
    const std::map<std::string, std::string>& env = {},
    std::chrono::seconds timeout = std::chrono::seconds(60));

// Dev TLS material made by deploy/make-certs.sh.
struct Certs {
  std::string dir;
  std::string ca() const { return dir + "/ca.pem"; }
  std::string server_cert() const { return dir + "/server.pem"; }
  std::string server_key() const { return dir + "/server.key"; }
  std::string client_cert() const { return dir + "/client.pem"; }
  std::string client_key() const { return dir + "/client.key"; }
};
absl::StatusOr<Certs> MakeCerts(const std::string& dir);

// A running dpq-server child process. The destructor SIGKILLs it if it is
// still running.
class ServerProcess {
 public:
  // Starts `dpq-server args...` with stderr (and stdout) going to
  // `log_path` (appended), and waits up to 60 s for the listening line.
  static absl::StatusOr<std::unique_ptr<ServerProcess>> Start(
      const std::vector<std::string>& args, const std::string& log_path);
  ~ServerProcess();

  // HOST:PORT from the listening line.
  const std::string& address() const { return address_; }
  pid_t pid() const { return pid_; }
  // Everything the process wrote so far (this start only).
  std::string Log() const;

  // SIGTERM and wait (at most `timeout`, then SIGKILL); the exit status as
  // in CommandResult.
  int Terminate(std::chrono::seconds timeout = std::chrono::seconds(60));
  // SIGKILL and wait.
  void Kill();
  // Sends `signal` without waiting.
  void Signal(int signal);
  bool running() const { return pid_ > 0; }

 private:
  ServerProcess() = default;
  int Wait(std::chrono::seconds timeout);

  pid_t pid_ = -1;
  std::string address_;
  std::string log_path_;
  size_t log_offset_ = 0;
};

// The port of dpq-server's "http on 127.0.0.1:PORT" log line
// (--http-listen 127.0.0.1:0); 0 if the log has none.
int HttpPortInLog(const std::string& log);

// A TLS channel to `address` trusting `ca_pem_path`; with a client
// certificate for mTLS if both paths are given. own_connection: never share
// the TCP connection with another channel (for many-client tests).
std::shared_ptr<grpc::Channel> TlsChannel(
    const std::string& address, const std::string& ca_pem_path,
    const std::string& client_cert_path = "",
    const std::string& client_key_path = "", bool own_connection = false);
std::shared_ptr<grpc::Channel> InsecureChannel(const std::string& address);

// A context with `authorization: Bearer <token>` (none if token is empty)
// and a deadline.
std::unique_ptr<grpc::ClientContext> Context(
    const std::string& token,
    std::chrono::microseconds deadline = std::chrono::seconds(30));

// Checks the standard gRPC health of `service` ("" = the whole server) over
// `channel`, without a token: the reported status, or UNKNOWN when the
// call itself fails (then `call_status`, if given, says why).
grpc::health::v1::HealthCheckResponse::ServingStatus CheckHealth(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    grpc::Status* call_status = nullptr);

// "CODE: message" for failure messages.
std::string Describe(const grpc::Status& status);

// Checks the stderr of a failed `dpq` command: its error line "dpq: ..."
// and at most one more, the details' line "dpq: <REASON>: ..."
// (docs/errors.md). Returns the error line (trailing whitespace removed).
std::string ExpectErrorLines(const std::string& err);

// The raw value of the first "key" in a JSON text (strings unquoted, no
// escapes); nullopt if absent. Enough for the `dpq --json` outputs the CLI
// tests read (cli_test.cc, cli_release_test.cc).
std::optional<std::string> JsonField(const std::string& json,
                                     const std::string& key);
// JsonField as a number; a test failure (and -1e300) if it is absent or not
// a number.
double JsonNumber(const std::string& json, const std::string& key);

// Matches a grpc::Status with the given code and a message matcher.
MATCHER_P2(GrpcIs, code, message_matcher,
           "has gRPC code " + ::testing::PrintToString(code)) {
  if (arg.error_code() != code) {
    *result_listener << "whose status is " << Describe(arg);
    return false;
  }
  return ::testing::ExplainMatchResult(message_matcher, arg.error_message(),
                                       result_listener);
}
MATCHER(GrpcOk, "is OK") {
  *result_listener << "whose status is " << Describe(arg);
  return arg.ok();
}

// The demo dataset shipped in deploy/demo (1,000 rows, 15 DCs).
std::string HospitalCsvPath();
std::string HospitalDcPath();
// deploy/demo/hospital.schema: the demo table's declared column types.
std::string HospitalSchemaPath();
// Its exact I_MI (edges of the conflict graph), as dpq-measure reports it.
inline constexpr uint64_t kHospitalEdges = 11313;
inline constexpr uint64_t kHospitalRows = 1000;
// A string that occurs in the hospital rows but in no metadata: it must
// never appear in any RPC response.
inline constexpr char kHospitalCellValue[] = "callahan eye foundation";

// Stubs plus helpers for the common calls. Every call is authenticated by
// its own token (server/auth/bearer_auth.h), so tokens may share a
// connection: a Client made from a single channel sends every token over
// it (as an L7 proxy or a service acting for many buyers does); one made
// from a channel factory gives every token its own connection (as separate
// client processes do). Every helper uses a fresh ClientContext with the
// given token. Thread-safe.
class Client {
 public:
  using ChannelFactory = std::function<std::shared_ptr<grpc::Channel>()>;
  explicit Client(ChannelFactory factory);
  explicit Client(std::shared_ptr<grpc::Channel> channel);
  ~Client();

  // The channel, and stubs on it, that calls with `token` use.
  grpc::Channel& channel(const std::string& token);
  v1::BuyerService::Stub& buyer(const std::string& token);
  v1::AdminService::Stub& admin(const std::string& token);

  // RegisterDataset with the CSV streamed in chunks of `chunk_bytes`.
  // Register and Replace set wait_for_graph: they return once the conflict
  // graph is built.
  grpc::Status Register(const std::string& token,
                        const v1::DatasetManifest& manifest,
                        const std::string& csv,
                        v1::RegisterDatasetResponse* response,
                        size_t chunk_bytes = 64 * 1024);
  grpc::Status Replace(const std::string& token,
                       const v1::DatasetManifest& manifest,
                       const std::string& csv,
                       v1::ReplaceDatasetResponse* response);
  // Registers deploy/demo/hospital.* as `dataset_id` (N = 2000).
  grpc::Status RegisterHospital(const std::string& admin_token,
                                const std::string& dataset_id);
  // CreateBuyer; returns its token.
  absl::StatusOr<std::string> CreateBuyer(const std::string& admin_token,
                                          const std::string& name);
  grpc::Status Grant(const std::string& admin_token, const std::string& buyer,
                     const std::string& dataset, double epsilon);
  grpc::Status Measure(
      const std::string& token, const std::string& dataset, v1::Measure measure,
      double epsilon, const std::string& request_id,
      v1::MeasureInconsistencyResponse* response,
      std::chrono::microseconds deadline = std::chrono::seconds(30));
  // The caller's budget on `dataset` (all zero if none).
  absl::StatusOr<v1::Budget> Budget(const std::string& token,
                                    const std::string& dataset);
  // Ledger entries (admin view) of the filter, newest first.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger(
      const std::string& admin_token, const std::string& buyer,
      const std::string& dataset);

 private:
  struct Connection;
  Connection& For(const std::string& token);

  ChannelFactory factory_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<Connection>> connections_;
  std::unique_ptr<Connection> shared_;
};

// The manifest RegisterHospital uses.
v1::DatasetManifest HospitalManifest(const std::string& dataset_id);

// One server with its data dir and certificates, the admin token and a
// client: what most tests start from.
class ServerFixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts (or restarts) the server on data_dir() with TLS and `extra`
  // arguments; reads the admin token.
  void StartServer(const std::vector<std::string>& extra = {});
  // Closes client_'s connections, SIGTERMs the server and waits; its exit
  // status.
  int StopServer();
  std::string data_dir() const { return dir_.Sub("data"); }
  std::string log_path() const { return dir_.Sub("server.log"); }
  // A new buyer `name` with `epsilon` granted on `dataset`; its token, or
  // "" after a test failure.
  std::string NewBuyer(const std::string& name, const std::string& dataset,
                       double epsilon);
  // `dpq --server ADDRESS --ca CA args...` with DPQ_TOKEN = token (unset
  // if empty).
  CommandResult Dpq(const std::vector<std::string>& args,
                    const std::string& token = "");

  TempDir dir_;
  Certs certs_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<Client> client_;
  std::string admin_token_;
};

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_HARNESS_H_
