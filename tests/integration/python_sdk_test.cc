// The Python SDK (client/python/dpq_client) against the real server: a
// ServerFixture registers three datasets and creates buyers, then
// /usr/bin/python3 runs tests/integration/python_sdk_test.py (unittest),
// which connects with TLS and the buyers' tokens from the environment and
// drives every buyer call, the retries and the errors (its docstring lists
// the cases). This test asserts that the script passed all of them.
#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

class PythonSdkTest : public ServerFixture {};

TEST_F(PythonSdkTest, UnittestsPassAgainstTheRealServer) {
  v1::RegisterDatasetResponse people, net;
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  ASSERT_THAT(
      client_->Register(admin_token_, PeopleManifest(), PeopleCsv(), &people),
      GrpcOk());
  ASSERT_THAT(client_->Register(admin_token_, NetManifest(), kEdges, &net),
              GrpcOk());
  // alice: the exact-budget arithmetic only; dave: releases, replays,
  // retries; carol: a budget to exhaust; bob: nothing granted.
  std::map<std::string, std::string> env = {
      {"PYTHONPATH", DPQ_PYTHON_PATH},
      {"PYTHONDONTWRITEBYTECODE", "1"},
      {"GRPC_VERBOSITY", "NONE"},  // no handshake-failure lines on stderr
      {"DPQ_TEST_SERVER", server_->address()},
      {"DPQ_TEST_CA", certs_.ca()},
      {"DPQ_TEST_TOKEN_ALICE", NewBuyer("alice", "hospital", 20)},
      {"DPQ_TEST_TOKEN_CAROL", NewBuyer("carol", "hospital", 1)},
      {"DPQ_TEST_TOKEN_DAVE", NewBuyer("dave", "people", 10)},
  };
  ASSERT_THAT(client_->Grant(admin_token_, "dave", "net", 5), GrpcOk());
  absl::StatusOr<std::string> bob = client_->CreateBuyer(admin_token_, "bob");
  ASSERT_TRUE(bob.ok()) << bob.status();
  env["DPQ_TEST_TOKEN_BOB"] = *bob;
  const std::string token_file = dir_.Sub("dave.token");
  WriteFileOrDie(token_file, env["DPQ_TEST_TOKEN_DAVE"] + "\n");
  env["DPQ_TEST_TOKEN_FILE_DAVE"] = token_file;

  const CommandResult r = RunCommand(
      {"/usr/bin/python3",
       absl::StrCat(kSourceDir, "/tests/integration/python_sdk_test.py")},
      env, std::chrono::seconds(240));
  // unittest reports on stderr; print it for the log either way.
  std::cout << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << "server log:\n" << server_->Log();
  EXPECT_THAT(r.err, HasSubstr("\nOK"));
}

// Runs `code` under /usr/bin/python3 with the SDK on PYTHONPATH and `env`.
CommandResult Python(const std::string& code,
                     std::map<std::string, std::string> env) {
  env["PYTHONPATH"] = DPQ_PYTHON_PATH;
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env["GRPC_VERBOSITY"] = "NONE";  // no handshake-failure lines on stderr
  return RunCommand({"/usr/bin/python3", "-c", code}, env);
}

// The transports the SDK's Client takes besides server-only TLS: plaintext
// (the token in call metadata), mutual TLS, and a server name override.
constexpr char kTransportsScript[] = R"(
import os, dpq_client
a, t, ca, mode = (os.environ[k] for k in ("ADDR", "TOKEN", "CA", "MODE"))
def attempt(**kw):
    try:
        with dpq_client.Client(a, retries=0, **kw) as c:
            return "ok %d" % len(c.list_datasets())
    except dpq_client.DpqError as e:
        return e.code.name
if mode == "plaintext":
    print("token:", attempt(token=t, insecure=True))
    print("none:", attempt(insecure=True))
else:
    cert = dict(client_cert_file=os.environ["CERT"], client_key_file=os.environ["KEY"])
    print("cert:", attempt(token=t, ca_file=ca, server_name="localhost", **cert))
    print("no cert:", attempt(token=t, ca_file=ca))
    print("wrong name:", attempt(token=t, ca_file=ca, server_name="wrong.example", **cert))
)";

TEST_F(PythonSdkTest, PlaintextAndMutualTls) {
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  ASSERT_EQ(StopServer(), 0);
  for (const std::string mode : {"plaintext", "mtls"}) {
    SCOPED_TRACE(mode);
    std::vector<std::string> args = {"--data-dir", data_dir(), "--listen",
                                     "127.0.0.1:0"};
    if (mode == "plaintext") {
      args.push_back("--insecure");
    } else {
      args.insert(args.end(),
                  {"--tls-cert", certs_.server_cert(), "--tls-key",
                   certs_.server_key(), "--client-ca", certs_.ca()});
    }
    absl::StatusOr<std::unique_ptr<ServerProcess>> server =
        ServerProcess::Start(args, log_path());
    ASSERT_TRUE(server.ok()) << server.status();
    const CommandResult r =
        Python(kTransportsScript, {{"ADDR", (*server)->address()},
                                   {"TOKEN", admin_token_},
                                   {"CA", certs_.ca()},
                                   {"CERT", certs_.client_cert()},
                                   {"KEY", certs_.client_key()},
                                   {"MODE", mode}});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (mode == "plaintext") {
      EXPECT_EQ(r.out, "token: ok 1\nnone: UNAUTHENTICATED\n") << r.err;
    } else {
      EXPECT_EQ(r.out,
                "cert: ok 1\nno cert: UNAVAILABLE\nwrong name: UNAVAILABLE\n")
          << r.err;
    }
    EXPECT_EQ((*server)->Terminate(), 0);
  }
}

}  // namespace
}  // namespace dpq::integration
