#include "server/registry/dataset_pager.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::registry {
namespace {

// Tokens are opaque to clients; inside, the last id of the page.
constexpr char kTokenPrefix[] = "after:";

}  // namespace

absl::StatusOr<DatasetPager> DatasetPager::Start(
    int32_t page_size, const std::string& page_token) {
  if (page_size < 0) {
    return core::util::InvalidFieldError(
        "page_size",
        absl::StrCat("page_size must be at least 0 (0 = ",
                     kDefaultDatasetPageSize, "), but is ", page_size, "."));
  }
  const size_t size =
      page_size == 0
          ? kDefaultDatasetPageSize
          : static_cast<size_t>(std::min(page_size, kMaxDatasetPageSize));
  std::string after;
  if (!page_token.empty()) {
    std::string decoded;
    if (!absl::WebSafeBase64Unescape(page_token, &decoded) ||
        !absl::StartsWith(decoded, kTokenPrefix) ||
        !ValidateId(decoded.substr(sizeof(kTokenPrefix) - 1), "page_token")
             .ok()) {
      return core::util::InvalidFieldError(
          "page_token",
          "page_token is not a next_page_token of this listing; leave it "
          "empty for the first page.");
    }
    after = decoded.substr(sizeof(kTokenPrefix) - 1);
  }
  return DatasetPager(size, std::move(after));
}

bool DatasetPager::After(const std::string& id) const {
  return after_.empty() || id > after_;
}

bool DatasetPager::Add(const std::string& id, size_t bytes) {
  if (!next_page_token_.empty()) return false;
  if (count_ == page_size_ ||
      (count_ > 0 && bytes_ + bytes > kMaxDatasetPageBytes)) {
    next_page_token_ =
        absl::WebSafeBase64Escape(absl::StrCat(kTokenPrefix, last_));
    return false;
  }
  ++count_;
  bytes_ += bytes;
  last_ = id;
  return true;
}

}  // namespace dpq::server::registry
