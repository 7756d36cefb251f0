// Pages of ListDatasets (BuyerService and AdminService): a response holds
// at most page_size datasets and stops before kMaxDatasetPageBytes, so
// that no number or width of datasets can make the listing larger than a
// client can receive (a 1.5M-column dataset made every listing 33 MB).
// The token names the last dataset id of the page: the next page starts
// after it, so registrations and deletions between calls neither repeat
// nor skip the other datasets.
#ifndef DPQ_SERVER_REGISTRY_DATASET_PAGER_H_
#define DPQ_SERVER_REGISTRY_DATASET_PAGER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace dpq::server::registry {

inline constexpr int32_t kDefaultDatasetPageSize = 100;
inline constexpr int32_t kMaxDatasetPageSize = 1000;
// Below the 4 MB default receive limit of gRPC clients, with room for the
// response's own framing.
inline constexpr size_t kMaxDatasetPageBytes = size_t{3} << 20;

// Walks the datasets in id order and decides which belong to the page.
class DatasetPager {
 public:
  // page_size 0 = kDefaultDatasetPageSize, above kMaxDatasetPageSize =
  // that; kInvalidArgument naming the field for a negative page_size or a
  // page_token that no listing returned.
  static absl::StatusOr<DatasetPager> Start(int32_t page_size,
                                            const std::string& page_token);

  // Whether `id` comes after the previous pages (ids in ascending order).
  bool After(const std::string& id) const;

  // Adds `id`, whose entry takes `bytes` in the response, unless the page
  // is full (page_size entries, or `bytes` more would pass
  // kMaxDatasetPageBytes; a page always takes its first entry). False:
  // the page is complete and `id` opens the next one.
  bool Add(const std::string& id, size_t bytes);

  // After the walk: the token of the next page, empty when Add never
  // refused.
  const std::string& next_page_token() const { return next_page_token_; }

 private:
  DatasetPager(size_t page_size, std::string after)
      : page_size_(page_size), after_(std::move(after)) {}

  size_t page_size_;
  std::string after_;  // empty: the first page
  size_t count_ = 0;
  size_t bytes_ = 0;
  std::string last_;
  std::string next_page_token_;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_PAGER_H_
