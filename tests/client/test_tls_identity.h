// A throwaway TLS identity for client tests, made with OpenSSL at run time
// so that no private key is checked in. Test only.
#ifndef DPQ_TESTS_CLIENT_TEST_TLS_IDENTITY_H_
#define DPQ_TESTS_CLIENT_TEST_TLS_IDENTITY_H_

#include <string>

#include "openssl/bio.h"
#include "openssl/evp.h"
#include "openssl/pem.h"
#include "openssl/x509.h"

namespace dpq::client {

inline std::string BioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);  // NOLINT(runtime/int)
  return std::string(data, static_cast<size_t>(size));
}

inline std::string KeyPem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::string pem = BioText(bio);
  BIO_free(bio);
  return pem;
}

// A throwaway self-signed P-256 certificate and its key, made per test run
// (so that no key is checked in), plus a second, unrelated key.
struct TestIdentity {
  std::string cert_pem;
  std::string key_pem;
  std::string other_key_pem;
};

inline TestIdentity MakeIdentity() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  EVP_PKEY* other = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("dpq-test"),
                             -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_sign(cert, key, EVP_sha256());
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  TestIdentity id{BioText(bio), KeyPem(key), KeyPem(other)};
  BIO_free(bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  EVP_PKEY_free(other);
  return id;
}

}  // namespace dpq::client

#endif  // DPQ_TESTS_CLIENT_TEST_TLS_IDENTITY_H_
