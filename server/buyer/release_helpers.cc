#include "server/buyer/release_helpers.h"

#include <cstdint>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/error_details.h"
#include "core/util/sha256_hex.h"

namespace dpq::server::buyer::internal {

absl::Status ValidateRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > kMaxRequestIdLength) {
    return core::util::InvalidFieldError(
        "request_id",
        absl::StrCat("request_id must have 1-", kMaxRequestIdLength,
                     " printable ASCII characters, but has ", request_id.size(),
                     "."));
  }
  for (size_t i = 0; i < request_id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(request_id[i]);
    if (c < 0x20 || c > 0x7e) {
      return core::util::InvalidFieldError(
          "request_id",
          absl::StrFormat("request_id must be printable ASCII, but "
                          "character %d is byte 0x%02x.",
                          i + 1, static_cast<int>(c)));
    }
  }
  return absl::OkStatus();
}

absl::Status RequireCaller(const auth::Principal& caller) {
  if (caller.id.empty()) {
    return absl::UnauthenticatedError("The caller has no principal id.");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id) {
  if (request_id.empty()) {
    // Never chosen here: an id the server picked would not reach a client
    // whose call was charged but timed out, and that charge could then not
    // be recovered by a retry (buyer_service.proto, request_id).
    return core::util::InvalidFieldError(
        "request_id",
        "request_id is required: choose a unique id per release, e.g. a "
        "UUID, and reuse it to retry; a retry with the same request_id "
        "returns the recorded answer without a further charge. Nothing was "
        "charged.");
  }
  RETURN_IF_ERROR(ValidateRequestId(request_id));
  return request_id;
}

void FillMeasureUnits(v1::MeasureResult* result) {
  if (result->epsilon_units() != 0 || !(result->epsilon() > 0)) return;
  const absl::StatusOr<int64_t> units =
      core::ledger::ChargeUnits(result->epsilon());
  if (units.ok()) result->set_epsilon_units(*units);
}

std::string DoubleBits(double value) {
  uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(value));
  std::memcpy(&bits, &value, sizeof(bits));
  return absl::StrFormat("%016x", bits);
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

}  // namespace dpq::server::buyer::internal
