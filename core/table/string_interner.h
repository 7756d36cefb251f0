// Builds the shared StringDictionary of a table while its cells are parsed.
// Internal to core/table.
#ifndef DPQ_CORE_TABLE_STRING_INTERNER_H_
#define DPQ_CORE_TABLE_STRING_INTERNER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "core/table/huge_pages.h"
#include "core/table/table.h"

namespace dpq::core::table::internal {

// Hands out provisional ids in first-seen order; Finish() sorts the distinct
// strings and says how to map provisional ids to dictionary ids, so that the
// final ids compare like the strings. Only distinct strings are stored.
class StringInterner {
 public:
  struct Result {
    std::shared_ptr<const StringDictionary> dictionary;
    // remap[provisional id] = dictionary id.
    std::vector<uint32_t> remap;
  };

  StringInterner() = default;
  StringInterner(const StringInterner&) = delete;
  StringInterner& operator=(const StringInterner&) = delete;

  // The provisional id of `s`, which must stay alive and unchanged until
  // Finish() returns (e.g. a view into the CSV text): it is not copied.
  uint32_t InternView(absl::string_view s);

  // Like InternView, but copies `s` if it is new, for temporaries.
  uint32_t InternCopy(absl::string_view s);

  // Sorts the distinct strings. O(k log k) for k distinct strings.
  Result Finish() &&;

  // The distinct strings by provisional id.
  const std::vector<absl::string_view>& strings() const { return strings_; }
  size_t size() const { return strings_.size(); }

 private:
  absl::flat_hash_map<absl::string_view, uint32_t> ids_;
  std::vector<absl::string_view> strings_;  // by provisional id
  std::deque<std::string> copies_;          // a deque never moves its elements
};

// One sorted dictionary for the strings of several interners (e.g. one per
// chunk of a CSV file and column), and for each interner the map from its
// provisional ids to dictionary ids. The interners' strings must stay alive
// until it returns. O(k log k) for k strings over all interners, on
// `num_threads` threads: the strings are distributed by their first two
// bytes, then each group is sorted (8-byte prefixes compared as integers
// first) and de-duplicated on its own.
struct MergedDictionary {
  std::shared_ptr<const StringDictionary> dictionary;
  // flat[base[i] + provisional id in interners[i]] = dictionary id: one
  // array for all interners, so that no per-interner copy is made.
  ZeroedArray<uint32_t> flat;
  std::vector<size_t> base;

  const uint32_t* remap(size_t interner) const {
    return flat.data() + base[interner];
  }
  size_t remap_size(size_t interner) const {
    return base[interner + 1] - base[interner];
  }
};
// interners[i] lists the distinct strings of interner i by provisional id.
MergedDictionary MergeInterners(
    const std::vector<const std::vector<absl::string_view>*>& interners,
    int num_threads);

// Rewrites provisional ids in `ids` to final ones, skipping NULL cells
// (their stored id is unspecified, and 0 is not valid in an empty remap).
void RemapStringIds(const std::vector<uint32_t>& remap,
                    const std::vector<uint8_t>& nulls,
                    std::vector<uint32_t>* ids);

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_STRING_INTERNER_H_
