#include "core/table/string_interner.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/table.h"

namespace dpq::core::table::internal {

uint32_t StringInterner::InternView(absl::string_view s) {
  const auto [it, inserted] =
      ids_.try_emplace(s, static_cast<uint32_t>(strings_.size()));
  if (inserted) strings_.push_back(s);
  return it->second;
}

uint32_t StringInterner::InternCopy(absl::string_view s) {
  if (auto it = ids_.find(s); it != ids_.end()) return it->second;
  return InternView(copies_.emplace_back(s));
}

StringInterner::Result StringInterner::Finish() && {
  // Sorting (view, id) pairs rather than ids keeps the compared views in
  // the array being sorted instead of behind an indirection.
  std::vector<std::pair<absl::string_view, uint32_t>> order;
  order.reserve(strings_.size());
  for (uint32_t id = 0; id < strings_.size(); ++id) {
    order.emplace_back(strings_[id], id);
  }
  std::sort(order.begin(), order.end());
  Result result;
  result.remap.resize(order.size());
  std::vector<std::string> sorted;
  sorted.reserve(order.size());
  for (uint32_t rank = 0; rank < order.size(); ++rank) {
    result.remap[order[rank].second] = rank;
    sorted.emplace_back(order[rank].first);
  }
  result.dictionary =
      std::make_shared<const StringDictionary>(std::move(sorted));
  return result;
}

void RemapStringIds(const std::vector<uint32_t>& remap,
                    const std::vector<uint8_t>& nulls,
                    std::vector<uint32_t>* ids) {
  for (size_t row = 0; row < ids->size(); ++row) {
    (*ids)[row] = nulls[row] ? 0 : remap[(*ids)[row]];
  }
}

}  // namespace dpq::core::table::internal
