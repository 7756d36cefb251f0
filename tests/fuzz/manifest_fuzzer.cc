// Fuzz target: a stored manifest.json (server/registry/manifest.h), read
// back on every start from the data directory. Invariants: an unreadable
// text is kInvalidArgument with a message; a readable one prints
// (ManifestToJson) and reads back to the same message; ValidateManifest
// answers OK or kInvalidArgument with a message, and OK implies a known
// kind.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "dpq/v1/dataset.pb.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "server/registry/manifest.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

// Bytes, not MessageDifferencer: a NaN bin edge must survive too.
std::string Wire(const v1::DatasetManifest& manifest) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    manifest.SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace

int FuzzManifest(const uint8_t* data, size_t size) {
  namespace registry = server::registry;
  const absl::string_view json(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<v1::DatasetManifest> manifest =
      registry::ManifestFromJson(json);
  if (!manifest.ok()) {
    CheckError(manifest.status());
    FUZZ_CHECK(manifest.status().code() == absl::StatusCode::kInvalidArgument);
    return 0;
  }
  absl::StatusOr<std::string> printed = registry::ManifestToJson(*manifest);
  FUZZ_CHECK_MSG(printed.ok(), printed.status().ToString());
  absl::StatusOr<v1::DatasetManifest> again =
      registry::ManifestFromJson(*printed);
  FUZZ_CHECK_MSG(again.ok(), again.status().ToString() + "\n" + *printed);
  FUZZ_CHECK_MSG(Wire(*again) == Wire(*manifest), *printed);

  const absl::Status valid = registry::ValidateManifest(*manifest);
  if (valid.ok()) {
    FUZZ_CHECK(registry::ManifestKind(*manifest).ok());
  } else {
    CheckError(valid);
    FUZZ_CHECK_MSG(valid.code() == absl::StatusCode::kInvalidArgument,
                   valid.ToString());
  }
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzManifest)
