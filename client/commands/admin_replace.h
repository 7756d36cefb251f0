// `dpq admin replace ID ...`: replaces a dataset's rows and manifest
// (ReplaceDataset); its ledger is kept.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_REPLACE_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_REPLACE_H_

#include <cstddef>

#include "client/command.h"
#include "client/commands/upload.h"

namespace dpq::client {

class AdminReplaceCommand final : public Command {
 public:
  AdminReplaceCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::Status ReadFiles(size_t upload_chunk_bytes) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  // The flags parsed, and the upload they describe.
  const UploadFlags& upload() const { return upload_; }

 private:
  UploadFlags upload_;
};

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_REPLACE_H_
