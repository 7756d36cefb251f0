#include "server/auth/token_auth_processor.h"

#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/util/sha256_hex.h"
#include "server/auth/token.h"
#include "server/request_log.h"

namespace dpq::server::auth {
namespace {

constexpr char kPathKey[] = ":path";

absl::string_view View(const grpc::string_ref& ref) {
  return absl::string_view(ref.data(), ref.size());
}

absl::string_view View(const grpc_slice& slice) {
  return absl::string_view(
      reinterpret_cast<const char*>(GRPC_SLICE_START_PTR(slice)),
      GRPC_SLICE_LENGTH(slice));
}

// The C-level processor behind InsecureServerCredentialsWithAuth: the same
// decision as TokenAuthProcessor::Process, on the C auth context.
void ProcessInsecure(void* state, grpc_auth_context* context,
                     const grpc_metadata* md, size_t num_md,
                     grpc_process_auth_metadata_done_cb done, void* user_data) {
  const auto& processor =
      *static_cast<std::shared_ptr<TokenAuthProcessor>*>(state);
  absl::string_view method;
  std::optional<absl::string_view> authorization;
  const grpc_metadata* authorization_md = nullptr;
  for (size_t i = 0; i < num_md; ++i) {
    const absl::string_view key = View(md[i].key);
    if (key == kPathKey) method = View(md[i].value);
    if (key == kAuthorizationKey && authorization_md == nullptr) {
      authorization = View(md[i].value);
      authorization_md = &md[i];
    }
  }
  absl::StatusOr<std::optional<Principal>> result =
      processor->Authenticate(method, authorization);
  if (!result.ok()) {
    LogRejected(method, result.status());
    const std::string message(result.status().message());
    done(user_data, nullptr, 0, nullptr, 0, GRPC_STATUS_UNAUTHENTICATED,
         message.c_str());
    return;
  }
  if (result->has_value()) {
    const absl::Status bound = processor->BindToConnection(
        **result,
        [context] {
          std::vector<std::string> values;
          grpc_auth_property_iterator it =
              grpc_auth_context_find_properties_by_name(context,
                                                        kPrincipalProperty);
          while (const grpc_auth_property* property =
                     grpc_auth_property_iterator_next(&it)) {
            values.emplace_back(property->value, property->value_length);
          }
          return values;
        },
        [context](const std::string& value) {
          grpc_auth_context_add_cstring_property(context, kPrincipalProperty,
                                                 value.c_str());
          grpc_auth_context_set_peer_identity_property_name(context,
                                                            kPrincipalProperty);
        });
    if (!bound.ok()) {
      LogRejected(method, bound);
      const std::string message(bound.message());
      done(user_data, nullptr, 0, nullptr, 0, GRPC_STATUS_UNAUTHENTICATED,
           message.c_str());
      return;
    }
  }
  done(user_data, authorization_md, authorization_md != nullptr ? 1 : 0,
       nullptr, 0, GRPC_STATUS_OK, nullptr);
}

void DestroyInsecure(void* state) {
  delete static_cast<std::shared_ptr<TokenAuthProcessor>*>(state);
}

class InsecureCredentialsWithAuth final : public grpc::ServerCredentials {
 public:
  explicit InsecureCredentialsWithAuth(
      std::shared_ptr<TokenAuthProcessor> processor)
      : processor_(std::move(processor)) {}

  // The processor is fixed at construction.
  void SetAuthMetadataProcessor(
      const std::shared_ptr<grpc::AuthMetadataProcessor>&) override {}

 private:
  int AddPortToServer(const std::string& addr, grpc_server* server) override {
    grpc_server_credentials* creds = grpc_insecure_server_credentials_create();
    grpc_server_credentials_set_auth_metadata_processor(
        creds, grpc_auth_metadata_processor{
                   &ProcessInsecure, &DestroyInsecure,
                   new std::shared_ptr<TokenAuthProcessor>(processor_)});
    const int port = grpc_server_add_http2_port(server, addr.c_str(), creds);
    grpc_server_credentials_release(creds);
    return port;
  }

  std::shared_ptr<TokenAuthProcessor> processor_;
};

}  // namespace

void LogRejected(absl::string_view method, const absl::Status& status) {
  // The handler never runs for a rejected call: log its one line here.
  const std::string rpc =
      method.empty() ? std::string("-") : std::string(method.substr(1));
  RequestLog log(rpc.c_str());
  log.Finish(grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                          std::string(status.message())));
}

bool IsUnauthenticatedMethod(absl::string_view method) {
  return absl::StartsWith(method, "/grpc.health.v1.Health/") ||
         absl::StartsWith(method, "/grpc.reflection.");
}

std::string PrincipalPropertyValue(const Principal& principal) {
  return absl::StrCat(principal.role == Role::kAdmin ? "admin:" : "buyer:",
                      principal.id);
}

absl::Status TokenAuthProcessor::BindToConnection(
    const Principal& principal,
    absl::FunctionRef<std::vector<std::string>()> existing,
    absl::FunctionRef<void(const std::string&)> add) {
  const std::string wanted = PrincipalPropertyValue(principal);
  absl::MutexLock lock(&bind_mu_);
  const std::vector<std::string> values = existing();
  if (values.empty()) {
    add(wanted);
    return absl::OkStatus();
  }
  for (const std::string& value : values) {
    if (value != wanted) {
      return absl::UnauthenticatedError(
          "This connection is already authenticated as another principal: "
          "use a separate channel (connection) per token, e.g. with "
          "GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL.");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Principal>> TokenAuthProcessor::Authenticate(
    absl::string_view method,
    std::optional<absl::string_view> authorization) const {
  if (IsUnauthenticatedMethod(method)) return std::nullopt;
  if (!authorization.has_value()) {
    return absl::UnauthenticatedError(
        "Missing bearer token: send 'authorization: Bearer <token>' (dpq "
        "--token or DPQ_TOKEN).");
  }
  absl::string_view value = *authorization;
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
  std::optional<Principal> principal =
      accounts_->Authenticate(core::util::Sha256Hex(token));
  if (!principal.has_value()) {
    return absl::UnauthenticatedError(
        "Unknown or revoked bearer token: ask the admin for a valid one.");
  }
  return principal;
}

grpc::Status TokenAuthProcessor::Process(
    const InputMetadata& auth_metadata, grpc::AuthContext* context,
    OutputMetadata* consumed_auth_metadata,
    OutputMetadata* /*response_metadata*/) {
  absl::string_view method;
  if (auto it = auth_metadata.find(kPathKey); it != auth_metadata.end()) {
    method = View(it->second);
  }
  std::optional<absl::string_view> authorization;
  auto auth_it = auth_metadata.find(kAuthorizationKey);
  if (auth_it != auth_metadata.end()) authorization = View(auth_it->second);

  absl::StatusOr<std::optional<Principal>> result =
      Authenticate(method, authorization);
  if (!result.ok()) {
    LogRejected(method, result.status());
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        std::string(result.status().message()));
  }
  if (result->has_value()) {
    const absl::Status bound = BindToConnection(
        **result,
        [context] {
          std::vector<std::string> values;
          for (const grpc::string_ref& value :
               context->FindPropertyValues(kPrincipalProperty)) {
            values.emplace_back(value.data(), value.size());
          }
          return values;
        },
        [context](const std::string& value) {
          context->AddProperty(kPrincipalProperty, value);
          context->SetPeerIdentityPropertyName(kPrincipalProperty);
        });
    if (!bound.ok()) {
      LogRejected(method, bound);
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                          std::string(bound.message()));
    }
  }
  if (auth_it != auth_metadata.end()) {
    consumed_auth_metadata->emplace(std::string(View(auth_it->first)),
                                    std::string(View(auth_it->second)));
  }
  return grpc::Status::OK;
}

std::shared_ptr<grpc::ServerCredentials> InsecureServerCredentialsWithAuth(
    std::shared_ptr<TokenAuthProcessor> processor) {
  return std::make_shared<InsecureCredentialsWithAuth>(std::move(processor));
}

}  // namespace dpq::server::auth
