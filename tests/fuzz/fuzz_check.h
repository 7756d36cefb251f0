// What every fuzz target (docs/fuzzing.md) shares: the check of an
// invariant, which aborts so that libFuzzer keeps the input, and the entry
// point each target file defines when it is built as a fuzzer.
#ifndef DPQ_TESTS_FUZZ_FUZZ_CHECK_H_
#define DPQ_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"

namespace dpq::fuzz::internal {

[[noreturn]] inline void CheckFailed(const char* file, int line,
                                     const char* condition,
                                     const std::string& detail) {
  std::fprintf(stderr, "%s:%d: fuzz invariant violated: %s\n%s\n", file, line,
               condition, detail.c_str());
  std::abort();
}

}  // namespace dpq::fuzz::internal

// Aborts (a crash libFuzzer reports with its input) unless `condition`.
#define FUZZ_CHECK(condition)                                                 \
  do {                                                                        \
    if (!(condition)) {                                                       \
      ::dpq::fuzz::internal::CheckFailed(__FILE__, __LINE__, #condition, ""); \
    }                                                                         \
  } while (0)

// As FUZZ_CHECK, printing `detail` (a std::string) too.
#define FUZZ_CHECK_MSG(condition, detail)                                \
  do {                                                                   \
    if (!(condition)) {                                                  \
      ::dpq::fuzz::internal::CheckFailed(__FILE__, __LINE__, #condition, \
                                         (detail));                      \
    }                                                                    \
  } while (0)

namespace dpq::fuzz {

// An error must say something: never OK disguised as an error, never an
// empty message, never kUnknown (what a crash in a StatusOr would leave).
inline void CheckError(const absl::Status& status) {
  FUZZ_CHECK(!status.ok());
  FUZZ_CHECK_MSG(!status.message().empty(), status.ToString());
  FUZZ_CHECK_MSG(status.code() != absl::StatusCode::kUnknown,
                 status.ToString());
}

}  // namespace dpq::fuzz

// Defines libFuzzer's entry point as `function` in a fuzzer build (the
// fuzzer targets are compiled with DPQ_FUZZ_ENTRY_POINTS); elsewhere (the
// regression test, which links every target) it defines nothing.
#ifdef DPQ_FUZZ_ENTRY_POINTS
#define DPQ_FUZZ_ENTRY(function)                                            \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { \
    return function(data, size);                                            \
  }
#else
#define DPQ_FUZZ_ENTRY(function)
#endif

#endif  // DPQ_TESTS_FUZZ_FUZZ_CHECK_H_
