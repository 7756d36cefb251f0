#include "core/util/shortest_double.h"

#include <charconv>
#include <system_error>

namespace dpq::core::util {

std::string ShortestDouble(double value) {
  // 32 bytes hold any double's shortest form ("-2.2250738585072014e-308").
  char buffer[32];
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return r.ec == std::errc() ? std::string(buffer, r.ptr) : std::string();
}

}  // namespace dpq::core::util
