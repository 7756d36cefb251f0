// Who is calling (docs/architecture.md 3, step 2): the principal that the
// call's own bearer token authenticates (server/auth/bearer_auth.h), passed
// by the handler skeleton (server/call_handler.h) to every handler.
#ifndef DPQ_SERVER_AUTH_PRINCIPAL_H_
#define DPQ_SERVER_AUTH_PRINCIPAL_H_

#include <string>

#include "absl/status/status.h"

namespace dpq::server::auth {

enum class Role { kAdmin, kBuyer };

struct Principal {
  std::string id;  // buyer id, or "admin"
  Role role = Role::kBuyer;
};

// kPermissionDenied unless `caller` is an admin (the one role check).
absl::Status CheckAdmin(const Principal& caller);

// kUnauthenticated if `caller` has no id: the handler skeleton never passes
// one, and the buyer functions that key a ledger read or a charge by the
// caller's id check it once more, since an empty id would match every
// buyer's records.
absl::Status RequirePrincipal(const Principal& caller);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_PRINCIPAL_H_
