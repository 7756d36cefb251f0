#include "core/util/prefault.h"

#include <cstddef>
#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

// Faulting in never changes what the memory holds: written bytes stay,
// fresh ones read as zero, and ranges that start and end inside a page
// (the string's capacity, an odd offset) are fine.
TEST(PrefaultForWritingTest, KeepsTheContent) {
  for (int threads : {1, 2, 3}) {
    std::string text;
    text.reserve((size_t{9} << 20) + 17);
    text.assign(1000, 'x');
    PrefaultForWriting(text.data(), text.capacity(), threads);
    EXPECT_EQ(text, std::string(1000, 'x'));
    text.resize(text.capacity(), 'y');
    EXPECT_EQ(text.substr(0, 1000), std::string(1000, 'x'));
    EXPECT_EQ(text.back(), 'y');

    const size_t size = (size_t{5} << 20) + 123;
    std::unique_ptr<char[]> zeroed(new char[size]());
    zeroed[7] = 'a';
    PrefaultForWriting(zeroed.get() + 1, size - 1, threads);
    EXPECT_EQ(zeroed[7], 'a');
    size_t nonzero = 0;
    for (size_t i = 0; i < size; ++i) nonzero += zeroed[i] != 0;
    EXPECT_EQ(nonzero, 1u);
  }
  PrefaultForWriting(nullptr, 0, 2);  // nothing to do
}

}  // namespace
}  // namespace dpq::core::util
