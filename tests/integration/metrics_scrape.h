// Scrapes of dpq-server's metrics listener for the integration tests
// (docs/operations.md, section 7): the port from the server's log, GET
// /metrics over real HTTP, and the text parsed into series and values,
// every line checked against the format.
#ifndef DPQ_TESTS_INTEGRATION_METRICS_SCRAPE_H_
#define DPQ_TESTS_INTEGRATION_METRICS_SCRAPE_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/integration/harness.h"
#include "tests/testing/http_client.h"

namespace dpq::integration {

// One scrape: sample values by series ("name{labels}"), and the declared
// type of each family. Fails the test for a line that is neither.
struct Scrape {
  std::map<std::string, std::string> samples;
  std::map<std::string, std::string> types;
  std::string text;

  // The value of a series, "" if absent.
  std::string operator[](const std::string& series) const {
    const auto it = samples.find(series);
    return it == samples.end() ? "" : it->second;
  }
  // The series of family `name` (exact name, any labels), in order.
  std::vector<std::pair<std::string, std::string>> Family(
      const std::string& name) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [series, value] : samples) {
      if (series == name || absl::StartsWith(series, name + "{")) {
        out.emplace_back(series, value);
      }
    }
    return out;
  }
};

inline Scrape ParseScrape(const std::string& text) {
  Scrape scrape;
  scrape.text = text;
  for (const absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    if (absl::StartsWith(line, "# HELP ")) continue;
    if (absl::StartsWith(line, "# TYPE ")) {
      const std::vector<std::string> parts = absl::StrSplit(line, ' ');
      EXPECT_EQ(parts.size(), 4u) << line;
      if (parts.size() == 4) scrape.types[parts[2]] = parts[3];
      continue;
    }
    const size_t space = line.rfind(' ');
    EXPECT_NE(space, absl::string_view::npos) << line;
    if (space == absl::string_view::npos) continue;
    const std::string series(line.substr(0, space));
    const std::string value(line.substr(space + 1));
    double number = 0;
    EXPECT_TRUE(absl::SimpleAtod(value, &number) || value == "+Inf") << line;
    // Every sample belongs to a declared family.
    std::string family = series.substr(0, series.find('{'));
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      if (absl::EndsWith(family, suffix) &&
          scrape.types.count(family.substr(
              0, family.size() - std::string(suffix).size())) > 0) {
        family = family.substr(0, family.size() - std::string(suffix).size());
      }
    }
    EXPECT_EQ(scrape.types.count(family), 1u) << "undeclared: " << line;
    EXPECT_EQ(scrape.samples.count(series), 0u) << "twice: " << line;
    scrape.samples[series] = value;
  }
  return scrape;
}

// The metrics port of a server started with --metrics-listen, from its
// "metrics on HOST:PORT (...)" log line.
inline absl::StatusOr<int> MetricsPort(const ServerProcess& server) {
  const std::string log = server.Log();
  const size_t at = log.find("metrics on ");
  if (at == std::string::npos) {
    return absl::NotFoundError(absl::StrCat("no metrics line in: ", log));
  }
  const std::string address =
      log.substr(at + 11, log.find(' ', at + 11) - at - 11);
  int port = 0;
  if (!absl::SimpleAtoi(address.substr(address.rfind(':') + 1), &port)) {
    return absl::InvalidArgumentError(absl::StrCat("bad address ", address));
  }
  return port;
}

// GET /metrics on 127.0.0.1:port, checked (200, the format's content
// type) and parsed.
inline Scrape ScrapeOf(int port) {
  absl::StatusOr<testing::HttpResponse> response =
      testing::HttpRequest("127.0.0.1", port, "GET", "/metrics");
  EXPECT_TRUE(response.ok()) << response.status();
  if (!response.ok()) return Scrape();
  EXPECT_EQ(response->status, 200);
  const auto type = response->headers.find("content-type");
  EXPECT_EQ(type == response->headers.end() ? "" : type->second,
            "text/plain; version=0.0.4");
  return ParseScrape(response->body);
}

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_METRICS_SCRAPE_H_
