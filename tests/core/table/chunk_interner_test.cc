#include "core/table/chunk_interner.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/string_interner.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::core::table::internal {
namespace {

// Strings that stress the merge's comparisons: shared 8-byte prefixes,
// zero bytes (equal to the prefix's padding), the empty string, and
// lengths around 8 and 16.
std::string RandomString(std::mt19937_64* rng) {
  static const std::vector<std::string> stems = {
      "",
      "a",
      "ab",
      "Harris~1",
      "Harris~12",
      std::string("ab\0", 3),
      std::string("ab\0\0\0\0\0\0", 8),
      "zipcode-0123456789",
      "\xff\xfe"};
  std::string s = stems[(*rng)() % stems.size()];
  const size_t extra = (*rng)() % 12;
  for (size_t k = 0; k < extra; ++k) {
    s += static_cast<char>((*rng)() % 4 == 0 ? 0 : 'a' + (*rng)() % 3);
  }
  return s;
}

TEST(ChunkInternerTest, KeysFromWholeWordsMatchCopiedKeys) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 2000; ++i) {
    const std::string s = RandomString(&rng);
    // Followed by other bytes, which the masked words must ignore.
    const std::string buffer = s + "tail-bytes-that-are-not-part-of-it";
    const absl::string_view view(buffer.data(), s.size());
    const ChunkInterner::Key copied = ChunkInterner::KeyOf(view);
    const ChunkInterner::Key loaded =
        ChunkInterner::KeyOf(view, buffer.data() + buffer.size());
    EXPECT_EQ(loaded.hash, copied.hash);
    EXPECT_EQ(loaded.w[0], copied.w[0]);
    EXPECT_EQ(loaded.w[1], copied.w[1]);
  }
}

TEST(ChunkInternerTest, ReservingKeepsIdsAndStringsOutliveTheTable) {
  std::mt19937_64 rng(2);
  std::vector<std::string> cells;
  for (int i = 0; i < 5000; ++i) cells.push_back(RandomString(&rng));
  ChunkInterner grown;
  ChunkInterner reserved;
  reserved.Reserve(3000);
  for (const std::string& cell : cells) {
    EXPECT_EQ(reserved.Intern(cell), grown.Intern(cell));
  }
  const std::vector<absl::string_view> before = grown.strings();
  grown.FinishInterning();
  ASSERT_EQ(grown.strings().size(), before.size());
  std::set<std::string> distinct(cells.begin(), cells.end());
  EXPECT_EQ(grown.strings().size(), distinct.size());
  for (size_t id = 0; id < before.size(); ++id) {
    EXPECT_EQ(grown.strings()[id], before[id]);
  }
}

// The merged dictionary is the sorted set of all strings, and each
// interner's remap sends a provisional id to its string's rank.
void ExpectMergeCorrect(int num_interners, int strings_each, int threads) {
  std::mt19937_64 rng(static_cast<uint64_t>(num_interners * 31 + threads));
  std::vector<std::vector<std::string>> storage(num_interners);
  std::vector<std::vector<absl::string_view>> views(num_interners);
  std::vector<const std::vector<absl::string_view>*> interners;
  std::set<std::string> all;
  for (int i = 0; i < num_interners; ++i) {
    std::set<std::string> distinct;
    for (int k = 0; k < strings_each; ++k) distinct.insert(RandomString(&rng));
    storage[i].assign(distinct.begin(), distinct.end());
    std::shuffle(storage[i].begin(), storage[i].end(), rng);
    for (const std::string& s : storage[i]) views[i].push_back(s);
    interners.push_back(&views[i]);
    all.insert(distinct.begin(), distinct.end());
  }
  const MergedDictionary merged = MergeInterners(interners, threads);
  const std::vector<std::string> expected(all.begin(), all.end());
  ASSERT_EQ(merged.dictionary->size(), expected.size());
  for (uint32_t id = 0; id < expected.size(); ++id) {
    EXPECT_EQ(merged.dictionary->at(id), expected[id]);
  }
  for (int i = 0; i < num_interners; ++i) {
    ASSERT_EQ(merged.remap_size(i), views[i].size());
    for (size_t id = 0; id < views[i].size(); ++id) {
      EXPECT_EQ(merged.dictionary->at(merged.remap(i)[id]), views[i][id]);
    }
  }
}

TEST(MergeInternersTest, SortsAndDeduplicatesAcrossInterners) {
  ExpectMergeCorrect(1, 10, 1);
  ExpectMergeCorrect(5, 300, 2);
  ExpectMergeCorrect(12, 4000, 3);
}

TEST(MergeInternersTest, EmptyInterners) {
  std::vector<absl::string_view> empty;
  const MergedDictionary merged = MergeInterners({&empty, &empty}, 2);
  EXPECT_EQ(merged.dictionary->size(), 0u);
  EXPECT_EQ(merged.remap_size(1), 0u);
}

}  // namespace
}  // namespace dpq::core::table::internal
