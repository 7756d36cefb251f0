// Bursts of charged releases against real servers, and their
// reconciliation with the ledger afterwards: what the kill -9 tests of one
// server (ledger_test.cc) and of replicas (replicas_test.cc) check.
#ifndef DPQ_TESTS_INTEGRATION_BURST_H_
#define DPQ_TESTS_INTEGRATION_BURST_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/harness.h"

namespace dpq::integration {

// What the clients of a burst sent and received.
struct Burst {
  std::mutex mu;
  std::map<std::string, int64_t> answered;     // request_id -> value
  std::map<std::string, v1::Measure> measure;  // every request_id sent
  std::atomic<int> sent{0};
};

// `threads` clients fire measures on "hospital" (epsilon 0.5, request ids
// PREFIX-THREAD-I) at `address` until `stop` or until their server goes
// away (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED), recording every answer
// they receive. Several bursts may share one Burst (distinct prefixes).
std::vector<std::thread> StartBurst(const std::string& address,
                                    const std::string& ca,
                                    const std::string& token, int threads,
                                    std::atomic<bool>& stop, Burst& burst,
                                    const std::string& prefix = "burst");

// Every answer a client received has a COMMITTED entry with its request id;
// the committed and charged (reserved when the server died: the charge
// stands) epsilon sums to `spent`; nothing is left reserved; nothing is
// refunded; retries replay, and a charged request's retry resumes it.
// `client` may talk to any server (replica) sharing the ledger.
void Reconcile(Client& client, const std::string& admin_token,
               const std::string& buyer, const std::string& token,
               Burst& burst);

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_BURST_H_
