// What `dpq admin register` and `dpq admin replace` share: their flags, the
// manifest header they build from them and the local files (constraints,
// schema, node labels), the CSV they stream, and their output.
#ifndef DPQ_CLIENT_COMMANDS_UPLOAD_H_
#define DPQ_CLIENT_COMMANDS_UPLOAD_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/command_flags.h"
#include "client/file_chunker.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace dpq::client {

class UploadFlags {
 public:
  // Declares ID and the upload flags (the ID goes into the manifest).
  void Define(CommandFlags& flags);

  // Checks the flags and their combinations, and fills the manifest's
  // fields that come from flags alone. `command_name` ("admin register")
  // names the command in messages. A table needs --constraints and
  // --public-max-rows; a graph (--kind graph) needs its node universe
  // (--node-count or --nodes) and refuses the table-only flags; every
  // upload needs --data or --server-path, not both.
  absl::Status Validate(const CommandFlags& flags,
                        const std::string& command_name);

  // Reads the --constraints, --schema and --nodes files into the manifest
  // (UTF-8 checked, errors name FILE:LINE:COLUMN) and opens the --data CSV.
  absl::Status ReadFiles(size_t chunk_bytes);

  // The first message of the upload stream (the files' contents are in it
  // after ReadFiles).
  const dpq::v1::DatasetUploadHeader& header() const { return header_; }
  // The local files given ("" if not).
  const std::string& data_path() const { return data_path_; }
  const std::string& constraints_path() const { return constraints_path_; }
  const std::string& schema_path() const { return schema_path_; }
  const std::string& nodes_path() const { return nodes_path_; }
  // The CSV to stream; nullptr with --server-path.
  FileChunker* csv() { return csv_.has_value() ? &*csv_ : nullptr; }

 private:
  std::string data_path_;
  std::string constraints_path_;
  std::string schema_path_;
  std::string nodes_path_;
  std::string public_max_rows_;
  std::string node_count_;
  std::string kind_;
  std::vector<std::string> null_values_;
  std::vector<std::string> cube_dimensions_;
  std::vector<std::string> public_cuboids_;
  bool row_count_public_ = false;
  bool infer_types_ = false;
  bool exact_repair_ = false;

  dpq::v1::DatasetUploadHeader header_;
  std::optional<FileChunker> csv_;
};

// "Registered ID (version V): ..." (`replaced`: "Replaced ..."), then one
// "Note: ..." line per note of the server.
std::string UploadText(
    const dpq::v1::DatasetInfo& info, const dpq::v1::DatasetStats& stats,
    const google::protobuf::RepeatedPtrField<std::string>& notes,
    bool replaced);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_UPLOAD_H_
