// dpq_admission_bench: replays the memory attack of one buyer with a tiny
// budget (docs/performance.md, "Heavy releases under attack") against the
// real dpq-server in-process (plaintext on 127.0.0.1, embedded SQLite).
//
// An admin registers a small table whose conflict graph is large, 10,000
// rows `a,b` (78 KB):
//   --shape clique      `a` constant, `b` unique, the FD a -> b: one clique,
//                       49,995,000 edges (the attack as reported);
//   --shape inversions  `a` constant, `b` = row, `c` a random permutation,
//                       the DC a = a' & b < b' & c > c': about 25M edges and
//                       no twins, so nothing contracts the flow network.
// Buyer mallory (epsilon 0.001 on it, granted again for each burst) then sends
// N concurrent default I_MI releases at epsilon 2e-6, each with a fresh request
// id, for each N of
// --callers, each caller again and again for --seconds (or until the 500
// releases the budget buys are spent), while buyer bob calls GetBudget in
// a loop and a light I_MI release on a small table every 200 ms.
//
// Prints per N: the time until every call returned, mallory's errors, the
// server's peak RSS during the burst (VmHWM, reset before each burst by
// /proc/self/clear_refs), and bob's GetBudget and light-measure p50/p99.
//
//   dpq_admission_bench [--shape clique|inversions] [--rows 10000]
//                       [--callers 8,32] [--seconds 5]
//                       [--max-heavy-releases 1]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "tests/testing/server_fixture.h"

namespace {

using Clock = std::chrono::steady_clock;
using dpq::testing::TestServer;

struct Flags {
  std::string shape = "clique";
  int rows = 10'000;
  std::vector<int> callers = {8, 32};
  int max_heavy_releases = 1;
  double seconds = 5;  // per burst, at least
};

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i], value = argv[i + 1];
    bool ok = true;
    if (name == "--shape") {
      f->shape = value;
      ok = value == "clique" || value == "inversions";
    } else if (name == "--rows") {
      ok = absl::SimpleAtoi(value, &f->rows) && f->rows >= 2;
    } else if (name == "--seconds") {
      ok = absl::SimpleAtod(value, &f->seconds) && f->seconds >= 0;
    } else if (name == "--max-heavy-releases") {
      ok = absl::SimpleAtoi(value, &f->max_heavy_releases);
    } else if (name == "--callers") {
      f->callers.clear();
      for (absl::string_view part : absl::StrSplit(value, ',')) {
        int n = 0;
        ok = ok && absl::SimpleAtoi(part, &n) && n >= 1;
        f->callers.push_back(n);
      }
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "bad flag %s %s\n", name.c_str(), value.c_str());
      return false;
    }
  }
  return true;
}

// kB of a /proc/self/status line ("VmHWM:", "VmRSS:").
int64_t StatusKb(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      int64_t kb = 0;
      std::sscanf(line.c_str() + key.size(), "%ld", &kb);
      return kb;
    }
  }
  return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0).
void ResetPeakRss() { std::ofstream("/proc/self/clear_refs") << "5"; }

std::string AttackCsv(const Flags& f) {
  std::string csv = f.shape == "clique" ? "a,b\n" : "a,b,c\n";
  std::vector<int> perm(f.rows);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(7));
  for (int i = 0; i < f.rows; ++i) {
    if (f.shape == "clique") {
      absl::StrAppend(&csv, "x,", i, "\n");
    } else {
      absl::StrAppend(&csv, "x,", i, ",", perm[i], "\n");
    }
  }
  return csv;
}

std::string AttackDc(const Flags& f) {
  return f.shape == "clique"
             ? "t1&t2&EQ(t1.a,t2.a)&IQ(t1.b,t2.b)\n"
             : "t1&t2&EQ(t1.a,t2.a)&LT(t1.b,t2.b)&GT(t1.c,t2.c)\n";
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return 1e3 * v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

grpc::Status Measure(TestServer& server, const std::string& token,
                     const std::string& dataset, double epsilon,
                     const std::string& id) {
  dpq::v1::MeasureInconsistencyRequest request;
  request.set_dataset_id(dataset);
  request.set_measure(dpq::v1::MEASURE_MI);
  request.set_epsilon(epsilon);
  request.set_request_id(id);
  grpc::ClientContext context;
  TestServer::Authorize(context, token, absl::Seconds(600));
  dpq::v1::MeasureInconsistencyResponse response;
  return server.BuyerStub()->MeasureInconsistency(&context, request, &response);
}

void RunBurst(TestServer& server, const std::string& mallory,
              const std::string& bob, int callers, double seconds) {
  static std::atomic<int> next_id{0};
  std::atomic<bool> done{false};
  std::vector<double> budget_latency, light_latency;
  std::thread observer([&] {
    auto stub = server.BuyerStub();
    auto last_light = Clock::now() - std::chrono::seconds(1);
    while (!done.load()) {
      grpc::ClientContext context;
      TestServer::Authorize(context, bob, absl::Seconds(60));
      dpq::v1::GetBudgetRequest request;
      dpq::v1::GetBudgetResponse response;
      const auto t0 = Clock::now();
      if (stub->GetBudget(&context, request, &response).ok()) {
        budget_latency.push_back(
            std::chrono::duration<double>(Clock::now() - t0).count());
      }
      if (Clock::now() - last_light > std::chrono::milliseconds(200)) {
        last_light = Clock::now();
        const auto t1 = Clock::now();
        if (Measure(server, bob, "small", 0.001,
                    absl::StrCat("light-", ++next_id))
                .ok()) {
          light_latency.push_back(
              std::chrono::duration<double>(Clock::now() - t1).count());
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  // Each burst gets the budget of the attack, 0.001: 500 releases.
  if (!server.GrantBudget("mallory", "attack", 0.001).ok()) return;
  ResetPeakRss();
  const int64_t rss_before = StatusKb("VmRSS:");
  std::atomic<int> errors{0};
  absl::Mutex error_mu;
  std::string last_error;
  std::vector<std::thread> attackers;
  const auto start = Clock::now();
  // Each caller sends releases one after another until `seconds` passed
  // (at least one each), or until the budget refuses (counted apart: that
  // is the ledger working, not the server failing).
  std::atomic<int> calls{0}, refused{0};
  for (int i = 0; i < callers; ++i) {
    attackers.emplace_back([&] {
      do {
        const grpc::Status s = Measure(server, mallory, "attack", 2e-6,
                                       absl::StrCat("attack-", ++next_id));
        ++calls;
        if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
          ++refused;
          break;
        }
        if (!s.ok()) {
          ++errors;
          absl::MutexLock lock(&error_mu);
          last_error = s.error_message();
        }
      } while (Clock::now() - start < std::chrono::duration<double>(seconds));
    });
  }
  for (std::thread& t : attackers) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  const int64_t peak = StatusKb("VmHWM:");
  done = true;
  observer.join();
  std::printf(
      "callers=%d calls=%d budget_refusals=%d seconds=%.1f errors=%d "
      "rss_before_mb=%.0f peak_rss_mb=%.0f "
      "getbudget_p50_ms=%.2f getbudget_p99_ms=%.2f (n=%zu) "
      "light_measure_p50_ms=%.1f light_measure_p99_ms=%.1f (n=%zu)\n",
      callers, calls.load(), refused.load(), elapsed, errors.load(),
      rss_before / 1024.0, peak / 1024.0, Percentile(budget_latency, 0.5),
      Percentile(budget_latency, 0.99), budget_latency.size(),
      Percentile(light_latency, 0.5), Percentile(light_latency, 0.99),
      light_latency.size());
  if (errors > 0) std::printf("  last error: %s\n", last_error.c_str());
  std::fflush(stdout);
}

int Run(const Flags& flags) {
  absl::StatusOr<std::unique_ptr<TestServer>> server = TestServer::Start(
      dpq::testing::Transport::kInsecure, [&](dpq::server::Options& o) {
        o.max_heavy_releases = flags.max_heavy_releases;
      });
  if (!server.ok()) {
    std::fprintf(stderr, "server: %s\n", server.status().ToString().c_str());
    return 1;
  }
  TestServer& s = **server;
  const std::string csv = AttackCsv(flags);
  const auto t0 = Clock::now();
  absl::StatusOr<dpq::v1::RegisterDatasetResponse> attack = s.RegisterDataset(
      "attack", csv, AttackDc(flags), 2 * static_cast<uint64_t>(flags.rows));
  if (!attack.ok()) {
    std::fprintf(stderr, "register: %s\n", attack.status().ToString().c_str());
    return 1;
  }
  std::printf(
      "shape=%s rows=%d csv_bytes=%zu edges=%llu release_cost=%s "
      "register_seconds=%.1f peak_rss_mb_after_register=%.0f "
      "max_heavy_releases=%d\n",
      flags.shape.c_str(), flags.rows, csv.size(),
      static_cast<unsigned long long>(attack->stats().edges()),
      attack->stats().release_cost().c_str(),
      std::chrono::duration<double>(Clock::now() - t0).count(),
      StatusKb("VmHWM:") / 1024.0, flags.max_heavy_releases);
  std::string small = "k,v\n";
  for (int i = 0; i < 2000; ++i) {
    absl::StrAppend(&small, "k", i / 40, ",", i % 40 == 0 ? "typo" : "v", "\n");
  }
  if (!s.RegisterDataset("small", small, "t1&t2&EQ(t1.k,t2.k)&IQ(t1.v,t2.v)\n",
                         4000)
           .ok()) {
    return 1;
  }
  absl::StatusOr<std::string> mallory = s.CreateBuyer("mallory");
  absl::StatusOr<std::string> bob = s.CreateBuyer("bob");
  if (!mallory.ok() || !bob.ok() || !s.GrantBudget("bob", "small", 100).ok()) {
    return 1;
  }
  for (const int n : flags.callers) {
    RunBurst(s, *mallory, *bob, n, flags.seconds);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 2;
  return Run(flags);
}
