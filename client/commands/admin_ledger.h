// `dpq admin ledger [--buyer B] [--dataset ID] [--limit N] [--page-token
// T]`: ledger entries (newest first) and budgets (ListLedger), a page at a
// time.
#ifndef DPQ_CLIENT_COMMANDS_ADMIN_LEDGER_H_
#define DPQ_CLIENT_COMMANDS_ADMIN_LEDGER_H_

#include <string>

#include "client/command.h"
#include "dpq/v1/admin_service.pb.h"

namespace dpq::client {

class AdminLedgerCommand final : public Command {
 public:
  AdminLedgerCommand();
  void DefineFlags(CommandFlags& flags) override;
  absl::Status Validate(const CommandFlags& flags) override;
  absl::StatusOr<CommandOutput> Run(const RunContext& context) override;
  const dpq::v1::ListLedgerRequest& request() const { return request_; }

 private:
  dpq::v1::ListLedgerRequest request_;
  std::string limit_;
};

// "Budgets:" and their table, then "Entries (newest first):" and theirs,
// and how to ask for the older entries if there are more.
std::string LedgerText(const dpq::v1::ListLedgerResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_ADMIN_LEDGER_H_
