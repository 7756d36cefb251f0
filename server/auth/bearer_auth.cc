#include "server/auth/bearer_auth.h"

#include <iterator>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/util/sha256_hex.h"
#include "server/auth/token.h"

namespace dpq::server::auth {

absl::StatusOr<Principal> AuthenticateBearer(
    const AccountsStore& accounts,
    std::optional<absl::string_view> authorization) {
  if (!authorization.has_value()) {
    return absl::UnauthenticatedError(
        "Missing bearer token: send 'authorization: Bearer <token>' (dpq "
        "--token or DPQ_TOKEN).");
  }
  const absl::string_view value = *authorization;
  constexpr absl::string_view kScheme = "bearer ";
  if (value.size() < kScheme.size() ||
      !absl::EqualsIgnoreCase(value.substr(0, kScheme.size()), kScheme)) {
    return absl::UnauthenticatedError(
        "Malformed 'authorization' metadata: expected 'Bearer <token>'.");
  }
  const absl::string_view token =
      absl::StripAsciiWhitespace(value.substr(kScheme.size()));
  if (!IsWellFormedToken(token)) {
    return absl::UnauthenticatedError(
        "Malformed bearer token: a dpq token is 'dpq_' followed by 64 "
        "lowercase hex digits.");
  }
  absl::StatusOr<std::optional<Principal>> principal =
      accounts.Authenticate(core::util::Sha256Hex(token));
  if (!principal.ok()) return principal.status();
  if (!principal->has_value()) {
    return absl::UnauthenticatedError(
        "Unknown or revoked bearer token: ask the admin for a valid one.");
  }
  return **std::move(principal);
}

absl::StatusOr<Principal> CallerOf(const AccountsStore& accounts,
                                   const grpc::ServerContext& context) {
  const auto [first, last] =
      context.client_metadata().equal_range(kAuthorizationKey);
  if (first == last) return AuthenticateBearer(accounts, std::nullopt);
  if (std::next(first) != last) {
    return absl::UnauthenticatedError(
        "Malformed 'authorization' metadata: expected exactly one "
        "'Bearer <token>'.");
  }
  return AuthenticateBearer(
      accounts, absl::string_view(first->second.data(), first->second.size()));
}

}  // namespace dpq::server::auth
