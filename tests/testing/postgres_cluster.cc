#include "tests/testing/postgres_cluster.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/util/status_macros.h"
#include "server/storage/postgres_database.h"
#include "tests/testing/files.h"

namespace dpq::testing {
namespace {

namespace fs = std::filesystem;

// Short on purpose: the socket path (<dir>/.s.PGSQL.5432) must stay under
// the ~107 bytes of sun_path.
constexpr char kDirPrefix[] = "/tmp/dpq-pg.";
constexpr char kOwnerFile[] = "owner.pid";
constexpr int kPort = 5432;  // per socket directory, so never a collision

// The newest /usr/lib/postgresql/<major>/bin holding initdb and pg_ctl.
absl::StatusOr<std::string> FindBinDir() {
  int best = -1;
  std::error_code ec;
  for (const fs::directory_entry& e :
       fs::directory_iterator("/usr/lib/postgresql", ec)) {
    int major = 0;
    if (!absl::SimpleAtoi(e.path().filename().string(), &major)) continue;
    if (!fs::exists(e.path() / "bin" / "initdb") ||
        !fs::exists(e.path() / "bin" / "pg_ctl")) {
      continue;
    }
    best = std::max(best, major);
  }
  if (best < 0) {
    return absl::FailedPreconditionError(
        "No PostgreSQL server in /usr/lib/postgresql/<major>/bin: install "
        "Debian's package `postgresql` (deploy/install-deps.sh does).");
  }
  return absl::StrCat("/usr/lib/postgresql/", best, "/bin");
}

std::string Tail(const std::string& text, size_t n = 3000) {
  return text.size() <= n ? text : text.substr(text.size() - n);
}

// Runs `argv` to completion with stdout and stderr appended to `log`, as
// the user `postgres` if `as_postgres` (we are root then). Returns the
// exit code, or -1 if it could not run.
int Run(const std::vector<std::string>& argv, const std::string& log,
        const std::string& cwd, bool as_postgres) {
  uid_t uid = 0;
  gid_t gid = 0;
  if (as_postgres) {
    const passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr) return -1;
    uid = pw->pw_uid;
    gid = pw->pw_gid;
  }
  // Everything the child needs is prepared before fork: between fork and
  // exec only async-signal-safe calls.
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || ::dup2(fd, 1) < 0 || ::dup2(fd, 2) < 0) ::_exit(126);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    // The server must not inherit the test's other descriptors (ctest's
    // pipes would then stay open until the server stops).
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0) {
      for (int i = 3; i < 4096; ++i) ::close(i);
    }
    if (as_postgres) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 ||
          ::setuid(uid) != 0) {
        ::_exit(125);
      }
    }
    if (::chdir(cwd.c_str()) != 0) ::_exit(124);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Clusters of test processes that died without their destructor (kill -9,
// a crash) are stopped and removed, so that they do not pile up. A
// directory whose owner file is missing may be one being created right
// now, and is left alone.
void RemoveStaleClusters(const std::string& bin_dir, bool as_postgres) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/tmp", ec)) {
    const std::string dir = e.path().string();
    if (!absl::StartsWith(dir, kDirPrefix)) continue;
    int owner = 0;
    if (!absl::SimpleAtoi(ReadFileOrEmpty(dir + "/" + kOwnerFile), &owner) ||
        owner <= 0) {
      continue;
    }
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;
    Run({bin_dir + "/pg_ctl", "-D", dir + "/data", "-m", "immediate", "-w",
         "stop"},
        "/dev/null", "/", as_postgres);
    fs::remove_all(dir, ec);
  }
}

// The data directory initdb makes for every test cluster, made once per
// PostgreSQL installation and user in /tmp/dpq-pgtemplate-<bin dir hash>
// and copied by each Start. Made in a temporary directory and renamed into
// place, so concurrent test processes never see half of it (the loser of
// a race removes its own copy).
absl::StatusOr<std::string> InitdbTemplate(const std::string& bin_dir,
                                           bool as_postgres) {
  const std::string final_dir =
      absl::StrCat("/tmp/dpq-pgtemplate-", ::geteuid(), "-",
                   std::hash<std::string>()(bin_dir));
  if (fs::exists(final_dir + "/data/PG_VERSION")) return final_dir;
  std::string work = "/tmp/dpq-pgtemplate-new.XXXXXX";
  if (::mkdtemp(work.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("mkdtemp failed: ", std::strerror(errno)));
  }
  if (as_postgres) {
    const passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr || ::chown(work.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      return absl::FailedPreconditionError(
          "Running as root, but there is no user `postgres` to run the "
          "PostgreSQL server as: install Debian's package `postgresql`.");
    }
  }
  const std::string log = work + "/initdb.log";
  const int rc = Run({bin_dir + "/initdb", "-D", work + "/data", "-A", "trust",
                      "-U", "dpq", "--no-sync", "-E", "UTF8", "--locale=C"},
                     log, work, as_postgres);
  std::error_code ec;
  if (rc != 0) {
    const std::string tail = Tail(ReadFileOrEmpty(log));
    fs::remove_all(work, ec);
    return absl::InternalError(
        absl::StrCat("initdb failed (exit ", rc, "): ", tail));
  }
  if (::rename(work.c_str(), final_dir.c_str()) != 0) {
    fs::remove_all(work, ec);  // another process made it first
  }
  if (!fs::exists(final_dir + "/data/PG_VERSION")) {
    return absl::InternalError(absl::StrCat("the initdb template ", final_dir,
                                            " is incomplete: "
                                            "remove it"));
  }
  return final_dir;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PostgresCluster>> PostgresCluster::Start(
    Options options) {
  std::unique_ptr<PostgresCluster> cluster(new PostgresCluster());
  cluster->options_ = options;
  ASSIGN_OR_RETURN(cluster->bin_dir_, FindBinDir());
  // PostgreSQL refuses to run as root.
  cluster->as_postgres_user_ = ::geteuid() == 0;
  RemoveStaleClusters(cluster->bin_dir_, cluster->as_postgres_user_);

  std::string templ = absl::StrCat(kDirPrefix, "XXXXXX");
  if (::mkdtemp(templ.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("mkdtemp failed: ", std::strerror(errno)));
  }
  cluster->dir_ = templ;
  {
    std::ofstream owner(cluster->dir_ + "/" + kOwnerFile);
    owner << ::getpid();
  }
  if (cluster->as_postgres_user_) {
    const passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr) {
      return absl::FailedPreconditionError(
          "Running as root, but there is no user `postgres` to run the "
          "PostgreSQL server as: install Debian's package `postgresql`.");
    }
    if (::chown(cluster->dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      return absl::InternalError(absl::StrCat(
          "chown ", cluster->dir_, " failed: ", std::strerror(errno)));
    }
  }
  ASSIGN_OR_RETURN(
      const std::string templ_dir,
      InitdbTemplate(cluster->bin_dir_, cluster->as_postgres_user_));
  // A copy of the initdb'd template: what initdb would write, without
  // running it again for every test (about a third of a test's start).
  const std::string log = cluster->dir_ + "/initdb.log";
  const int rc =
      Run({"/bin/cp", "-a", templ_dir + "/data", cluster->dir_ + "/data"}, log,
          cluster->dir_, cluster->as_postgres_user_);
  if (rc != 0) {
    return absl::InternalError(absl::StrCat("copying the initdb template ",
                                            templ_dir, " failed (exit ", rc,
                                            "): ", Tail(ReadFileOrEmpty(log))));
  }
  RETURN_IF_ERROR(cluster->RunPgCtl("start"));
  return cluster;
}

PostgresCluster::~PostgresCluster() {
  if (dir_.empty()) return;
  if (running_) {
    Run({bin_dir_ + "/pg_ctl", "-D", dir_ + "/data", "-m", "immediate", "-w",
         "stop"},
        "/dev/null", "/", as_postgres_user_);
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

absl::Status PostgresCluster::RunPgCtl(const std::string& action) {
  std::vector<std::string> argv = {
      bin_dir_ + "/pg_ctl", "-D", dir_ + "/data", "-w", "-t", "60"};
  if (action == "start") {
    std::vector<std::string> server = {
        "-k", dir_,
        "-p", std::to_string(kPort),
        "-c", "listen_addresses=''",
        "-c", absl::StrCat("max_connections=", options_.max_connections)};
    if (!options_.durable) {
      server.insert(server.end(),
                    {"-c", "fsync=off", "-c", "synchronous_commit=off", "-c",
                     "full_page_writes=off"});
    }
    argv.insert(argv.end(),
                {"-l", dir_ + "/server.log", "-o", absl::StrJoin(server, " ")});
  } else {
    argv.insert(argv.end(), {"-m", "fast"});
  }
  argv.push_back(action);
  const std::string log = dir_ + "/pg_ctl.log";
  const int rc = Run(argv, log, dir_, as_postgres_user_);
  if (rc != 0) {
    return absl::InternalError(absl::StrCat(
        "pg_ctl ", action, " failed (exit ", rc,
        "): ", Tail(ReadFileOrEmpty(log)), "\nServer log: ", Tail(Log())));
  }
  running_ = action == "start";
  return absl::OkStatus();
}

absl::StatusOr<std::string> PostgresCluster::CreateDatabase() {
  const std::string name = absl::StrCat("dpq_test_", next_db_++);
  ASSIGN_OR_RETURN(std::unique_ptr<server::storage::PgConnection> conn,
                   server::storage::PgConnection::Connect(Dsn("postgres")));
  // CREATE DATABASE takes no parameters; the name is ours, not input.
  RETURN_IF_ERROR(conn->Exec(absl::StrCat("CREATE DATABASE ", name)).status());
  return Dsn(name);
}

std::string PostgresCluster::Dsn(const std::string& name) const {
  return absl::StrCat("host=", dir_, " port=", kPort, " dbname=", name,
                      " user=dpq");
}

absl::Status PostgresCluster::Stop() { return RunPgCtl("stop"); }

absl::Status PostgresCluster::Restart() { return RunPgCtl("start"); }

std::string PostgresCluster::Log() const {
  return ReadFileOrEmpty(dir_ + "/server.log");
}

}  // namespace dpq::testing
