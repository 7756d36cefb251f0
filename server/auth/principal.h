// Who is calling (docs/architecture.md 3, step 1): set by the token auth
// processor from the `authorization: Bearer <token>` metadata, read by
// handlers.
#ifndef DPQ_SERVER_AUTH_PRINCIPAL_H_
#define DPQ_SERVER_AUTH_PRINCIPAL_H_

#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/server_context.h"

namespace dpq::server::auth {

enum class Role { kAdmin, kBuyer };

// The auth-context property the token processor sets on an authenticated
// call: "admin:<id>" or "buyer:<id>". It is also the peer identity.
inline constexpr char kPrincipalProperty[] = "dpq.principal";

struct Principal {
  std::string id;  // buyer id, or "admin"
  Role role = Role::kBuyer;
};

// The authenticated caller of this RPC. kUnauthenticated if the call carries
// no valid token (the auth processor normally rejects such calls before the
// handler runs; this is the handler's own check).
absl::StatusOr<Principal> CallerOf(const grpc::ServerContext& context);

// kPermissionDenied unless `caller` is an admin (the one role check).
absl::Status CheckAdmin(const Principal& caller);

// CallerOf, then CheckAdmin.
absl::StatusOr<Principal> RequireAdmin(const grpc::ServerContext& context);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_PRINCIPAL_H_
