#include "server/buyer/release_fingerprint.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/util/sha256_hex.h"

namespace dpq::server::buyer {

std::string DoubleBits(double value) {
  uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(value));
  std::memcpy(&bits, &value, sizeof(bits));
  return absl::StrFormat("%016x", bits);
}

std::string WeightBits(const std::vector<double>& weights) {
  std::vector<std::string> bits;
  for (const double w : weights) bits.push_back(DoubleBits(w));
  return absl::StrJoin(bits, ",");
}

std::string FingerprintOf(
    absl::string_view rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string text = absl::StrCat("dpq.v1.BuyerService/", rpc, "\n");
  for (const auto& [key, value] : parameters) {
    absl::StrAppend(&text, key, "=", absl::CEscape(value), "\n");
  }
  return core::util::Sha256Hex(text);
}

}  // namespace dpq::server::buyer
