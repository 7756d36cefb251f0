// dpq::testing::TempDir: a fresh scratch directory, removed with all it
// holds when the object goes. Used by every test that writes files (data
// directories, databases, configs, certificates): a local in a test, a
// member of a fixture (per test) or a pointer held by SetUpTestSuite (per
// suite); tests/integration/harness.h re-exports it.
//
//   TempDir dir("dpq-ledger");
//   ... SqliteLedgerStore::Open(dir.Sub("ledger.db")) ...
#ifndef DPQ_TESTS_TESTING_TEMP_DIR_H_
#define DPQ_TESTS_TESTING_TEMP_DIR_H_

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "gtest/gtest.h"

namespace dpq::testing {

class TempDir {
 public:
  // BASE/PREFIX-XXXXXX by mkdtemp (a new name, mode 0700), so parallel
  // tests and processes never share one. BASE is $TEST_TMPDIR, else
  // $TMPDIR, else /tmp. A failure is a test failure, and path() is "".
  explicit TempDir(std::string_view prefix = "dpq-test") {
    std::string pattern = Base();
    pattern += '/';
    pattern += prefix;
    pattern += "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp(" << pattern << "): " << std::strerror(errno);
      return;
    }
    path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;  // a test's leftovers must not fail it
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name (a file or a subdirectory; not created).
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  static std::string Base() {
    for (const char* var : {"TEST_TMPDIR", "TMPDIR"}) {
      const char* value = std::getenv(var);
      if (value == nullptr || *value == '\0') continue;
      std::string base = value;
      // $TEST_TMPDIR often ends in '/': keep printed paths free of "//".
      while (base.size() > 1 && base.back() == '/') base.pop_back();
      return base;
    }
    return "/tmp";
  }

  std::string path_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_TEMP_DIR_H_
