#include "server/http/web_policy.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace dpq::server::http {

std::vector<Header> SecurityHeaders(Content content, bool tls) {
  std::vector<Header> headers = {
      {"Content-Security-Policy", kContentSecurityPolicy},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "no-referrer"},
      {"Cross-Origin-Opener-Policy", "same-origin"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
      {"Permissions-Policy", "camera=(), microphone=(), geolocation=()"},
  };
  // Answers and tokens must not outlive the tab in any cache; the
  // console's files hold neither.
  if (content == Content::kPrivate) {
    headers.emplace_back("Cache-Control", "no-store");
    headers.emplace_back("Pragma", "no-cache");
  } else {
    headers.emplace_back("Cache-Control", "no-cache");
  }
  if (tls)
    headers.emplace_back("Strict-Transport-Security", "max-age=31536000");
  return headers;
}

bool CorsPolicy::Allows(absl::string_view origin) const {
  return !origin.empty() &&
         std::find(origins_.begin(), origins_.end(), origin) != origins_.end();
}

std::vector<Header> CorsPolicy::Headers(absl::string_view origin,
                                        bool preflight) const {
  if (!Allows(origin)) return {};
  std::vector<Header> headers = {
      {"Access-Control-Allow-Origin", std::string(origin)}, {"Vary", "Origin"}};
  if (preflight) {
    headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, DELETE");
    headers.emplace_back("Access-Control-Allow-Headers",
                         "authorization, content-type, grpc-timeout");
    headers.emplace_back("Access-Control-Max-Age", "600");
  }
  return headers;
}

std::string CheckCorsOrigin(absl::string_view origin) {
  absl::string_view rest = origin;
  if (!absl::ConsumePrefix(&rest, "https://") &&
      !absl::ConsumePrefix(&rest, "http://")) {
    return absl::StrCat("'", origin, "' must start with https:// or http://");
  }
  if (rest.empty() || absl::StrContains(rest, '/') ||
      absl::StrContains(rest, '*') || absl::StrContains(rest, ' ')) {
    return absl::StrCat("'", origin,
                        "' must be scheme://host[:port], with no path and "
                        "no wildcard");
  }
  return "";
}

}  // namespace dpq::server::http
