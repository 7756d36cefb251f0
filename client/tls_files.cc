#include "client/tls_files.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "client/file_chunker.h"
#include "core/util/status_macros.h"
#include "openssl/bio.h"
#include "openssl/err.h"
#include "openssl/evp.h"
#include "openssl/pem.h"
#include "openssl/x509.h"

namespace dpq::client {
namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

BioPtr MemoryBio(absl::string_view pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

absl::Status BadFile(absl::string_view flag, absl::string_view path,
                     absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(flag, " file '", path, "' ", what));
}

// Parses every PEM certificate of `pem`; the first one, or an error naming
// the file.
absl::StatusOr<X509Ptr> ParseCertificates(absl::string_view flag,
                                          absl::string_view path,
                                          absl::string_view pem) {
  BioPtr bio = MemoryBio(pem);
  if (bio == nullptr) return absl::ResourceExhaustedError("Out of memory.");
  X509Ptr first;
  int count = 0;
  while (true) {
    X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (cert == nullptr) break;
    ++count;
    if (first == nullptr) first = std::move(cert);
  }
  // The loop ends at the end of the text (PEM_R_NO_START_LINE) or at a
  // block that does not parse.
  const unsigned long error = ERR_peek_last_error();  // NOLINT(runtime/int)
  ERR_clear_error();
  const bool clean_end = ERR_GET_LIB(error) == ERR_LIB_PEM &&
                         ERR_GET_REASON(error) == PEM_R_NO_START_LINE;
  if (count == 0) {
    return BadFile(flag, path,
                   clean_end ? "holds no PEM certificate (no '-----BEGIN "
                               "CERTIFICATE-----' block)."
                             : "holds no PEM certificate that can be parsed.");
  }
  if (!clean_end) {
    return BadFile(flag, path,
                   absl::StrCat("has a PEM block after certificate ", count,
                                " that is not a certificate that can be "
                                "parsed."));
  }
  return first;
}

}  // namespace

absl::StatusOr<std::string> ReadCaFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string pem, ReadSmallFile(path, "--ca"));
  RETURN_IF_ERROR(ParseCertificates("--ca", path, pem).status());
  return pem;
}

absl::StatusOr<ClientCertificate> ReadClientCertificate(
    const std::string& cert_path, const std::string& key_path) {
  ClientCertificate out;
  ASSIGN_OR_RETURN(out.chain_pem, ReadSmallFile(cert_path, "--client-cert"));
  ASSIGN_OR_RETURN(out.key_pem, ReadSmallFile(key_path, "--client-key"));
  ASSIGN_OR_RETURN(
      const X509Ptr cert,
      ParseCertificates("--client-cert", cert_path, out.chain_pem));
  BioPtr bio = MemoryBio(out.key_pem);
  if (bio == nullptr) return absl::ResourceExhaustedError("Out of memory.");
  // An empty passphrase: an encrypted key fails here instead of prompting.
  char empty[] = "";
  const KeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, empty));
  ERR_clear_error();
  if (key == nullptr) {
    return BadFile("--client-key", key_path,
                   "holds no unencrypted PEM private key that can be parsed.");
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return BadFile("--client-key", key_path,
                   absl::StrCat("does not belong to the certificate in '",
                                cert_path, "'."));
  }
  return out;
}

}  // namespace dpq::client
