#include "core/dp/secure_urbg.h"

#include <cstdint>
#include <limits>
#include <set>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/constant_urbg.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::SeededUrbg;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(OpenSslUrbgTest, ProducesDifferingValues) {
  OpenSslUrbg urbg;
  std::set<uint64_t> seen;
  // More draws than the internal buffer holds, so it is refilled. A repeat
  // among 1000 uniform 64-bit values has probability < 3e-14.
  for (int i = 0; i < 1000; ++i) seen.insert(urbg());
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(OpenSslUrbgTest, TwoInstancesDiffer) {
  OpenSslUrbg a;
  OpenSslUrbg b;
  EXPECT_NE(a(), b());
}

TEST(OpenSslUrbgTest, IsSafeToShareBetweenThreads) {
  OpenSslUrbg urbg;
  constexpr int kThreads = 4;
  constexpr int kDraws = 2000;
  std::vector<std::vector<uint64_t>> draws(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&urbg, &draws, t] {
      for (int i = 0; i < kDraws; ++i) draws[t].push_back(urbg());
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<uint64_t> seen;
  for (const auto& d : draws) seen.insert(d.begin(), d.end());
  // A racy buffer would hand out the same word twice.
  EXPECT_EQ(seen.size(), static_cast<size_t>(kThreads * kDraws));
}

TEST(OpenSslUrbgTest, UniformBelowStaysInRange) {
  OpenSslUrbg urbg;
  for (uint64_t bound :
       {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{7}, uint64_t{1000},
        (uint64_t{1} << 63) + 1, kMax - 1, kMax}) {
    for (int i = 0; i < 200; ++i) {
      EXPECT_LT(urbg.UniformBelow(bound), bound) << "bound " << bound;
    }
  }
}

TEST(OpenSslUrbgTest, UniformBelowOfZeroOrOneIsZero) {
  OpenSslUrbg urbg;
  EXPECT_EQ(urbg.UniformBelow(0), 0u);
  EXPECT_EQ(urbg.UniformBelow(1), 0u);
}

TEST(OpenSslUrbgTest, UniformBelowSmallBoundHitsEveryValue) {
  OpenSslUrbg urbg;
  std::set<uint64_t> seen;
  // Misses some value in 1000 draws with probability < 7 (6/7)^1000 < 1e-60.
  for (int i = 0; i < 1000; ++i) seen.insert(urbg.UniformBelow(7));
  EXPECT_EQ(seen.size(), 7u);
}

TEST(OpenSslUrbgTest, UniformDoubleIsInUnitInterval) {
  OpenSslUrbg urbg;
  std::set<double> seen;
  for (int i = 0; i < 1000; ++i) {
    const double u = urbg.UniformDouble();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    seen.insert(u);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

using ::dpq::testing::ConstantUrbg;

TEST(SecureUrbgTest, UniformDoubleExtremesAreZeroAndJustBelowOne) {
  ConstantUrbg zeros(0);
  ConstantUrbg ones(kMax);
  EXPECT_EQ(zeros.UniformDouble(), 0.0);
  EXPECT_EQ(ones.UniformDouble(), 1.0 - 0x1.0p-53);
}

TEST(SecureUrbgTest, UniformBelowAcceptsTheLargestUnbiasedWord) {
  // For bound 2^63 every word is accepted (2^64 is a multiple), so the top
  // word maps to 2^63 - 1 without rejection (which would loop forever here).
  ConstantUrbg ones(kMax);
  EXPECT_EQ(ones.UniformBelow(uint64_t{1} << 63), (uint64_t{1} << 63) - 1);
  // For bound 2^64 - 1 the largest accepted word is 2^64 - 2.
  ConstantUrbg almost_ones(kMax - 1);
  EXPECT_EQ(almost_ones.UniformBelow(kMax), kMax - 1);
}

TEST(SeededUrbgTest, IsDeterministicPerSeed) {
  SeededUrbg a(42);
  SeededUrbg b(42);
  SeededUrbg c(43);
  const uint64_t a0 = a();
  EXPECT_EQ(a0, b());
  EXPECT_NE(a0, c());
}

}  // namespace
}  // namespace dpq::core::dp
