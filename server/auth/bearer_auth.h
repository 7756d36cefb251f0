// Per-call bearer-token authentication (docs/architecture.md 3, step 2;
// docs/security.md, threat model). Every call of the dpq services carries
// its own `authorization: Bearer <token>` metadata, and the handler
// skeleton (server/call_handler.h) authenticates it for that call alone by
// looking the token's SHA-256 up in the AccountsStore. Nothing is bound to
// the connection: calls of several buyers and the admin over one HTTP/2
// connection (an L7 proxy, a service acting for many buyers) are each
// authorised as their own caller, and a revocation takes effect on the
// very next call. The gRPC health and reflection services never get here:
// they need no token.
//
// The token stays in the call's metadata (the ServerContext's client
// metadata): bearer_auth.cc is the only code that reads that metadata (a
// test, SourceFilesTest.OnlyTheBearerCheckReadsCallMetadata, enforces it),
// and no status message or log line contains the token.
#ifndef DPQ_SERVER_AUTH_BEARER_AUTH_H_
#define DPQ_SERVER_AUTH_BEARER_AUTH_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/server_context.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"

namespace dpq::server::auth {

// The metadata key of the bearer token (lower case, as on the wire).
inline constexpr char kAuthorizationKey[] = "authorization";

// The principal that `authorization` (the metadata value; nullopt if the
// call has none) authenticates. kUnauthenticated for a missing, malformed,
// unknown or revoked token, with a message that never echoes the token;
// the store's own error otherwise (kUnavailable when its database is
// unreachable).
absl::StatusOr<Principal> AuthenticateBearer(
    const AccountsStore& accounts,
    std::optional<absl::string_view> authorization);

// The caller of `context`'s call: AuthenticateBearer on its `authorization`
// metadata. A call with more than one `authorization` value is
// kUnauthenticated (which one a proxy or the server would honour is
// ambiguous).
absl::StatusOr<Principal> CallerOf(const AccountsStore& accounts,
                                   const grpc::ServerContext& context);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_BEARER_AUTH_H_
