// The path template of a google.api.http rule (proto/google/api/http.proto)
// in the subset dpq's annotations use: literal segments, single-segment
// variables "{field}" (or "{field=*}", the same) naming a request field,
// and an optional ":verb" after the last segment, e.g.
// "/v1/datasets/{dataset_id}:measure". A template outside that subset
// ("**", nested variables) is refused when the route table is built, so a
// new annotation cannot be served wrongly.
#ifndef DPQ_SERVER_HTTP_PATH_TEMPLATE_H_
#define DPQ_SERVER_HTTP_PATH_TEMPLATE_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::http {

// A request field bound from the path: its (dotted) field path and value.
using PathBinding = std::pair<std::string, std::string>;

class PathTemplate {
 public:
  // kInvalidArgument naming the template for syntax outside the subset.
  static absl::StatusOr<PathTemplate> Parse(absl::string_view text);

  // The bindings if `path` (the URL path, percent-decoded, without the
  // query) matches; nullopt otherwise. A variable matches one non-empty
  // segment.
  std::optional<std::vector<PathBinding>> Match(absl::string_view path) const;

  // The template as written.
  const std::string& text() const { return text_; }
  // The fields its variables bind, in order.
  std::vector<std::string> variables() const;

 private:
  struct Segment {
    bool variable = false;
    std::string text;  // the literal, or the field path of a variable
  };
  std::string text_;
  std::vector<Segment> segments_;
  std::string verb_;  // "" without ":verb"
};

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_PATH_TEMPLATE_H_
