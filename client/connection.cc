#include "client/connection.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/stubs/logging.h"
#include "grpc/support/log.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"

namespace dpq::client {
namespace {

// Sends the bearer token on every call of a secure channel.
class BearerTokenPlugin final : public grpc::MetadataCredentialsPlugin {
 public:
  explicit BearerTokenPlugin(std::string token) : value_(BearerValue(token)) {}

  bool IsBlocking() const override { return false; }
  const char* GetType() const override { return "dpq-bearer"; }

  grpc::Status GetMetadata(
      grpc::string_ref /*service_url*/, grpc::string_ref /*method_name*/,
      const grpc::AuthContext& /*channel_auth_context*/,
      std::multimap<grpc::string, grpc::string>* metadata) override {
    metadata->insert({"authorization", value_});
    return grpc::Status::OK;
  }

 private:
  const std::string value_;
};

// The host part of host:port, [v6]:port, or a URI "scheme:...".
std::string HostOf(absl::string_view target) {
  if (absl::StartsWith(target, "dns:///")) target.remove_prefix(7);
  if (absl::StartsWith(target, "ipv4:")) target.remove_prefix(5);
  if (absl::StartsWith(target, "ipv6:")) target.remove_prefix(5);
  if (absl::StartsWith(target, "[")) {
    const size_t close = target.find(']');
    if (close != absl::string_view::npos) {
      return std::string(target.substr(1, close - 1));
    }
  }
  // A bare IPv6 address has several colons and no port.
  if (target.find(':') != target.rfind(':')) return std::string(target);
  return std::string(target.substr(0, target.find(':')));
}

constexpr int kMaxReceiveMessageBytes = 64 << 20;

}  // namespace

std::string BearerValue(absl::string_view token) {
  return absl::StrCat("Bearer ", token);
}

bool IsLoopbackTarget(absl::string_view target) {
  if (absl::StartsWith(target, "unix:") ||
      absl::StartsWith(target, "unix-abstract:")) {
    return true;
  }
  const std::string host = absl::AsciiStrToLower(HostOf(target));
  if (host == "localhost" || host == "ip6-localhost" || host == "::1") {
    return true;
  }
  if (absl::EndsWith(host, ".localhost")) return true;
  // 127.0.0.0/8.
  const std::vector<std::string> parts = absl::StrSplit(host, '.');
  if (parts.size() != 4 || parts[0] != "127") return false;
  for (const std::string& part : parts) {
    int octet;
    if (!absl::SimpleAtoi(part, &octet) || octet < 0 || octet > 255) {
      return false;
    }
  }
  return true;
}

std::string NormalizeTarget(absl::string_view server) {
  std::string target(server);
  if (target.find("://") != std::string::npos ||
      absl::StartsWith(target, "unix:") || absl::StartsWith(target, "ipv4:") ||
      absl::StartsWith(target, "ipv6:")) {
    return target;
  }
  if (absl::StartsWith(target, "[")) {
    // [v6] or [v6]:port.
    if (absl::EndsWith(target, "]")) absl::StrAppend(&target, ":50051");
    return target;
  }
  if (target.find(':') == std::string::npos) {
    absl::StrAppend(&target, ":50051");
  }
  return target;
}

absl::StatusOr<Connection> ConnectGrpc(const ConnectionOptions& options) {
  if (options.target.empty()) {
    return absl::InvalidArgumentError("--server must not be empty.");
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxReceiveMessageBytes);
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (options.insecure) {
    creds = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.root_certs_pem;
    ssl.pem_cert_chain = options.client_cert_pem;
    ssl.pem_private_key = options.client_key_pem;
    creds = grpc::SslCredentials(ssl);
    if (!options.token.empty()) {
      creds = grpc::CompositeChannelCredentials(
          creds, grpc::MetadataCredentialsFromPlugin(
                     std::make_unique<BearerTokenPlugin>(options.token)));
    }
    if (!options.tls_server_name.empty()) {
      args.SetSslTargetNameOverride(options.tls_server_name);
    }
  }
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(options.target, creds, args);
  if (channel == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("Cannot create a channel to '", options.target, "'."));
  }
  Connection connection;
  connection.buyer = dpq::v1::BuyerService::NewStub(channel);
  connection.admin = dpq::v1::AdminService::NewStub(channel);
  connection.health = grpc::health::v1::Health::NewStub(channel);
  return connection;
}

void PrepareContext(const CallOptions& options, grpc::ClientContext* context) {
  const absl::Time deadline = absl::Now() + options.timeout;
  context->set_deadline(absl::ToChronoTime(deadline));
  if (!options.plaintext_token.empty()) {
    context->AddMetadata("authorization", BearerValue(options.plaintext_token));
  }
}

void QuietLibraryLogs() {
  if (std::getenv("GRPC_VERBOSITY") != nullptr) return;
  gpr_set_log_function([](gpr_log_func_args* /*args*/) {});
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel /*level*/,
                                     const char* /*filename*/, int /*line*/,
                                     const std::string& /*message*/) {});
}

}  // namespace dpq::client
