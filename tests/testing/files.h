// Whole-file reads and writes for tests: the bytes a test or the code under
// test wrote, or a file of the repository, in one call. Used across
// tests/ (unit, integration and the test helpers in tests/testing) in place
// of per-file copies; bench/ product code reads files itself, with errors.
#ifndef DPQ_TESTS_TESTING_FILES_H_
#define DPQ_TESTS_TESTING_FILES_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace dpq::testing {

// The bytes of the file at `path`, "" if it is missing or unreadable: most
// callers compare contents, and an empty string fails those comparisons.
// A test that must fail on a missing file asserts its existence first.
inline std::string ReadFileOrEmpty(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Replaces the file at `path` with `contents` (binary). A failed write is
// a fatal failure of the current test, not a silently missing input.
inline void WriteFileOrDie(const std::filesystem::path& path,
                           std::string_view contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  ASSERT_TRUE(out.good()) << "cannot write " << path.string();
}

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_FILES_H_
