// `dpq admin register ID ...`: uploads a new dataset (RegisterDataset), or has
// the server read it from its import directory (--server-path).
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_REGISTER_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_REGISTER_H_

#include <cstddef>

#include "client/command.h"
#include "client/commands/upload.h"

namespace dpq::client {

class AdminRegisterCommand final : public Command {
 public:
  AdminRegisterCommand();
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

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_REGISTER_H_
