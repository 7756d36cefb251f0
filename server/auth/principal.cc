#include "server/auth/principal.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/security/auth_context.h"

namespace dpq::server::auth {

absl::StatusOr<Principal> CallerOf(const grpc::ServerContext& context) {
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth != nullptr) {
    for (const grpc::string_ref& value :
         auth->FindPropertyValues(std::string(kPrincipalProperty))) {
      const std::string v(value.data(), value.size());
      if (absl::StartsWith(v, "admin:")) {
        return Principal{v.substr(6), Role::kAdmin};
      }
      if (absl::StartsWith(v, "buyer:")) {
        return Principal{v.substr(6), Role::kBuyer};
      }
    }
  }
  return absl::UnauthenticatedError(
      "No valid bearer token: send 'authorization: Bearer <token>' (dpq "
      "--token or DPQ_TOKEN).");
}

absl::Status CheckAdmin(const Principal& caller) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat("Buyer '", caller.id,
                   "' may not call admin RPCs; use the admin "
                   "token."));
}

absl::StatusOr<Principal> RequireAdmin(const grpc::ServerContext& context) {
  absl::StatusOr<Principal> caller = CallerOf(context);
  if (!caller.ok()) return caller.status();
  if (absl::Status s = CheckAdmin(*caller); !s.ok()) return s;
  return caller;
}

}  // namespace dpq::server::auth
