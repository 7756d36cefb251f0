// A throw-away PostgreSQL cluster for tests: Debian's PostgreSQL server
// (/usr/lib/postgresql/<major>/bin, installed by deploy/install-deps.sh),
// initdb'd into a fresh temporary directory and started with pg_ctl,
// listening only on a Unix socket in that directory (no TCP port, so
// parallel tests never collide). When the tests run as root, initdb,
// pg_ctl and postgres run as the unprivileged user `postgres` (Debian's
// package creates it; PostgreSQL refuses to run as root). The destructor
// stops the server (immediate mode) and removes the directory; clusters
// left by killed test processes are removed by the next Start().
//
// A missing PostgreSQL is a test failure saying what to install, never a
// silent skip.
//
//   ASSERT_OK_AND_ASSIGN(auto cluster, PostgresCluster::Start());
//   ASSERT_OK_AND_ASSIGN(std::string dsn, cluster->CreateDatabase());
//   ... PgPool::Open(dsn) ...
#ifndef DPQ_TESTS_TESTING_POSTGRES_CLUSTER_H_
#define DPQ_TESTS_TESTING_POSTGRES_CLUSTER_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace dpq::testing {

class PostgresCluster {
 public:
  struct Options {
    // synchronous_commit and fsync stay on (the production settings)
    // unless a test turns them off for speed.
    bool durable = true;
    int max_connections = 200;
  };

  // initdb + pg_ctl start -w. kFailedPrecondition naming the package if
  // no PostgreSQL server binaries are installed; kInternal with the tail of
  // the server log if it does not start.
  static absl::StatusOr<std::unique_ptr<PostgresCluster>> Start(
      Options options);
  static absl::StatusOr<std::unique_ptr<PostgresCluster>> Start() {
    return Start(Options());
  }
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // A new empty database (dpq_test_1, dpq_test_2, ...); returns its DSN,
  // e.g. "host=/tmp/pg.XXXX port=5432 dbname=dpq_test_1 user=dpq".
  absl::StatusOr<std::string> CreateDatabase();
  // The DSN of an existing database `name`.
  std::string Dsn(const std::string& name) const;

  // pg_ctl stop -m fast (connections are closed; the data stays), and
  // start again on the same socket. For outage tests.
  absl::Status Stop();
  absl::Status Restart();
  bool running() const { return running_; }

  // The socket directory (the DSN's host) and the server log.
  const std::string& socket_dir() const { return dir_; }
  std::string Log() const;

 private:
  PostgresCluster() = default;
  absl::Status RunPgCtl(const std::string& action);

  std::string dir_;      // temp dir: data/, the socket, server.log
  std::string bin_dir_;  // /usr/lib/postgresql/<major>/bin
  bool as_postgres_user_ = false;
  bool running_ = false;
  int next_db_ = 1;
  Options options_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_POSTGRES_CLUSTER_H_
