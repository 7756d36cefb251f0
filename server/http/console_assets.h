// The web console's files (server/http/console/: HTML, JavaScript, CSS),
// built into dpq-server by server/http/embed_console.cmake so that the
// binary and the image need nothing beside them. Served at /console/NAME,
// and index.html also at /.
#ifndef DPQ_SERVER_HTTP_CONSOLE_ASSETS_H_
#define DPQ_SERVER_HTTP_CONSOLE_ASSETS_H_

#include <optional>
#include <string_view>

namespace dpq::server::http {

struct ConsoleAsset {
  std::string_view name;  // "index.html"
  std::string_view content;
};

// The file `name` (a bare file name), or nullopt.
std::optional<ConsoleAsset> FindConsoleAsset(std::string_view name);

// Its Content-Type by extension (html, js, css, svg, png, ico, json, txt);
// application/octet-stream otherwise.
std::string_view ContentTypeOf(std::string_view name);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_CONSOLE_ASSETS_H_
