// Server reflection against the real dpq-server over TLS: grpc.reflection.v1
// (served by server/reflection/) with stubs generated from
// proto/grpc_reflection/v1/reflection.proto, v1alpha beside it, and the
// `reflection = false` switch that turns both off (docs/reflection.md).

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpc_reflection/v1/reflection.grpc.pb.h"
#include "reflection/reflection_subset.grpc.pb.h"
#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

namespace rv1 = ::grpc::reflection::v1;
using ::google::protobuf::FileDescriptorProto;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

// One open v1 reflection stream, without a token (reflection needs none).
class V1Stream {
 public:
  explicit V1Stream(const std::shared_ptr<grpc::Channel>& channel)
      : stub_(rv1::ServerReflection::NewStub(channel)),
        context_(Context("")),
        stream_(stub_->ServerReflectionInfo(context_.get())) {}

  // Sends `request` and reads its answer; false if either fails.
  bool Ask(const rv1::ServerReflectionRequest& request,
           rv1::ServerReflectionResponse* response) {
    return stream_->Write(request) && stream_->Read(response);
  }
  grpc::Status Finish() {
    stream_->WritesDone();
    return stream_->Finish();
  }

 private:
  std::unique_ptr<rv1::ServerReflection::Stub> stub_;
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReaderWriter<rv1::ServerReflectionRequest,
                                           rv1::ServerReflectionResponse>>
      stream_;
};

rv1::ServerReflectionRequest Symbol(const std::string& symbol) {
  rv1::ServerReflectionRequest request;
  request.set_file_containing_symbol(symbol);
  return request;
}

// The parsed FileDescriptorProtos of a file_descriptor_response.
std::vector<FileDescriptorProto> Files(
    const rv1::ServerReflectionResponse& response) {
  std::vector<FileDescriptorProto> files;
  for (const std::string& bytes :
       response.file_descriptor_response().file_descriptor_proto()) {
    FileDescriptorProto file;
    EXPECT_TRUE(file.ParseFromString(bytes));
    files.push_back(file);
  }
  return files;
}

std::vector<std::string> Names(const std::vector<FileDescriptorProto>& files) {
  std::vector<std::string> names;
  for (const FileDescriptorProto& file : files) names.push_back(file.name());
  return names;
}

// Builds `files` into `pool` (dependencies first, whatever their order);
// fails the test if one cannot be built (a dependency missing).
void BuildAll(const std::vector<FileDescriptorProto>& files,
              google::protobuf::DescriptorPool* pool) {
  std::set<std::string> built;
  for (size_t round = 0; round < files.size(); ++round) {
    for (const FileDescriptorProto& file : files) {
      if (built.count(file.name())) continue;
      bool ready = true;
      for (const std::string& dependency : file.dependency()) {
        ready = ready && built.count(dependency) > 0;
      }
      if (!ready) continue;
      ASSERT_NE(pool->BuildFile(file), nullptr) << file.name();
      built.insert(file.name());
    }
  }
  ASSERT_EQ(built.size(), files.size()) << "a dependency was not sent";
}

class ReflectionTest : public ServerFixture {
 protected:
  std::shared_ptr<grpc::Channel> Channel() {
    return TlsChannel(server_->address(), certs_.ca());
  }
};

TEST_F(ReflectionTest, V1ListsEveryRegisteredService) {
  V1Stream stream(Channel());
  rv1::ServerReflectionRequest request;
  request.set_list_services("");
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream.Ask(request, &response));
  std::vector<std::string> names;
  for (const auto& service : response.list_services_response().service()) {
    names.push_back(service.name());
  }
  EXPECT_THAT(names,
              IsSupersetOf({"dpq.v1.BuyerService", "dpq.v1.AdminService",
                            "grpc.health.v1.Health",
                            "grpc.reflection.v1.ServerReflection",
                            "grpc.reflection.v1alpha.ServerReflection"}));
  EXPECT_EQ(response.original_request().list_services(), "");
  EXPECT_THAT(stream.Finish(), GrpcOk());
}

TEST_F(ReflectionTest, V1ResolvesTheBuyerServiceAndSendsEachFileOnce) {
  V1Stream stream(Channel());
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream.Ask(Symbol("dpq.v1.BuyerService"), &response));
  ASSERT_TRUE(response.has_file_descriptor_response())
      << response.DebugString();
  const std::vector<FileDescriptorProto> files = Files(response);
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files[0].name(), "dpq/v1/buyer_service.proto");
  EXPECT_THAT(Names(files),
              IsSupersetOf({"dpq/v1/dataset.proto", "dpq/v1/ledger.proto"}));

  google::protobuf::DescriptorPool pool;
  ASSERT_NO_FATAL_FAILURE(BuildAll(files, &pool));
  const auto* service = pool.FindServiceByName("dpq.v1.BuyerService");
  ASSERT_NE(service, nullptr);
  const auto* list = service->FindMethodByName("ListDatasets");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->input_type()->full_name(), "dpq.v1.ListDatasetsRequest");

  // A message of the same file, on the same stream: the file again (asked
  // for), but none of its dependencies (the stream has them).
  ASSERT_TRUE(
      stream.Ask(Symbol("dpq.v1.MeasureInconsistencyRequest"), &response));
  EXPECT_THAT(Names(Files(response)),
              ::testing::ElementsAre("dpq/v1/buyer_service.proto"));
  // A nested symbol (a method) resolves to its file too.
  ASSERT_TRUE(
      stream.Ask(Symbol("dpq.v1.BuyerService.ListDatasets"), &response));
  EXPECT_THAT(Names(Files(response)),
              ::testing::ElementsAre("dpq/v1/buyer_service.proto"));
  EXPECT_THAT(stream.Finish(), GrpcOk());
}

TEST_F(ReflectionTest, V1FileByNameComesWithItsDependencies) {
  V1Stream stream(Channel());
  rv1::ServerReflectionRequest request;
  request.set_file_by_filename("dpq/v1/buyer_service.proto");
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream.Ask(request, &response));
  const std::vector<FileDescriptorProto> files = Files(response);
  ASSERT_FALSE(files.empty()) << response.DebugString();
  EXPECT_EQ(files[0].name(), "dpq/v1/buyer_service.proto");
  // Transitively closed: every import of every file sent is sent.
  const std::vector<std::string> names = Names(files);
  for (const FileDescriptorProto& file : files) {
    for (const std::string& dependency : file.dependency()) {
      EXPECT_THAT(names, Contains(dependency)) << "imported by " << file.name();
    }
  }
  EXPECT_THAT(names, Contains("google/protobuf/timestamp.proto"));
  google::protobuf::DescriptorPool pool;
  ASSERT_NO_FATAL_FAILURE(BuildAll(files, &pool));
  EXPECT_NE(pool.FindMessageTypeByName("dpq.v1.ListDatasetsResponse"), nullptr);
  EXPECT_THAT(stream.Finish(), GrpcOk());
}

TEST_F(ReflectionTest, V1UnknownNamesGetNotFoundAndTheStreamGoesOn) {
  V1Stream stream(Channel());
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream.Ask(Symbol("dpq.v1.NoSuchMessage"), &response));
  ASSERT_TRUE(response.has_error_response()) << response.DebugString();
  EXPECT_EQ(response.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_THAT(response.error_response().error_message(),
              HasSubstr("dpq.v1.NoSuchMessage"));
  EXPECT_EQ(response.original_request().file_containing_symbol(),
            "dpq.v1.NoSuchMessage");

  rv1::ServerReflectionRequest file;
  file.set_file_by_filename("dpq/v1/no_such.proto");
  ASSERT_TRUE(stream.Ask(file, &response));
  EXPECT_EQ(response.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::NOT_FOUND));

  rv1::ServerReflectionRequest extension;
  extension.mutable_file_containing_extension()->set_containing_type(
      "dpq.v1.ListDatasetsRequest");
  extension.mutable_file_containing_extension()->set_extension_number(1000);
  ASSERT_TRUE(stream.Ask(extension, &response));
  EXPECT_EQ(response.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::NOT_FOUND));

  rv1::ServerReflectionRequest empty;
  ASSERT_TRUE(stream.Ask(empty, &response));
  EXPECT_EQ(response.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));

  // Still answering after the errors.
  ASSERT_TRUE(stream.Ask(Symbol("dpq.v1.BuyerService"), &response));
  EXPECT_TRUE(response.has_file_descriptor_response());
  EXPECT_THAT(stream.Finish(), GrpcOk());
}

TEST_F(ReflectionTest, V1ReportsExtensionNumbersOfAType) {
  V1Stream stream(Channel());
  rv1::ServerReflectionRequest request;
  request.set_all_extension_numbers_of_type("dpq.v1.ListDatasetsRequest");
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream.Ask(request, &response));
  ASSERT_TRUE(response.has_all_extension_numbers_response())
      << response.DebugString();
  EXPECT_EQ(response.all_extension_numbers_response().base_type_name(),
            "dpq.v1.ListDatasetsRequest");
  EXPECT_EQ(response.all_extension_numbers_response().extension_number_size(),
            0);
  EXPECT_THAT(stream.Finish(), GrpcOk());
}

TEST_F(ReflectionTest, V1EndsAStreamAfterTheRequestLimit) {
  // kMaxRequestsPerStream (server/reflection/reflection_v1_service.h).
  constexpr int kLimit = 1000;
  V1Stream stream(Channel());
  rv1::ServerReflectionRequest request;
  request.set_list_services("");
  rv1::ServerReflectionResponse response;
  for (int i = 0; i < kLimit; ++i) {
    ASSERT_TRUE(stream.Ask(request, &response)) << "request " << i;
  }
  EXPECT_FALSE(stream.Ask(request, &response));
  EXPECT_THAT(stream.Finish(), GrpcIs(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                      HasSubstr("At most 1000")));
}

TEST_F(ReflectionTest, V1alphaStillListsTheServicesIncludingV1) {
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(Channel());
  auto context = Context("");
  auto stream = stub->ServerReflectionInfo(context.get());
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("*");
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::vector<std::string> names;
  for (const auto& s : response.list_services_response().service()) {
    names.push_back(s.name());
  }
  EXPECT_THAT(names,
              IsSupersetOf({"dpq.v1.BuyerService",
                            "grpc.reflection.v1.ServerReflection",
                            "grpc.reflection.v1alpha.ServerReflection"}));
  EXPECT_THAT(stream->Finish(), GrpcOk());
}

TEST_F(ReflectionTest, ReflectionFalseTurnsBothVersionsOff) {
  StopServer();
  StartServer({"--reflection", "false"});
  {
    V1Stream stream(Channel());
    rv1::ServerReflectionRequest request;
    request.set_list_services("");
    rv1::ServerReflectionResponse response;
    EXPECT_FALSE(stream.Ask(request, &response));
    EXPECT_THAT(stream.Finish(),
                GrpcIs(grpc::StatusCode::UNIMPLEMENTED, ::testing::_));
  }
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(Channel());
  auto context = Context("");
  auto stream = stub->ServerReflectionInfo(context.get());
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("*");
  stream->Write(request);
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  EXPECT_FALSE(stream->Read(&response));
  EXPECT_THAT(stream->Finish(),
              GrpcIs(grpc::StatusCode::UNIMPLEMENTED, ::testing::_));
  // The API itself is unaffected.
  grpc::Status health;
  EXPECT_EQ(CheckHealth(Channel(), "dpq.v1.BuyerService", &health),
            grpc::health::v1::HealthCheckResponse::SERVING)
      << Describe(health);
}

}  // namespace
}  // namespace dpq::integration
