// DatasetPager: the pages of ListDatasets, by count and by bytes, with
// tokens that survive registrations and deletions between calls.
#include "server/registry/dataset_pager.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::registry {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The pages of `ids` (sorted) at `page_size`, each entry `bytes` long.
std::vector<std::vector<std::string>> Pages(const std::vector<std::string>& ids,
                                            int32_t page_size,
                                            size_t bytes = 10) {
  std::vector<std::vector<std::string>> pages;
  std::string token;
  do {
    absl::StatusOr<DatasetPager> page = DatasetPager::Start(page_size, token);
    EXPECT_TRUE(page.ok()) << page.status();
    if (!page.ok()) break;
    pages.emplace_back();
    for (const std::string& id : ids) {
      if (!page->After(id)) continue;
      if (!page->Add(id, bytes)) break;
      pages.back().push_back(id);
    }
    token = page->next_page_token();
  } while (!token.empty() && pages.size() < 100);
  return pages;
}

TEST(DatasetPagerTest, PagesByCountInIdOrder) {
  const std::vector<std::string> ids = {"a", "b", "c", "d", "e"};
  EXPECT_THAT(Pages(ids, 2),
              ElementsAre(ElementsAre("a", "b"), ElementsAre("c", "d"),
                          ElementsAre("e")));
  EXPECT_THAT(Pages(ids, 5), ElementsAre(ElementsAre("a", "b", "c", "d", "e")));
  EXPECT_THAT(Pages({}, 0), ElementsAre(::testing::IsEmpty()));
}

TEST(DatasetPagerTest, PageSizeDefaultsAndCaps) {
  std::vector<std::string> ids;
  for (int i = 0; i < 2500; ++i) ids.push_back(absl::StrCat("d", 10000 + i));
  const auto by_default = Pages(ids, 0);
  ASSERT_EQ(by_default.size(), 25u);
  EXPECT_EQ(by_default[0].size(), size_t{kDefaultDatasetPageSize});
  const auto capped = Pages(ids, 1'000'000);
  ASSERT_EQ(capped.size(), 3u);
  EXPECT_EQ(capped[0].size(), size_t{kMaxDatasetPageSize});
  EXPECT_EQ(capped[2].size(), 500u);
  EXPECT_THAT(DatasetPager::Start(-1, ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("page_size must be at least 0")));
}

// A page stops before kMaxDatasetPageBytes, but always takes one entry,
// however large.
TEST(DatasetPagerTest, PagesByBytes) {
  const std::vector<std::string> ids = {"a", "b", "c"};
  EXPECT_THAT(Pages(ids, 100, kMaxDatasetPageBytes / 2),
              ElementsAre(ElementsAre("a", "b"), ElementsAre("c")));
  EXPECT_THAT(
      Pages(ids, 100, kMaxDatasetPageBytes / 2 + 1),
      ElementsAre(ElementsAre("a"), ElementsAre("b"), ElementsAre("c")));
  EXPECT_THAT(
      Pages(ids, 100, 2 * kMaxDatasetPageBytes),
      ElementsAre(ElementsAre("a"), ElementsAre("b"), ElementsAre("c")));
}

// The token names the page's last id: a dataset deleted or registered in
// between neither repeats nor skips the others.
TEST(DatasetPagerTest, TokensSurviveChangesBetweenPages) {
  ASSERT_OK_AND_ASSIGN(DatasetPager first, DatasetPager::Start(2, ""));
  for (const char* id : {"a", "b", "c"}) {
    if (first.After(id) && !first.Add(id, 1)) break;
  }
  ASSERT_FALSE(first.next_page_token().empty());
  // "b" was deleted and "bb" registered meanwhile.
  ASSERT_OK_AND_ASSIGN(DatasetPager second,
                       DatasetPager::Start(2, first.next_page_token()));
  std::vector<std::string> got;
  for (const char* id : {"a", "bb", "c"}) {
    if (!second.After(id)) continue;
    if (!second.Add(id, 1)) break;
    got.push_back(id);
  }
  EXPECT_THAT(got, ElementsAre("bb", "c"));
  EXPECT_TRUE(second.next_page_token().empty());
}

TEST(DatasetPagerTest, ForeignTokensAreRefused) {
  for (const char* bad : {"x", "YWZ0ZXI6", "bm90LWEtdG9rZW4", "%%%"}) {
    EXPECT_THAT(DatasetPager::Start(10, bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("page_token is not a next_page_token")))
        << bad;
  }
}

}  // namespace
}  // namespace dpq::server::registry
