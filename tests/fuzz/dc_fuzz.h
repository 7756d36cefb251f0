// The part of the three denial-constraint fuzz targets (dc_*_fuzzer.cc) that
// does not depend on the syntax. The input's first line declares the
// schema, `name[:type]` separated by commas (type as ParseColumnType reads
// it, string when absent); each further line is wrapped into a DC of the
// target's syntax and parsed (core/constraints/dc_parser.h). Invariants:
// an error is kInvalidArgument with a message; a parsed DC has predicates,
// mentions t1 and t2, names columns of the schema, keeps every constant in
// its column's type, and its native rendering (ToString) parses back to
// the same DC; the whole text parses iff every line does.
#ifndef DPQ_TESTS_FUZZ_DC_FUZZ_H_
#define DPQ_TESTS_FUZZ_DC_FUZZ_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"

namespace dpq::fuzz {

// Runs the checks above; `wrap` turns one input line into one DC line
// (`first_column` is the schema's first column name).
int FuzzDcLines(const uint8_t* data, size_t size,
                absl::FunctionRef<std::string(absl::string_view line,
                                              absl::string_view first_column)>
                    wrap);

}  // namespace dpq::fuzz

#endif  // DPQ_TESTS_FUZZ_DC_FUZZ_H_
