// One throw-away PostgreSQL cluster (postgres_cluster.h) per test process,
// started by a gtest global environment before the first test and stopped
// after the last. ctest runs each test in its own process, so each test
// gets a fresh cluster; tests take a fresh database from it
// (CreateDatabase). In a test file, at namespace scope:
//
//   const ::testing::Environment* const kPostgres =
//       dpq::testing::AddPostgresTestEnvironment({.durable = false});
//   ... ASSERT_OK_AND_ASSIGN(std::string dsn, TestCluster()->CreateDatabase());
#ifndef DPQ_TESTS_TESTING_POSTGRES_TEST_ENVIRONMENT_H_
#define DPQ_TESTS_TESTING_POSTGRES_TEST_ENVIRONMENT_H_

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tests/testing/postgres_cluster.h"

namespace dpq::testing {

class PostgresTestEnvironment : public ::testing::Environment {
 public:
  explicit PostgresTestEnvironment(PostgresCluster::Options options)
      : options_(options) {}

  void SetUp() override {
    absl::StatusOr<std::unique_ptr<PostgresCluster>> started =
        PostgresCluster::Start(options_);
    ASSERT_TRUE(started.ok()) << started.status();
    owned_ = *std::move(started);
    Current() = owned_.get();
  }
  void TearDown() override {
    Current() = nullptr;
    owned_.reset();
  }

  // The running cluster; null before SetUp (or if it failed) and after
  // TearDown.
  static PostgresCluster*& Current() {
    static PostgresCluster* cluster = nullptr;
    return cluster;
  }

 private:
  PostgresCluster::Options options_;
  std::unique_ptr<PostgresCluster> owned_;
};

// Registers the environment (gtest owns it); call once per test binary.
// Tests that only check behaviour pass {.durable = false}: fsync off is
// faster, and the server's own synchronous_commit stays on.
inline const ::testing::Environment* AddPostgresTestEnvironment(
    PostgresCluster::Options options) {
  return ::testing::AddGlobalTestEnvironment(
      new PostgresTestEnvironment(options));
}

// The cluster of this test process (null if it did not start: the
// environment has then failed the test).
inline PostgresCluster* TestCluster() {
  return PostgresTestEnvironment::Current();
}

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_POSTGRES_TEST_ENVIRONMENT_H_
