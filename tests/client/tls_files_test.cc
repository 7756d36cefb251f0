#include "client/tls_files.h"

#include <filesystem>
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/test_tls_identity.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

std::string TempFile(const std::string& name, const std::string& content) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("tls_files_" + name))
          .string();
  ::dpq::testing::WriteFileOrDie(path, content);
  return path;
}

class TlsFilesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { id_ = new TestIdentity(MakeIdentity()); }
  static void TearDownTestSuite() { delete id_; }
  static TestIdentity* id_;
};
TestIdentity* TlsFilesTest::id_ = nullptr;

TEST_F(TlsFilesTest, ReadsACaFileWithCertificates) {
  const std::string path = TempFile("ca.pem", id_->cert_pem + id_->cert_pem);
  absl::StatusOr<std::string> pem = ReadCaFile(path);
  ASSERT_TRUE(pem.ok()) << pem.status();
  EXPECT_EQ(*pem, id_->cert_pem + id_->cert_pem);
}

TEST_F(TlsFilesTest, GarbageCaFileIsNamedBeforeAnyCall) {
  const std::string path = TempFile("garbage.pem", "not a certificate\n");
  EXPECT_THAT(ReadCaFile(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--ca file '" + path +
                           "' holds no PEM certificate (no '-----BEGIN "
                           "CERTIFICATE-----' block)."));
}

TEST_F(TlsFilesTest, CorruptCertificateBlockIsRefused) {
  const std::string path = TempFile(
      "corrupt.pem",
      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
  EXPECT_THAT(ReadCaFile(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("holds no PEM certificate that can be "
                                 "parsed")));
  const std::string tail =
      TempFile("tail.pem", id_->cert_pem +
                               "-----BEGIN CERTIFICATE-----\nAAAA\n-----END "
                               "CERTIFICATE-----\n");
  EXPECT_THAT(ReadCaFile(tail),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("has a PEM block after certificate 1")));
}

TEST_F(TlsFilesTest, MissingFileAndDirectoryKeepTheirMessages) {
  const std::string missing =
      (std::filesystem::path(::testing::TempDir()) / "tls_files_none.pem")
          .string();
  EXPECT_THAT(ReadCaFile(missing),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Cannot read --ca file '" + missing +
                                 "': no such file.")));
  EXPECT_THAT(ReadCaFile(::testing::TempDir()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a regular file")));
}

TEST_F(TlsFilesTest, ClientCertificateAndMatchingKey) {
  const std::string cert = TempFile("client.pem", id_->cert_pem);
  const std::string key = TempFile("client.key", id_->key_pem);
  absl::StatusOr<ClientCertificate> read = ReadClientCertificate(cert, key);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->chain_pem, id_->cert_pem);
  EXPECT_EQ(read->key_pem, id_->key_pem);
}

TEST_F(TlsFilesTest, ClientKeyMustParseAndMatch) {
  const std::string cert = TempFile("client2.pem", id_->cert_pem);
  const std::string garbage = TempFile("garbage.key", "not a key\n");
  EXPECT_THAT(ReadClientCertificate(cert, garbage),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--client-key file '" + garbage +
                           "' holds no unencrypted PEM private key that can "
                           "be parsed."));
  const std::string other = TempFile("other.key", id_->other_key_pem);
  EXPECT_THAT(ReadClientCertificate(cert, other),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("does not belong to the certificate in '" +
                                 cert + "'")));
  const std::string key = TempFile("client2.key", id_->key_pem);
  EXPECT_THAT(ReadClientCertificate(garbage, key),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--client-cert file '" + garbage +
                                 "' holds no PEM certificate")));
}

}  // namespace
}  // namespace dpq::client
