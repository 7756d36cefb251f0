// dpq_postgres_ledger_bench: throughput of the PostgreSQL ledger alone
// (server/storage/postgres_ledger_store.h), as the release path uses it:
// N closed-loop client threads spread over R replicas (each a
// PostgresLedgerStore with its own pool, as separate dpq-server processes
// would have), each doing Reserve + Commit of a fresh request (a new
// request id) until the time is up. Every Reserve and Commit is a durable
// transaction: the throw-away cluster runs with fsync and
// synchronous_commit on (PostgresCluster's default), unless --dsn names
// another database.
//
// Prints releases/s (one release = Reserve + Commit), p50/p99/max latency
// of a release, and errors.
//
//   dpq_postgres_ledger_bench [--clients 64] [--replicas 2]
//       [--connections 16] [--buyers 64] [--seconds 10] [--cap]
//       [--dsn DSN]
// --buyers: the clients share that many buyers (round robin), all on one
// dataset; --cap: the dataset has a (large) cap, so every reservation also
// takes the dataset's row lock.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "server/storage/postgres_database.h"
#include "server/storage/postgres_ledger_store.h"
#include "tests/testing/postgres_cluster.h"

namespace {

using Clock = std::chrono::steady_clock;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::ReserveRequest;
using ::dpq::server::storage::PgPool;
using ::dpq::server::storage::PostgresLedgerOptions;
using ::dpq::server::storage::PostgresLedgerStore;
using ::dpq::testing::PostgresCluster;

struct Flags {
  int clients = 64;
  int replicas = 2;
  int connections = 16;
  int buyers = 64;
  double seconds = 10;
  bool cap = false;
  std::string dsn;
};

bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--cap") {
      flags->cap = true;
    } else if (arg == "--dsn" && has_value) {
      flags->dsn = argv[++i];
    } else if (arg == "--seconds" && has_value) {
      if (!absl::SimpleAtod(argv[++i], &flags->seconds)) return false;
    } else if (has_value && (arg == "--clients" || arg == "--replicas" ||
                             arg == "--connections" || arg == "--buyers")) {
      int* target = arg == "--clients"    ? &flags->clients
                    : arg == "--replicas" ? &flags->replicas
                    : arg == "--buyers"   ? &flags->buyers
                                          : &flags->connections;
      if (!absl::SimpleAtoi(argv[++i], target) || *target < 1) return false;
    } else {
      return false;
    }
  }
  return true;
}

ReserveRequest Request(int buyer, const std::string& request_id) {
  ReserveRequest request;
  request.buyer_id = absl::StrCat("buyer", buyer);
  request.dataset_id = "bench";
  request.request_id = request_id;
  request.fingerprint = "bench fingerprint";
  request.operation = "MeasureInconsistency MI optimized";
  request.neighbouring = "tuple";
  request.epsilon = 0.001;
  return request;
}

absl::Status Run(const Flags& flags) {
  std::unique_ptr<PostgresCluster> cluster;
  std::string dsn = flags.dsn;
  if (dsn.empty()) {
    absl::StatusOr<std::unique_ptr<PostgresCluster>> started =
        PostgresCluster::Start(
            {.durable = true,
             .max_connections = flags.replicas * (flags.connections + 2) + 20});
    if (!started.ok()) return started.status();
    cluster = *std::move(started);
    absl::StatusOr<std::string> created = cluster->CreateDatabase();
    if (!created.ok()) return created.status();
    dsn = *created;
  }
  std::vector<std::unique_ptr<PostgresLedgerStore>> stores;
  for (int r = 0; r < flags.replicas; ++r) {
    PgPool::Options pool_options;
    pool_options.size = flags.connections;
    absl::StatusOr<std::unique_ptr<PgPool>> pool =
        PgPool::Open(dsn, pool_options);
    if (!pool.ok()) return pool.status();
    PostgresLedgerOptions options;
    options.replica_id = absl::StrCat("bench-", r);
    absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> store =
        PostgresLedgerStore::Open(std::shared_ptr<PgPool>(*std::move(pool)),
                                  options);
    if (!store.ok()) return store.status();
    stores.push_back(*std::move(store));
  }
  for (int b = 0; b < flags.buyers; ++b) {
    absl::Status granted =
        stores[0]->Grant(absl::StrCat("buyer", b), "bench", 1e6).status();
    if (!granted.ok()) return granted;
  }
  if (flags.cap) {
    absl::Status capped = stores[0]->SetDatasetCap("bench", 1e6);
    if (!capped.ok()) return capped;
  }

  std::atomic<int64_t> errors{0};
  std::atomic<bool> stop{false};
  std::vector<std::vector<double>> latencies_ms(flags.clients);
  std::string first_error;
  std::atomic<bool> have_error{false};
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int t = 0; t < flags.clients; ++t) {
    threads.emplace_back([&, t] {
      PostgresLedgerStore& store = *stores[t % stores.size()];
      for (int64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
        const Clock::time_point before = Clock::now();
        absl::StatusOr<Reservation> r =
            store.Reserve(Request(t % flags.buyers, absl::StrCat(t, "-", i)));
        absl::Status status = r.status();
        if (r.ok()) status = store.Commit(*r->entry_id, "bench answer");
        if (!status.ok()) {
          ++errors;
          if (!have_error.exchange(true)) first_error = status.ToString();
          continue;
        }
        latencies_ms[t].push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - before)
                .count());
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(flags.seconds));
  stop = true;
  for (std::thread& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<double> all;
  for (const std::vector<double>& l : latencies_ms) {
    all.insert(all.end(), l.begin(), l.end());
  }
  std::sort(all.begin(), all.end());
  const auto percentile = [&](double p) {
    if (all.empty()) return 0.0;
    return all[std::min(
        all.size() - 1,
        static_cast<size_t>(p * static_cast<double>(all.size())))];
  };
  std::printf(
      "clients %d, replicas %d, connections/replica %d, buyers %d%s, %s: "
      "%.0f releases/s (Reserve + Commit), p50 %.1f ms, p99 %.1f ms, "
      "max %.1f ms, errors %lld\n",
      flags.clients, flags.replicas, flags.connections, flags.buyers,
      flags.cap ? ", capped dataset" : "",
      flags.dsn.empty() ? "durable throw-away cluster" : "--dsn",
      static_cast<double>(all.size()) / elapsed, percentile(0.5),
      percentile(0.99), all.empty() ? 0.0 : all.back(),
      static_cast<long long>(errors.load()));
  if (have_error.load()) std::printf("first error: %s\n", first_error.c_str());
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    std::fprintf(stderr,
                 "usage: %s [--clients N] [--replicas R] [--connections C] "
                 "[--buyers B] [--seconds S] [--cap] [--dsn DSN]\n",
                 argv[0]);
    return 2;
  }
  const absl::Status status = Run(flags);
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
