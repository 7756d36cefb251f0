// Fuzz target: the benchmark DC syntax, t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)
// (core/constraints/dc_parser.h). Each line after the schema line follows
// "t1&t2&"; the checks are dc_fuzz.h's.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tests/fuzz/dc_fuzz.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {

int FuzzDcBenchmark(const uint8_t* data, size_t size) {
  return FuzzDcLines(data, size, [](absl::string_view line, absl::string_view) {
    return absl::StrCat("t1&t2&", line);
  });
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzDcBenchmark)
