#include "tests/integration/burst.h"

#include <iostream>

#include "absl/strings/str_cat.h"

namespace dpq::integration {

using grpc::StatusCode;

// What the clients of a burst received, for reconciliation with the ledger.
std::vector<std::thread> StartBurst(const std::string& address,
                                    const std::string& ca,
                                    const std::string& token, int threads,
                                    std::atomic<bool>& stop, Burst& burst,
                                    const std::string& prefix) {
  std::vector<std::thread> out;
  for (int t = 0; t < threads; ++t) {
    out.emplace_back([&, t, address, ca, token, prefix] {
      Client client(TlsChannel(address, ca, "", "", /*own_connection=*/true));
      for (int i = 0; !stop.load(); ++i) {
        const std::string id = absl::StrCat(prefix, "-", t, "-", i);
        const v1::Measure measure = t % 3 == 0 ? v1::MEASURE_R : v1::MEASURE_MI;
        {
          std::lock_guard<std::mutex> lock(burst.mu);
          burst.measure[id] = measure;
        }
        v1::MeasureInconsistencyResponse r;
        ++burst.sent;
        const grpc::Status s =
            client.Measure(token, "hospital", measure, 0.5, id, &r,
                           std::chrono::milliseconds(10000));
        if (s.ok()) {
          std::lock_guard<std::mutex> lock(burst.mu);
          burst.answered[id] = r.result().value();
        } else if (s.error_code() == StatusCode::UNAVAILABLE ||
                   s.error_code() == StatusCode::DEADLINE_EXCEEDED ||
                   s.error_code() == StatusCode::CANCELLED) {
          return;  // the server went away
        } else {
          ADD_FAILURE() << id << ": " << Describe(s);
          return;
        }
      }
    });
  }
  return out;
}

// Every answer a client received has a COMMITTED entry with its request id;
// the committed and charged (reserved when the server died: the charge
// stands) epsilon sums to `spent`; nothing is left reserved; nothing is
// refunded; retries replay, and a charged request's retry resumes it.
void Reconcile(Client& client, const std::string& admin_token,
               const std::string& buyer, const std::string& token,
               Burst& burst) {
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      client.Ledger(admin_token, buyer, "hospital");
  ASSERT_TRUE(entries.ok()) << entries.status();
  std::map<std::string, v1::LedgerEntry> by_id;
  double charged = 0;
  int refunded = 0;
  std::vector<std::string> charged_without_answer;
  for (const v1::LedgerEntry& e : *entries) {
    EXPECT_TRUE(by_id.emplace(e.request_id(), e).second)
        << "two entries for " << e.request_id();
    EXPECT_NE(e.state(), v1::LEDGER_ENTRY_STATE_RESERVED)
        << e.request_id() << " still reserved after recovery";
    if (e.state() == v1::LEDGER_ENTRY_STATE_COMMITTED ||
        e.state() == v1::LEDGER_ENTRY_STATE_CHARGED) {
      charged += e.epsilon();
    }
    if (e.state() == v1::LEDGER_ENTRY_STATE_CHARGED) {
      charged_without_answer.push_back(e.request_id());
      EXPECT_EQ(burst.answered.count(e.request_id()), 0u)
          << e.request_id() << " was answered but has no recorded answer";
    }
    if (e.state() == v1::LEDGER_ENTRY_STATE_REFUNDED) ++refunded;
  }
  EXPECT_EQ(refunded, 0) << "a charge, once reserved, stands";
  for (const auto& [id, value] : burst.answered) {
    auto it = by_id.find(id);
    ASSERT_NE(it, by_id.end()) << "answer " << id << " has no ledger entry";
    EXPECT_EQ(it->second.state(), v1::LEDGER_ENTRY_STATE_COMMITTED) << id;
    EXPECT_DOUBLE_EQ(it->second.epsilon(), 0.5) << id;
  }
  absl::StatusOr<v1::Budget> budget = client.Budget(token, "hospital");
  ASSERT_TRUE(budget.ok()) << budget.status();
  EXPECT_DOUBLE_EQ(budget->spent(), charged);
  EXPECT_DOUBLE_EQ(budget->reserved(), 0);
  // Every received answer replays identically after the restart.
  for (const auto& [id, value] : burst.answered) {
    v1::MeasureInconsistencyResponse r;
    ASSERT_THAT(
        client.Measure(token, "hospital", burst.measure.at(id), 0.5, id, &r),
        GrpcOk())
        << id;
    EXPECT_TRUE(r.replayed()) << id;
    EXPECT_EQ(r.result().value(), value) << id;
  }
  absl::StatusOr<v1::Budget> after = client.Budget(token, "hospital");
  ASSERT_TRUE(after.ok());
  EXPECT_DOUBLE_EQ(after->spent(), budget->spent()) << "replays are free";
  // A request charged without an answer (the server died while computing
  // it) is resumed by its retry: answered now, charged nothing more.
  for (const std::string& id : charged_without_answer) {
    v1::MeasureInconsistencyResponse r;
    ASSERT_THAT(
        client.Measure(token, "hospital", burst.measure.at(id), 0.5, id, &r),
        GrpcOk())
        << id;
    EXPECT_TRUE(r.replayed()) << id;
    EXPECT_EQ(r.epsilon_charged(), 0) << id;
  }
  absl::StatusOr<v1::Budget> resumed = client.Budget(token, "hospital");
  ASSERT_TRUE(resumed.ok());
  EXPECT_DOUBLE_EQ(resumed->spent(), budget->spent()) << "resumes are free";
  std::cerr << "reconciled: " << burst.sent.load() << " sent, "
            << burst.answered.size() << " answered, " << charged / 0.5
            << " charged (" << charged_without_answer.size()
            << " without an answer, resumed), " << refunded << " refunded\n";
}

}  // namespace dpq::integration
