// The Python SDK (client/python/dpq_client) against the real server: a
// ServerFixture registers three datasets and creates buyers, then
// /usr/bin/python3 runs tests/integration/python_sdk_test.py (unittest),
// which connects with TLS and the buyers' tokens from the environment and
// drives every buyer call, the retries and the errors (its docstring lists
// the cases). The tests assert that the script passed all of them, once
// with the SDK of the build tree and once installed from its wheel.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "tests/integration/harness.h"
#include "tests/integration/small_datasets.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;

// gRPC's C core writes lines such as "E1201 12:00:00.000 ... Handshake
// failed" to stderr; the SDK raises each failure as an exception instead.
void ExpectNoGrpcCoreLines(const std::string& err) {
  for (absl::string_view line : absl::StrSplit(err, '\n')) {
    EXPECT_FALSE(line.size() > 5 && absl::ascii_isupper(line[0]) &&
                 absl::ascii_isdigit(line[1]) && absl::ascii_isdigit(line[4]))
        << "a gRPC core line on stderr: " << line;
  }
}

class PythonSdkTest : public ServerFixture {
 protected:
  // Registers the datasets and buyers python_sdk_test.py expects (its
  // docstring) and runs it with `python`; `env` says where the SDK is.
  void RunSdkTests(const std::string& python,
                   std::map<std::string, std::string> env) {
    v1::RegisterDatasetResponse people, net;
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    ASSERT_THAT(
        client_->Register(admin_token_, PeopleManifest(), PeopleCsv(), &people),
        GrpcOk());
    ASSERT_THAT(client_->Register(admin_token_, NetManifest(), kEdges, &net),
                GrpcOk());
    // alice: the exact-budget arithmetic only; dave: releases, replays,
    // retries; carol: a budget to exhaust; bob: nothing granted; frank:
    // DataFrames; erin: revoked.
    env.insert({
        {"PYTHONDONTWRITEBYTECODE", "1"},
        {"-GRPC_VERBOSITY", ""},  // the SDK itself keeps gRPC's core quiet
        {"DPQ_TEST_SERVER", server_->address()},
        {"DPQ_TEST_CA", certs_.ca()},
        {"DPQ_TEST_TOKEN_ALICE", NewBuyer("alice", "hospital", 20)},
        {"DPQ_TEST_TOKEN_CAROL", NewBuyer("carol", "hospital", 1)},
        {"DPQ_TEST_TOKEN_DAVE", NewBuyer("dave", "people", 10)},
    });
    ASSERT_THAT(client_->Grant(admin_token_, "dave", "net", 5), GrpcOk());
    absl::StatusOr<std::string> bob = client_->CreateBuyer(admin_token_, "bob");
    ASSERT_TRUE(bob.ok()) << bob.status();
    env["DPQ_TEST_TOKEN_BOB"] = *bob;
    // frank: the DataFrame tests.
    env["DPQ_TEST_TOKEN_FRANK"] = NewBuyer("frank", "people", 20);
    ASSERT_THAT(client_->Grant(admin_token_, "frank", "hospital", 10),
                GrpcOk());
    // erin: revoked after her grant.
    env["DPQ_TEST_TOKEN_ERIN"] = NewBuyer("erin", "hospital", 1);
    v1::RevokeBuyerRequest revoke;
    revoke.set_buyer_id("erin");
    v1::RevokeBuyerResponse revoked;
    ASSERT_THAT(client_->admin(admin_token_)
                    .RevokeBuyer(Context(admin_token_).get(), revoke, &revoked),
                GrpcOk());
    const std::string token_file = dir_.Sub("dave.token");
    WriteFileOrDie(token_file, env["DPQ_TEST_TOKEN_DAVE"] + "\n");
    env["DPQ_TEST_TOKEN_FILE_DAVE"] = token_file;

    const CommandResult r = RunCommand(
        {python,
         absl::StrCat(kSourceDir, "/tests/integration/python_sdk_test.py")},
        env, std::chrono::seconds(240));
    // unittest reports on stderr; print it for the log either way.
    std::cout << r.out << r.err;
    EXPECT_EQ(r.exit_code, 0) << "server log:\n" << server_->Log();
    EXPECT_THAT(r.err, HasSubstr("\nOK"));
    ExpectNoGrpcCoreLines(r.err);
  }
};

// The SDK as the build tree assembles it (CMake target dpq_python).
TEST_F(PythonSdkTest, UnittestsPassAgainstTheRealServer) {
  RunSdkTests("/usr/bin/python3", {{"PYTHONPATH", DPQ_PYTHON_PATH}});
}

// Runs argv with `env`, failing the test with its output if it fails.
void MustRun(const std::vector<std::string>& argv,
             const std::map<std::string, std::string>& env) {
  const CommandResult r = RunCommand(argv, env, std::chrono::seconds(180));
  ASSERT_EQ(r.exit_code, 0) << absl::StrJoin(argv, " ") << "\n"
                            << r.out << r.err;
}

// The SDK as a user installs it: a wheel built offline from a copy of
// client/python (so the build writes nothing into the source tree), with
// Debian's pip, setuptools and wheel and no build isolation, installed into
// a fresh venv that sees Debian's grpcio and protobuf through
// --system-site-packages; then the same tests, and the offline ones, run
// with the venv's python and no PYTHONPATH. python_sdk_test.py checks that
// it imported the installed package (DPQ_TEST_INSTALLED_IN).
TEST_F(PythonSdkTest, InstalledWheelPassesTheSameTests) {
#if defined(__SANITIZE_ADDRESS__)
  // The packaging is the same in every build; the sanitized run already
  // drives the same tests against its server from the build tree's SDK.
  GTEST_SKIP() << "the wheel is built and installed by the plain build's run";
#endif
  const std::string src = dir_.Sub("src"), dist = dir_.Sub("dist"),
                    venv = dir_.Sub("venv");
  std::filesystem::copy(absl::StrCat(kSourceDir, "/client/python"), src,
                        std::filesystem::copy_options::recursive);
  const std::map<std::string, std::string> pip_env = {
      {"-PYTHONPATH", ""},
      {"DPQ_SOURCE_ROOT", kSourceDir},
      {"PIP_NO_INDEX", "1"},
      {"PIP_NO_CACHE_DIR", "1"},
      {"PIP_DISABLE_PIP_VERSION_CHECK", "1"},
      {"PYTHONDONTWRITEBYTECODE", "1"}};
  MustRun({"/usr/bin/python3", "-m", "pip", "wheel", "--no-deps",
           "--no-build-isolation", "-w", dist, src},
          pip_env);
  std::vector<std::string> wheels;
  for (const auto& entry : std::filesystem::directory_iterator(dist)) {
    wheels.push_back(entry.path().string());
  }
  ASSERT_EQ(wheels.size(), 1u);
  EXPECT_THAT(wheels[0], HasSubstr("dpq_client-"));
  MustRun({"/usr/bin/python3", "-m", "venv", "--system-site-packages", venv},
          pip_env);
  // With its dependencies checked: Debian's grpcio and protobuf must
  // satisfy the versions the package declares.
  MustRun({venv + "/bin/python", "-m", "pip", "install", wheels[0]}, pip_env);
  MustRun({venv + "/bin/python", "-m", "unittest", "discover", "-s",
           absl::StrCat(kSourceDir, "/client/python/tests"), "-p", "test_*.py"},
          pip_env);
  RunSdkTests(venv + "/bin/python",
              {{"-PYTHONPATH", ""}, {"DPQ_TEST_INSTALLED_IN", venv}});
}

// The example of docs/clients.md, client/python/examples/
// compare_datasets.py, headless (matplotlib's Agg backend): three
// datasets' quality reports side by side, printed and plotted to a PNG.
TEST_F(PythonSdkTest, ExampleComparesThreeDatasetsAndPlots) {
  v1::RegisterDatasetResponse people;
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital-b"), GrpcOk());
  ASSERT_THAT(
      client_->Register(admin_token_, PeopleManifest(), PeopleCsv(), &people),
      GrpcOk());
  const std::string token = NewBuyer("alice", "hospital", 5);
  ASSERT_THAT(client_->Grant(admin_token_, "alice", "hospital-b", 5), GrpcOk());
  ASSERT_THAT(client_->Grant(admin_token_, "alice", "people", 5), GrpcOk());
  const std::string token_file = dir_.Sub("alice.token");
  WriteFileOrDie(token_file, token + "\n");
  const std::string png = dir_.Sub("quality.png");

  const CommandResult r = RunCommand(
      {"/usr/bin/python3",
       absl::StrCat(kSourceDir, "/client/python/examples/compare_datasets.py"),
       "--server", server_->address(), "--token-file", token_file, "--ca-file",
       certs_.ca(), "--out", png, "hospital", "hospital-b", "people"},
      {{"PYTHONPATH", DPQ_PYTHON_PATH},
       {"PYTHONDONTWRITEBYTECODE", "1"},
       {"MPLCONFIGDIR", dir_.Sub("matplotlib")}},
      std::chrono::seconds(120));
  std::cout << r.out << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Nine rows (three datasets, three measures), then the exact total:
  // 1 + 1 + 2 (people has a public cuboid, k_Q = 2).
  for (const char* id : {"hospital ", "hospital-b ", "people "}) {
    EXPECT_THAT(r.out, HasSubstr(id));
  }
  EXPECT_THAT(r.out, HasSubstr("spent 4 epsilon in all"));
  const std::string image = ReadFileOrEmpty(png);
  ASSERT_GT(image.size(), 1000u);
  EXPECT_EQ(image.substr(0, 8), "\x89PNG\r\n\x1a\n");
  // docs/clients.md shows the example as it runs here, verbatim.
  EXPECT_THAT(ReadFileOrEmpty(absl::StrCat(kSourceDir, "/docs/clients.md")),
              HasSubstr(ReadFileOrEmpty(absl::StrCat(
                  kSourceDir, "/client/python/examples/compare_datasets.py"))));
  absl::StatusOr<v1::Budget> left = client_->Budget(token, "people");
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_EQ(left->remaining(), 3);
}

// Runs `code` under /usr/bin/python3 with the SDK on PYTHONPATH and `env`.
CommandResult Python(const std::string& code,
                     std::map<std::string, std::string> env) {
  env["PYTHONPATH"] = DPQ_PYTHON_PATH;
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env["-GRPC_VERBOSITY"] = "";  // the SDK itself keeps gRPC's core quiet
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
        if e.reason == "CONFIGURATION":
            # Raised at once with the fix in the message, never retried.
            m = e.message
            if m.startswith("cannot connect to "):
                m = m.split(": ", 1)[1]
            return "CONFIGURATION %d %s" % (e.attempts, m)
        return e.code.name
if mode == "plaintext":
    print("token:", attempt(token=t, insecure=True))
    print("none:", attempt(insecure=True))
    print("tls:", attempt(token=t, ca_file=ca))
else:
    cert = dict(client_cert_file=os.environ["CERT"], client_key_file=os.environ["KEY"])
    print("cert:", attempt(token=t, ca_file=ca, server_name="localhost", **cert))
    print("no cert:", attempt(token=t, ca_file=ca))
    print("wrong name:", attempt(token=t, ca_file=ca, server_name="wrong.example", **cert))
    print("plaintext:", attempt(token=t, insecure=True))
    print("no ca file:", attempt(token=t, ca_file=ca + ".missing", **cert))
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
    EXPECT_EQ(r.err, "");  // no gRPC core lines
    if (mode == "plaintext") {
      EXPECT_EQ(r.out,
                "token: ok 1\nnone: UNAUTHENTICATED\n"
                "tls: CONFIGURATION 1 the server does not speak TLS (it was "
                "started with --insecure): connect with insecure=True, or give "
                "the server --tls-cert and --tls-key\n")
          << r.err;
    } else {
      EXPECT_EQ(
          r.out,
          absl::StrCat(
              "cert: ok 1\n"
              "no cert: CONFIGURATION 1 the server closed the connection after "
              "the TLS handshake: it requires a client certificate (mutual "
              "TLS, --client-ca): pass client_cert_file and client_key_file\n"
              "wrong name: CONFIGURATION 1 the server's certificate does not "
              "hold the name 'wrong.example': connect by a name it holds, or "
              "pass server_name= one of them (the development certificate of "
              "deploy/make-certs.sh holds localhost, 127.0.0.1 and ::1)\n"
              "plaintext: CONFIGURATION 1 the server speaks TLS, but this "
              "client connects in plaintext (insecure=True): drop "
              "insecure=True and pass ca_file= the CA that issued the "
              "server's certificate\n"
              "no ca file: CONFIGURATION 0 ca_file '",
              certs_.ca(),
              ".missing' cannot be read: No such file or directory\n"))
          << r.err;
    }
    EXPECT_EQ((*server)->Terminate(), 0);
  }
}

}  // namespace
}  // namespace dpq::integration
