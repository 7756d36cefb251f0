// Reads and checks the TLS files of `dpq` (--ca, --client-cert,
// --client-key) before any call. gRPC takes PEM as opaque text: a file
// that holds no certificate makes every call fail later with a message that
// names neither the file nor the cause ("UNAVAILABLE: empty address list").
#ifndef DPQ_CLIENT_TLS_FILES_H_
#define DPQ_CLIENT_TLS_FILES_H_

#include <string>

#include "absl/status/statusor.h"

namespace dpq::client {

// The --ca file: PEM with at least one certificate that OpenSSL can parse,
// and nothing unparsable after the certificates. Errors: those of
// ReadSmallFile (missing file, a directory, unreadable), or
// kInvalidArgument naming the file and what is wrong with it.
absl::StatusOr<std::string> ReadCaFile(const std::string& path);

// An mTLS client identity.
struct ClientCertificate {
  std::string chain_pem;
  std::string key_pem;
};

// The --client-cert file (PEM certificates, as for --ca) and the
// --client-key file (one PEM private key, unencrypted), which must belong to
// the first certificate. Same errors as ReadCaFile.
absl::StatusOr<ClientCertificate> ReadClientCertificate(
    const std::string& cert_path, const std::string& key_path);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_TLS_FILES_H_
