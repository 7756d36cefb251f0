#include "server/reflection/reflection_option.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/impl/server_initializer.h"
#include "server/reflection/reflection_v1_service.h"

namespace dpq::server::reflection {
namespace {

// The name under which libgrpc++_reflection's plugin registers itself
// (grpc::reflection::ProtoServerReflectionPlugin::name()).
constexpr char kV1AlphaPluginName[] = "proto_server_reflection";
constexpr char kV1PluginName[] = "dpq_server_reflection_v1";

// Adds ReflectionV1Service to the server, and gives it the final list of
// services once every service is registered.
class ReflectionV1Plugin final : public grpc::ServerBuilderPlugin {
 public:
  std::string name() override { return kV1PluginName; }
  void InitServer(grpc::ServerInitializer* si) override {
    si->RegisterService(service_);
  }
  void Finish(grpc::ServerInitializer* si) override {
    service_->SetServiceList(*si->GetServiceList());
  }
  void ChangeArguments(const std::string& /*name*/, void* /*value*/) override {}
  bool has_sync_methods() const override { return true; }
  bool has_async_methods() const override { return false; }

 private:
  // Shared with the server (ServerInitializer keeps it alive as long).
  std::shared_ptr<ReflectionV1Service> service_ =
      std::make_shared<ReflectionV1Service>();
};

class ReflectionOption final : public grpc::ServerBuilderOption {
 public:
  explicit ReflectionOption(bool enabled) : enabled_(enabled) {}

  void UpdateArguments(grpc::ChannelArguments* /*args*/) override {}

  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>*
                         plugins) override {
    // Start from no reflection at all, whatever the process registered.
    plugins->erase(
        std::remove_if(plugins->begin(), plugins->end(),
                       [](const std::unique_ptr<grpc::ServerBuilderPlugin>& p) {
                         const std::string name = p->name();
                         return name == kV1AlphaPluginName ||
                                name == kV1PluginName;
                       }),
        plugins->end());
    if (!enabled_) return;
    plugins->push_back(
        std::make_unique<grpc::reflection::ProtoServerReflectionPlugin>());
    plugins->push_back(std::make_unique<ReflectionV1Plugin>());
  }

 private:
  const bool enabled_;
};

}  // namespace

std::unique_ptr<grpc::ServerBuilderOption> MakeReflectionOption(bool enabled) {
  return std::make_unique<ReflectionOption>(enabled);
}

}  // namespace dpq::server::reflection
