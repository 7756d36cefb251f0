// Fuzz target: an HTTP request as the listener transcodes it
// (server/http: route_table.h, json_transcoder.h, line_splitter.h). The
// first line is "METHOD PATH[?QUERY]" (the query split at '&' and '=', as
// the HTTP server hands it over decoded), the rest is the body.
// Invariants: a route is found or refused with kNotFound/kUnimplemented; a
// request is built or refused with kInvalidArgument and a readable
// message; a built request prints as JSON and parses back to itself; the
// body cut into lines yields lines without a newline, each within the
// limit, or kResourceExhausted.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/util/field_comparator.h"
#include "google/protobuf/util/message_differencer.h"
#include "server/http/json_transcoder.h"
#include "server/http/line_splitter.h"
#include "server/http/route_table.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

using server::http::QueryParameter;

const server::http::RouteTable& Routes() {
  static const auto* const routes = [] {
    auto table = server::http::RouteTable::ForDpqV1();
    FUZZ_CHECK_MSG(table.ok(), table.status().ToString());
    return new server::http::RouteTable(*std::move(table));
  }();
  return *routes;
}

void CheckRequest(absl::string_view first_line, absl::string_view body) {
  const std::pair<absl::string_view, absl::string_view> method_target =
      absl::StrSplit(first_line, absl::MaxSplits(' ', 1));
  const std::pair<absl::string_view, absl::string_view> path_query =
      absl::StrSplit(method_target.second, absl::MaxSplits('?', 1));
  absl::StatusOr<server::http::RouteMatch> match =
      Routes().Find(method_target.first, path_query.first);
  if (!match.ok()) {
    CheckError(match.status());
    FUZZ_CHECK(match.status().code() == absl::StatusCode::kNotFound ||
               match.status().code() == absl::StatusCode::kUnimplemented);
    return;
  }
  std::vector<QueryParameter> query;
  for (absl::string_view part :
       absl::StrSplit(path_query.second, '&', absl::SkipEmpty())) {
    const std::pair<absl::string_view, absl::string_view> key_value =
        absl::StrSplit(part, absl::MaxSplits('=', 1));
    query.emplace_back(std::string(key_value.first),
                       std::string(key_value.second));
  }
  auto request = server::http::RequestFromHttp(*match, query, body);
  if (!request.ok()) {
    CheckError(request.status());
    FUZZ_CHECK_MSG(
        request.status().code() == absl::StatusCode::kInvalidArgument,
        request.status().ToString());
    return;
  }
  absl::StatusOr<std::string> json = server::http::JsonFromMessage(**request);
  FUZZ_CHECK_MSG(json.ok(), json.status().ToString());
  auto again = server::http::NewMessage((*request)->GetDescriptor());
  const absl::Status parsed = server::http::MessageFromJson(*json, again.get());
  FUZZ_CHECK_MSG(parsed.ok(), parsed.ToString());
  // NaN (the JSON "NaN") equals itself here: the value round-trips.
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  FUZZ_CHECK(differencer.Compare(**request, *again));
}

void CheckLines(absl::string_view body) {
  constexpr int64_t kLimit = 64;
  server::http::LineSplitter lines(kLimit);
  // Pieces of 1, 2, 3, ... bytes: lines cross the pieces' ends.
  size_t at = 0;
  for (size_t piece = 1; at < body.size(); ++piece) {
    lines.Append(body.substr(at, piece));
    at += piece;
    std::string line;
    while (true) {
      absl::StatusOr<bool> next = lines.Next(&line);
      if (!next.ok()) {
        FUZZ_CHECK(next.status().code() ==
                   absl::StatusCode::kResourceExhausted);
        return;
      }
      if (!*next) break;
      FUZZ_CHECK(line.find('\n') == std::string::npos);
      FUZZ_CHECK(static_cast<int64_t>(line.size()) <= kLimit);
    }
  }
}

}  // namespace

int FuzzHttpRequest(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t newline = text.find('\n');
  const absl::string_view first = text.substr(0, newline);
  const absl::string_view body = newline == absl::string_view::npos
                                     ? absl::string_view()
                                     : text.substr(newline + 1);
  CheckRequest(first, body);
  CheckLines(body);
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzHttpRequest)
