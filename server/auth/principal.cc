#include "server/auth/principal.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::server::auth {

absl::Status CheckAdmin(const Principal& caller) {
  if (caller.role == Role::kAdmin) return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat("Buyer '", caller.id,
                   "' may not call admin RPCs; use the admin "
                   "token."));
}

absl::Status RequirePrincipal(const Principal& caller) {
  if (caller.id.empty()) {
    return absl::UnauthenticatedError("The caller has no principal id.");
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::auth
