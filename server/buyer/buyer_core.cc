#include "server/buyer/buyer_core.h"

#include <memory>
#include <utility>

namespace dpq::server::buyer {

BuyerCore::BuyerCore(registry::DatasetRegistry* registry,
                     core::ledger::LedgerStore* ledger, int max_heavy_jobs,
                     int max_heavy_jobs_per_buyer, UrbgFactory urbg,
                     int max_heavy_releases)
    : registry(registry),
      ledger(ledger),
      heavy_jobs(max_heavy_jobs, max_heavy_jobs_per_buyer),
      heavy_releases(max_heavy_releases),
      urbg(std::move(urbg)) {}

std::unique_ptr<core::dp::SecureUrbg> BuyerCore::NewUrbg() const {
  if (urbg) return urbg();
  return std::make_unique<core::dp::OpenSslUrbg>();
}

}  // namespace dpq::server::buyer
