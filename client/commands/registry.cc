#include "client/commands/registry.h"

#include <memory>
#include <vector>

#include "client/commands/admin_audit.h"
#include "client/commands/admin_buyers.h"
#include "client/commands/admin_create_buyer.h"
#include "client/commands/admin_datasets.h"
#include "client/commands/admin_delete.h"
#include "client/commands/admin_grant.h"
#include "client/commands/admin_ledger.h"
#include "client/commands/admin_register.h"
#include "client/commands/admin_replace.h"
#include "client/commands/admin_revoke_buyer.h"
#include "client/commands/admin_set_budget.h"
#include "client/commands/admin_set_cap.h"
#include "client/commands/budget.h"
#include "client/commands/cuboids.h"
#include "client/commands/datasets.h"
#include "client/commands/describe.h"
#include "client/commands/health.h"
#include "client/commands/measure.h"
#include "client/commands/receipts.h"
#include "client/commands/report.h"
#include "client/commands/top_nodes.h"
#include "client/commands/tree.h"

namespace dpq::client {

std::vector<std::unique_ptr<Command>> AllCommands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<HealthCommand>());
  commands.push_back(std::make_unique<DatasetsCommand>());
  commands.push_back(std::make_unique<DescribeCommand>());
  commands.push_back(std::make_unique<BudgetCommand>());
  commands.push_back(std::make_unique<ReceiptsCommand>());
  commands.push_back(std::make_unique<MeasureCommand>());
  commands.push_back(std::make_unique<ReportCommand>());
  commands.push_back(std::make_unique<CuboidsCommand>());
  commands.push_back(std::make_unique<TreeCommand>());
  commands.push_back(std::make_unique<TopNodesCommand>());
  commands.push_back(std::make_unique<AdminRegisterCommand>());
  commands.push_back(std::make_unique<AdminReplaceCommand>());
  commands.push_back(std::make_unique<AdminDeleteCommand>());
  commands.push_back(std::make_unique<AdminDatasetsCommand>());
  commands.push_back(std::make_unique<AdminCreateBuyerCommand>());
  commands.push_back(std::make_unique<AdminRevokeBuyerCommand>());
  commands.push_back(std::make_unique<AdminBuyersCommand>());
  commands.push_back(std::make_unique<AdminGrantCommand>());
  commands.push_back(std::make_unique<AdminSetBudgetCommand>());
  commands.push_back(std::make_unique<AdminSetCapCommand>());
  commands.push_back(std::make_unique<AdminLedgerCommand>());
  commands.push_back(std::make_unique<AdminAuditCommand>());
  return commands;
}

}  // namespace dpq::client
