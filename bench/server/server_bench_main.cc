// dpq_server_bench: starts the real dpq-server in-process (plaintext on
// 127.0.0.1, a fresh data directory under $TEST_TMPDIR or /tmp), registers
// a dataset, creates one buyer with a huge budget, waits until the conflict
// graph is cached, then drives BuyerService.MeasureInconsistency from N
// client threads, each with its own channel and connection (as N separate
// clients would), for a fixed time per N. Every call is a fresh release (a
// new request id): budget reserved and committed in the ledger (SQLite:
// WAL, synchronous=FULL), noise drawn, answer recorded.
//
// Prints, per N: requests/s, p50/p99/max latency, errors, the CPU time per
// request of the whole process (server and client threads: a figure that
// depends less on other load than the wall-clock ones) and the load
// average at the time; first, the cost of one fsync'd 4 KiB append in the
// data directory's file system, to put the ledger's durable commits into
// proportion. Run with TEST_TMPDIR=/dev/shm to see the server without
// real fsyncs (tmpfs makes them no-ops).
//
//   dpq_server_bench [--clients 1,8,64] [--seconds 10] [--measure mi|p|r]
//                    [--method optimized] [--epsilon 0.001] [--csv F]
//                    [--dc F] [--metrics-scrape-ms MS]
//
// --metrics-scrape-ms MS starts the server(s) with --metrics-listen
// 127.0.0.1:0 (every RPC and ledger operation is then recorded) and
// scrapes GET /metrics every MS ms during the run, as Prometheus would
// (docs/performance.md, "Metrics overhead").
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tests/testing/http_client.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/server_fixture.h"

namespace {

using Clock = std::chrono::steady_clock;
using dpq::testing::TestServer;

struct Flags {
  std::vector<int> clients = {1, 8, 64};
  double seconds = 10;
  dpq::v1::Measure measure = dpq::v1::MEASURE_MI;
  // The ledger benchmark's method (docs/performance.md): optimized, whose
  // release costs well under a millisecond on this graph, so the numbers
  // measure the service and the ledger. The service's default (gem) runs
  // a flow sweep per release: pass --method gem to measure it.
  dpq::v1::SelectionMethod method = dpq::v1::SELECTION_METHOD_OPTIMIZED;
  double epsilon = 0.001;
  std::string csv = std::string(DPQ_SHARED_DATA_DIR) + "/tax/dirty-10k.csv";
  std::string dc = std::string(DPQ_SHARED_DATA_DIR) + "/tax/constraints.dc";
  // 0: one embedded (SQLite) server; N >= 1: N replicas on PostgreSQL.
  int replicas = 0;
  // > 0: metrics on, scraped every this many ms; 0: no metrics.
  int metrics_scrape_ms = 0;
};

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i], value = argv[i + 1];
    bool ok = true;
    if (name == "--clients") {
      f->clients.clear();
      for (absl::string_view part : absl::StrSplit(value, ',')) {
        int n = 0;
        ok = ok && absl::SimpleAtoi(part, &n) && n > 0;
        f->clients.push_back(n);
      }
    } else if (name == "--seconds") {
      ok = absl::SimpleAtod(value, &f->seconds) && f->seconds > 0;
    } else if (name == "--epsilon") {
      ok = absl::SimpleAtod(value, &f->epsilon);
    } else if (name == "--measure") {
      f->measure = value == "p"   ? dpq::v1::MEASURE_P
                   : value == "r" ? dpq::v1::MEASURE_R
                                  : dpq::v1::MEASURE_MI;
      ok = value == "mi" || value == "p" || value == "r";
    } else if (name == "--method") {
      dpq::v1::SelectionMethod m = dpq::v1::SELECTION_METHOD_UNSPECIFIED;
      ok = dpq::v1::SelectionMethod_Parse(
               "SELECTION_METHOD_" + absl::AsciiStrToUpper(value), &m) &&
           m != dpq::v1::SELECTION_METHOD_UNSPECIFIED;
      f->method = m;
    } else if (name == "--csv") {
      f->csv = value;
    } else if (name == "--dc") {
      f->dc = value;
    } else if (name == "--metrics-scrape-ms") {
      ok = absl::SimpleAtoi(value, &f->metrics_scrape_ms) &&
           f->metrics_scrape_ms >= 1;
    } else if (name == "--replicas") {
      ok = absl::SimpleAtoi(value, &f->replicas) && f->replicas >= 1 &&
           f->replicas <= 8;
    } else {
      ok = false;
    }
    if (!ok) {
      std::cerr << "dpq_server_bench: bad flag " << name << " " << value
                << "\n";
      return false;
    }
  }
  return argc % 2 == 1;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return absl::StrCat(one, " ", five, " ", fifteen);
}

// Mean seconds of write(4 KiB) + fdatasync on a file in `dir`, which is
// what one durable SQLite WAL commit costs at least.
double FsyncSeconds(const std::string& dir, int rounds) {
  const std::string path = dir + "/fsync-probe";
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_APPEND, 0600);
  if (fd < 0) return -1;
  const std::string block(4096, 'x');
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    if (write(fd, block.data(), block.size()) < 0 || fdatasync(fd) != 0) {
      close(fd);
      return -1;
    }
  }
  close(fd);
  unlink(path.c_str());
  return std::chrono::duration<double>(Clock::now() - start).count() / rounds;
}

// User + system CPU seconds of this process (server and clients alike).
double ProcessCpuSeconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct ClientResult {
  std::vector<double> latencies;  // seconds, successful calls
  int64_t errors = 0;
  std::string last_error;
};

dpq::v1::MeasureInconsistencyRequest Request(const Flags& flags) {
  dpq::v1::MeasureInconsistencyRequest request;
  request.set_dataset_id("bench");
  request.set_measure(flags.measure);
  request.set_method(flags.method);
  request.set_epsilon(flags.epsilon);
  return request;
}

// One call, a new release under a fresh request id (required); false (and
// the error recorded) if it failed.
bool Call(dpq::v1::BuyerService::Stub& stub, const std::string& token,
          const dpq::v1::MeasureInconsistencyRequest& request,
          ClientResult* out) {
  static std::atomic<int64_t> next_id{0};
  dpq::v1::MeasureInconsistencyRequest with_id = request;
  with_id.set_request_id(absl::StrCat("bench-", ++next_id));
  grpc::ClientContext context;
  TestServer::Authorize(context, token, absl::Seconds(60));
  dpq::v1::MeasureInconsistencyResponse response;
  const grpc::Status status =
      stub.MeasureInconsistency(&context, with_id, &response);
  if (!status.ok()) {
    ++out->errors;
    out->last_error = status.error_message();
  }
  return status.ok();
}

using Servers = std::vector<std::unique_ptr<TestServer>>;

void RunLevel(const Servers& servers, const std::string& token,
              const Flags& flags, int clients) {
  std::vector<ClientResult> results(clients);
  std::vector<std::unique_ptr<dpq::v1::BuyerService::Stub>> stubs;
  const auto request = Request(flags);
  for (int i = 0; i < clients; ++i) {
    stubs.push_back(servers[i % servers.size()]->BuyerStub());
    ClientResult warmup;  // connects the channel; not timed
    Call(*stubs.back(), token, request, &warmup);
  }
  std::atomic<bool> go{false};
  const std::string load_before = LoadAverage();
  std::vector<std::thread> threads;
  Clock::time_point end;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      while (Clock::now() < end) {
        const auto t0 = Clock::now();
        if (Call(*stubs[i], token, request, &results[i])) {
          results[i].latencies.push_back(
              std::chrono::duration<double>(Clock::now() - t0).count());
        }
      }
    });
  }
  const double cpu_before = ProcessCpuSeconds();
  const auto start = Clock::now();
  end = start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(flags.seconds));
  go.store(true);
  for (auto& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = ProcessCpuSeconds() - cpu_before;
  std::vector<double> all;
  int64_t errors = 0;
  std::string last_error;
  for (const auto& r : results) {
    all.insert(all.end(), r.latencies.begin(), r.latencies.end());
    errors += r.errors;
    if (!r.last_error.empty()) last_error = r.last_error;
  }
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) {
    if (all.empty()) return 0.0;
    return 1e3 *
           all[std::min(all.size() - 1, static_cast<size_t>(p * all.size()))];
  };
  std::printf(
      "clients=%d requests=%zu seconds=%.1f req_per_s=%.0f p50_ms=%.2f "
      "p99_ms=%.2f max_ms=%.1f errors=%lld cpu_ms_per_req=%.3f "
      "cpu_cores_used=%.2f loadavg_before=\"%s\" loadavg_after=\"%s\"\n",
      clients, all.size(), elapsed, all.size() / elapsed, pct(0.50), pct(0.99),
      all.empty() ? 0.0 : 1e3 * all.back(), static_cast<long long>(errors),
      all.empty() ? 0.0 : 1e3 * cpu / all.size(), cpu / elapsed,
      load_before.c_str(), LoadAverage().c_str());
  if (!last_error.empty())
    std::printf("  last error: %s\n", last_error.c_str());
  std::fflush(stdout);
}

// With metrics on, scrapes every server's GET /metrics every `period_ms`
// from its own thread until stopped, then prints how many scrapes and how
// large the last one was.
class Scraper {
 public:
  Scraper(const Servers& servers, int period_ms) {
    if (period_ms <= 0) return;
    for (const auto& server : servers) {
      ports_.push_back(server->server().metrics_port());
    }
    thread_ = std::thread([this, period_ms] {
      while (!stop_.load()) {
        for (const int port : ports_) {
          absl::StatusOr<dpq::testing::HttpResponse> r =
              dpq::testing::HttpRequest("127.0.0.1", port, "GET", "/metrics");
          if (r.ok() && r->status == 200) {
            ++scrapes_;
            last_bytes_ = r->body.size();
          } else {
            ++failures_;
          }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
      }
    });
  }
  void Stop() {
    if (!thread_.joinable()) return;
    stop_.store(true);
    thread_.join();
    std::printf("metrics: %d scrapes (%d failed), last %zu bytes\n", scrapes_,
                failures_, last_bytes_);
  }
  ~Scraper() { Stop(); }

 private:
  std::vector<int> ports_;
  std::atomic<bool> stop_{false};
  int scrapes_ = 0;
  int failures_ = 0;
  size_t last_bytes_ = 0;
  std::thread thread_;
};

// The servers: one embedded, or flags.replicas on `cluster`, sharing the
// admin token file of the first.
absl::StatusOr<Servers> StartServers(const Flags& flags,
                                     dpq::testing::PostgresCluster* cluster) {
  Servers servers;
  if (cluster == nullptr) {
    absl::StatusOr<std::unique_ptr<TestServer>> server = TestServer::Start(
        dpq::testing::Transport::kInsecure, [&](dpq::server::Options& o) {
          if (flags.metrics_scrape_ms > 0) o.metrics_listen = "127.0.0.1:0";
        });
    if (!server.ok()) return server.status();
    servers.push_back(*std::move(server));
    return servers;
  }
  absl::StatusOr<std::string> dsn = cluster->CreateDatabase();
  if (!dsn.ok()) return dsn.status();
  std::string token_file;
  for (int i = 0; i < flags.replicas; ++i) {
    absl::StatusOr<std::unique_ptr<TestServer>> server = TestServer::Start(
        dpq::testing::Transport::kInsecure, [&](dpq::server::Options& o) {
          o.database = *dsn;
          o.replica_id = absl::StrCat("bench-", i);
          o.admin_token_file = token_file;
          if (flags.metrics_scrape_ms > 0) o.metrics_listen = "127.0.0.1:0";
        });
    if (!server.ok()) return server.status();
    if (i == 0) token_file = (*server)->server().admin_token_path();
    servers.push_back(*std::move(server));
  }
  return servers;
}

// Waits until every replica serves `dataset` with its conflict graph
// cached: the first call on each waits for the background build.
bool WarmUp(const Servers& servers, const std::string& token,
            const Flags& flags) {
  for (size_t r = 0; r < servers.size(); ++r) {
    auto stub = servers[r]->BuyerStub();
    const auto t0 = Clock::now();
    ClientResult first;
    while (!Call(*stub, token, Request(flags), &first)) {
      if (Clock::now() - t0 > std::chrono::seconds(60)) {
        std::cerr << "dpq_server_bench: replica " << r
                  << " never served the dataset: " << first.last_error << "\n";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::printf("replica %zu first call (graph build wait included): %.1f ms\n",
                r,
                1e3 * std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return true;
}

int Run(const Flags& flags) {
  std::unique_ptr<dpq::testing::PostgresCluster> cluster;
  if (flags.replicas > 0) {
    auto started = dpq::testing::PostgresCluster::Start();
    if (!started.ok()) {
      std::cerr << "dpq_server_bench: " << started.status() << "\n";
      return 1;
    }
    cluster = *std::move(started);
  }
  absl::StatusOr<Servers> servers = StartServers(flags, cluster.get());
  if (!servers.ok()) {
    std::cerr << "dpq_server_bench: " << servers.status() << "\n";
    return 1;
  }
  const TestServer& s = *servers->front();
  const std::string csv = dpq::testing::ReadFileOrEmpty(flags.csv);
  const std::string dcs = dpq::testing::ReadFileOrEmpty(flags.dc);
  const size_t rows =
      static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n'));
  auto registered = s.RegisterDataset("bench", csv, dcs, 2 * rows + 2);
  auto token = s.CreateBuyer("bench");
  auto granted = s.GrantBudget("bench", "bench", 1e6);
  for (const absl::Status& st :
       {registered.status(), token.status(), granted.status()}) {
    if (!st.ok()) {
      std::cerr << "dpq_server_bench: set-up failed: " << st << "\n";
      return 1;
    }
  }
  std::printf("state=%s data_dir=%s dataset=%s (%zu rows) fsync_4k_ms=%.3f\n",
              cluster == nullptr
                  ? "embedded (SQLite)"
                  : absl::StrCat(servers->size(),
                                 " replicas on PostgreSQL (fsync, "
                                 "synchronous_commit on)")
                        .c_str(),
              s.data_dir().c_str(), flags.csv.c_str(), rows,
              1e3 * FsyncSeconds(s.data_dir(), 50));
  if (!WarmUp(*servers, *token, flags)) return 1;
  Scraper scraper(*servers, flags.metrics_scrape_ms);
  for (int clients : flags.clients) RunLevel(*servers, *token, flags, clients);
  scraper.Stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) {
    std::cerr << "usage: dpq_server_bench [--clients 1,8,64] [--seconds S] "
                 "[--measure mi|p|r] [--method optimized|gem|...] "
                 "[--epsilon E] [--csv F] [--dc F] [--replicas N] "
                 "[--metrics-scrape-ms MS]\n";
    return 2;
  }
  return Run(flags);
}
