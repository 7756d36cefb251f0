// Bearer-token authentication (docs/architecture.md 3, step 1;
// docs/security.md, threat model):
// reads `authorization: Bearer <token>`, looks its SHA-256 up in the
// AccountsStore, and on success sets the auth-context property
// `dpq.principal` ("admin:admin" or "buyer:<id>") as the peer identity and
// consumes the header, so handlers never see the token. A missing, malformed,
// unknown or revoked token is rejected with UNAUTHENTICATED before any
// handler runs. The gRPC health and reflection services need no token, so
// that probes work.
//
// One connection, one principal. gRPC hands the processor the
// *connection's* auth context, shared by every call on that connection, so
// a property added for one call is seen by all later ones. The processor
// therefore binds a connection to the principal of its first authenticated
// call, and rejects with UNAUTHENTICATED a call on that connection whose
// (valid) token belongs to another principal; every call's token is still
// checked, so revocation takes effect at once. Clients that use several
// tokens need one channel per token, and must stop gRPC from sharing the
// TCP connection between equal channels (GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL,
// or distinct channel arguments). gRPC documents the shared context as
// expected behaviour (grpc/grpc#28809).
#ifndef DPQ_SERVER_AUTH_TOKEN_AUTH_PROCESSOR_H_
#define DPQ_SERVER_AUTH_TOKEN_AUTH_PROCESSOR_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/security/auth_metadata_processor.h"
#include "grpcpp/security/server_credentials.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"

namespace dpq::server::auth {

// The metadata key of the bearer token (lower case, as on the wire).
inline constexpr char kAuthorizationKey[] = "authorization";

// True for methods that need no token: /grpc.health.v1.Health/... and
// /grpc.reflection.... (`method` is the HTTP/2 :path).
bool IsUnauthenticatedMethod(absl::string_view method);

// Writes the request log line of a call rejected before its handler ran
// (`method` is the :path; the line names it without the leading '/').
void LogRejected(absl::string_view method, const absl::Status& status);

// "admin:<id>" or "buyer:<id>".
std::string PrincipalPropertyValue(const Principal& principal);

class TokenAuthProcessor final : public grpc::AuthMetadataProcessor {
 public:
  // `accounts` must outlive the processor.
  explicit TokenAuthProcessor(const AccountsStore* accounts)
      : accounts_(accounts) {}

  // Binds the principal to the connection: `existing` returns the values of
  // kPrincipalProperty already on the connection's auth context, `add`
  // adds the property and makes it the peer identity. Serialised by a lock,
  // so that concurrent first calls on one connection add it once.
  // kUnauthenticated if the connection belongs to another principal.
  absl::Status BindToConnection(
      const Principal& principal,
      absl::FunctionRef<std::vector<std::string>()> existing,
      absl::FunctionRef<void(const std::string&)> add)
      ABSL_LOCKS_EXCLUDED(bind_mu_);

  // The decision, without gRPC types. `method` is the :path ("" if
  // unknown), `authorization` the header if present. Returns the principal,
  // or nullopt for an exempt method (health, reflection), whose token is
  // not looked at. kUnauthenticated otherwise, never echoing the token.
  absl::StatusOr<std::optional<Principal>> Authenticate(
      absl::string_view method,
      std::optional<absl::string_view> authorization) const;

  // In-memory lookups only: runs on the call's thread.
  bool IsBlocking() const override { return false; }

  grpc::Status Process(const InputMetadata& auth_metadata,
                       grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata,
                       OutputMetadata* response_metadata) override;

 private:
  const AccountsStore* accounts_;
  absl::Mutex bind_mu_;
};

// Plaintext server credentials that still run `processor` on every call
// (grpc::InsecureServerCredentials() does not accept a processor). Only for
// `--insecure` local demos and tests.
std::shared_ptr<grpc::ServerCredentials> InsecureServerCredentialsWithAuth(
    std::shared_ptr<TokenAuthProcessor> processor);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_TOKEN_AUTH_PROCESSOR_H_
