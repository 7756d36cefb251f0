// The answers of server/reflection/reflection_responder.h over the
// generated pool: files with their dependencies once per stream, extension
// lookups, NOT_FOUND and INVALID_ARGUMENT error responses.

#include "server/reflection/reflection_responder.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "gtest/gtest.h"
#include "reflection_extended.pb.h"

namespace dpq::server::reflection {
namespace {

namespace rv1 = ::grpc::reflection::v1;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ReflectionResponderTest : public ::testing::Test {
 protected:
  ReflectionResponderTest()
      : responder_(google::protobuf::DescriptorPool::generated_pool(),
                   &services_) {
    // Links the extension's file into the generated pool.
    dpq::test::reflection::Extended extended;
    extended.SetExtension(dpq::test::reflection::note, "x");
  }

  std::vector<std::string> FileNames(const rv1::ServerReflectionResponse& r) {
    std::vector<std::string> names;
    for (const std::string& bytes :
         r.file_descriptor_response().file_descriptor_proto()) {
      google::protobuf::FileDescriptorProto file;
      EXPECT_TRUE(file.ParseFromString(bytes));
      names.push_back(file.name());
    }
    return names;
  }

  std::vector<std::string> services_ = {"a.B", "c.D"};
  ReflectionResponder responder_;
};

TEST_F(ReflectionResponderTest, ListsTheGivenServicesInOrder) {
  rv1::ServerReflectionRequest request;
  request.set_list_services("*");
  const rv1::ServerReflectionResponse response = responder_.Answer(request);
  ASSERT_EQ(response.list_services_response().service_size(), 2);
  EXPECT_EQ(response.list_services_response().service(0).name(), "a.B");
  EXPECT_EQ(response.list_services_response().service(1).name(), "c.D");
  EXPECT_EQ(response.original_request().list_services(), "*");
}

TEST_F(ReflectionResponderTest, FindsTheFileOfAnExtensionAndItsNumbers) {
  rv1::ServerReflectionRequest request;
  request.mutable_file_containing_extension()->set_containing_type(
      "dpq.test.reflection.Extended");
  request.mutable_file_containing_extension()->set_extension_number(150);
  rv1::ServerReflectionResponse response = responder_.Answer(request);
  EXPECT_THAT(FileNames(response), ElementsAre("reflection_extended.proto"));

  request.Clear();
  request.set_all_extension_numbers_of_type(".dpq.test.reflection.Extended");
  response = responder_.Answer(request);
  EXPECT_EQ(response.all_extension_numbers_response().base_type_name(),
            "dpq.test.reflection.Extended");
  EXPECT_THAT(response.all_extension_numbers_response().extension_number(),
              ElementsAre(150));

  request.mutable_file_containing_extension()->set_containing_type(
      "dpq.test.reflection.Extended");
  request.mutable_file_containing_extension()->set_extension_number(151);
  response = responder_.Answer(request);
  EXPECT_EQ(response.error_response().error_code(), 5);  // NOT_FOUND
  EXPECT_THAT(response.error_response().error_message(), HasSubstr("151"));
}

TEST_F(ReflectionResponderTest, SendsEachDependencyOncePerStream) {
  rv1::ServerReflectionRequest request;
  request.set_file_containing_symbol("google.protobuf.FileDescriptorProto");
  // descriptor.proto imports nothing.
  EXPECT_THAT(FileNames(responder_.Answer(request)),
              ElementsAre("google/protobuf/descriptor.proto"));
  request.set_file_by_filename("grpc_reflection/v1/reflection.proto");
  EXPECT_THAT(FileNames(responder_.Answer(request)),
              ElementsAre("grpc_reflection/v1/reflection.proto"));
  // Asked again: sent again (it was asked for), nothing else.
  EXPECT_THAT(FileNames(responder_.Answer(request)),
              ElementsAre("grpc_reflection/v1/reflection.proto"));
}

TEST_F(ReflectionResponderTest, UnknownNamesAreNotFound) {
  for (const char* symbol : {"no.such.Symbol", "", "dpq.v1."}) {
    rv1::ServerReflectionRequest request;
    request.set_file_containing_symbol(symbol);
    const rv1::ServerReflectionResponse response = responder_.Answer(request);
    EXPECT_EQ(response.error_response().error_code(), 5) << symbol;
    EXPECT_FALSE(response.has_file_descriptor_response());
  }
  rv1::ServerReflectionRequest request;
  request.set_all_extension_numbers_of_type("no.such.Type");
  EXPECT_THAT(responder_.Answer(request).error_response().error_message(),
              HasSubstr("'no.such.Type' not found"));
}

TEST_F(ReflectionResponderTest, EmptyAndOverlongRequestsAreInvalid) {
  rv1::ServerReflectionRequest request;
  EXPECT_EQ(responder_.Answer(request).error_response().error_code(), 3);
  request.set_file_by_filename(std::string(kMaxNameBytes + 1, 'a'));
  const rv1::ServerReflectionResponse response = responder_.Answer(request);
  EXPECT_EQ(response.error_response().error_code(), 3);  // INVALID_ARGUMENT
  EXPECT_THAT(response.error_response().error_message(),
              HasSubstr("at most 1024"));
}

}  // namespace
}  // namespace dpq::server::reflection
