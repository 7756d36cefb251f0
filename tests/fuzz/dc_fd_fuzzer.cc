// Fuzz target: the FD syntax, A,B -> C[,D] (core/constraints/dc_parser.h).
// A line after the schema line with an arrow is taken as it is; one
// without gets " -> " and the schema's first column appended. The checks
// are dc_fuzz.h's.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tests/fuzz/dc_fuzz.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {

int FuzzDcFd(const uint8_t* data, size_t size) {
  return FuzzDcLines(
      data, size, [](absl::string_view line, absl::string_view first_column) {
        if (absl::StrContains(line, "->")) return std::string(line);
        return absl::StrCat(line, " -> ", first_column);
      });
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzDcFd)
