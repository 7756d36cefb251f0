// A minimal writer for one-line JSON objects, as printed by dpq's tools
// (`dpq-measure`, later `dpq --json`). Keys keep insertion order.
#ifndef DPQ_CORE_UTIL_JSON_WRITER_H_
#define DPQ_CORE_UTIL_JSON_WRITER_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace dpq::core::util {

// Escapes `s` as a JSON string literal, including the quotes. Control
// characters (C0, DEL and the C1 range U+0080-U+009F) become \uXXXX, so that
// printed JSON cannot drive a terminal; other valid UTF-8 passes through;
// each byte that is not part of valid UTF-8 becomes \ufffd (U+FFFD), so the
// result is always valid JSON.
std::string JsonQuote(absl::string_view s);

class JsonObjectWriter {
 public:
  JsonObjectWriter& Add(absl::string_view key, absl::string_view value);
  JsonObjectWriter& Add(absl::string_view key, const char* value) {
    return Add(key, absl::string_view(value));
  }
  JsonObjectWriter& Add(absl::string_view key, int64_t value);
  JsonObjectWriter& Add(absl::string_view key, uint64_t value);
  JsonObjectWriter& Add(absl::string_view key, int value) {
    return Add(key, static_cast<int64_t>(value));
  }
  JsonObjectWriter& Add(absl::string_view key, uint32_t value) {
    return Add(key, static_cast<uint64_t>(value));
  }
  // Finite values print with 15 significant digits; NaN/inf as null.
  JsonObjectWriter& Add(absl::string_view key, double value);
  JsonObjectWriter& Add(absl::string_view key, bool value);
  JsonObjectWriter& AddNull(absl::string_view key);
  // `json` must already be valid JSON (an array or object).
  JsonObjectWriter& AddRaw(absl::string_view key, absl::string_view json);

  // The object, e.g. {"a":1,"b":"x"}.
  std::string Finish() const { return body_ + "}"; }

 private:
  void Key(absl::string_view key);
  std::string body_ = "{";
};

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_JSON_WRITER_H_
