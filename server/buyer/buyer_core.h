// What every BuyerService RPC reads (the `service` argument of each `*_impl.h`
// function, as tensorflow/serving's ServerCore is for its handlers): the
// dataset registry, the ledger it charges, the admission limits of heavy
// computations, the node selection scores kept between releases, and where
// a release draws its randomness. Owned by BuyerServiceImpl, which only
// dispatches; thread-safe.
#ifndef DPQ_SERVER_BUYER_BUYER_CORE_H_
#define DPQ_SERVER_BUYER_BUYER_CORE_H_

#include <functional>
#include <memory>

#include "core/dp/secure_urbg.h"
#include "core/ledger/ledger.h"
#include "server/buyer/heavy_job_limiter.h"
#include "server/buyer/heavy_release_queue.h"
#include "server/buyer/node_scores_cache.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// Heavy jobs (tree training, node selection) running at once by default;
// per buyer, see DefaultMaxHeavyJobsPerBuyer (heavy_job_limiter.h).
inline constexpr int kDefaultMaxHeavyJobs = 2;

// Where a release draws its randomness. The server always uses OpenSSL's
// CSPRNG (docs/privacy.md 4.1); only tests (the privacy audit, which needs
// reproducible releases through the production handlers) pass another.
using UrbgFactory = std::function<std::unique_ptr<core::dp::SecureUrbg>()>;

// The limits of the release requests are core's, next to their checks:
// ReleaseCuboids core/cube/cuboid_request.h (kMaxCuboidsPerRequest,
// kMaxReleasedCells, kMaxNoisedCells), TrainDecisionTree
// core/selection/tree/tree_request.h (kDefaultGenerations, kMaxGenerations,
// kDefaultPopulation, kMinPopulation, kMaxPopulation),
// SelectInfluentialNodes core/selection/nodes/influential_nodes_request.h
// (kMaxNodesK).
struct BuyerCore {
  // `registry` and `ledger` are not owned and must outlive the core.
  // `max_heavy_jobs` (>= 1) bounds the TrainDecisionTree and
  // SelectInfluentialNodes computations that run at once, and
  // `max_heavy_jobs_per_buyer` (1..max_heavy_jobs; 0 = the default, half
  // of them) those of one caller. `max_heavy_releases` (>= 1) bounds the
  // measure computations on heavy datasets that run at once, after their
  // charge (heavy_release_queue.h). `urbg` (tests only; the server passes
  // none): a generator per release instead of core::dp::OpenSslUrbg.
  BuyerCore(registry::DatasetRegistry* registry,
            core::ledger::LedgerStore* ledger,
            int max_heavy_jobs = kDefaultMaxHeavyJobs,
            int max_heavy_jobs_per_buyer = 0, UrbgFactory urbg = nullptr,
            int max_heavy_releases = kDefaultMaxHeavyReleases);

  // A fresh generator for one release.
  std::unique_ptr<core::dp::SecureUrbg> NewUrbg() const;

  registry::DatasetRegistry* registry;
  core::ledger::LedgerStore* ledger;
  // Thread-safe themselves; mutable so that the RPC functions take the core
  // as const.
  mutable HeavyJobLimiter heavy_jobs;
  mutable HeavyReleaseQueue heavy_releases;
  mutable NodeScoresCache node_scores;
  UrbgFactory urbg;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_CORE_H_
