// The headers that make dpq-server's HTTP listener a safe web surface
// (docs/http.md, "Security"): a strict Content-Security-Policy (scripts
// and styles only from the console's own files, no inline script, no
// framing), no MIME sniffing, no referrer, no caching of anything that
// holds a token or an answer, HSTS over TLS, and CORS only for the
// origins the operator configured (--http-cors-origins).
#ifndef DPQ_SERVER_HTTP_WEB_POLICY_H_
#define DPQ_SERVER_HTTP_WEB_POLICY_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace dpq::server::http {

// The Content-Security-Policy of every response.
inline constexpr char kContentSecurityPolicy[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'none'; "
    "frame-ancestors 'none'; base-uri 'none'";

// What a response holds, for its caching.
enum class Content {
  kPrivate,  // an API answer or error: never stored (no-store)
  kAsset,    // a console file: public, revalidated on every load
};

// A response header: name and value.
using Header = std::pair<std::string, std::string>;

// The headers every response carries.
std::vector<Header> SecurityHeaders(Content content, bool tls);

class CorsPolicy {
 public:
  // `origins`: exact origins ("https://console.example.com"); none: no
  // cross-origin access at all (the default).
  explicit CorsPolicy(std::vector<std::string> origins)
      : origins_(std::move(origins)) {}

  bool Allows(absl::string_view origin) const;
  // The CORS headers for a request from `origin` ("" if it sent no Origin
  // header): none unless the origin is configured. `preflight` adds the
  // methods and headers a preflight answer names.
  std::vector<Header> Headers(absl::string_view origin, bool preflight) const;

 private:
  std::vector<std::string> origins_;
};

// kInvalidArgument-style message (empty if fine) for a configured origin
// that is not scheme://host[:port] (e.g. a trailing '/', a path, '*').
std::string CheckCorsOrigin(absl::string_view origin);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_WEB_POLICY_H_
