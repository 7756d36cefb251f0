// The shortest decimal text that parses back to the same double ("0.1",
// "10", "1e+20", "nan", "inf"): what dpq prints wherever a number must not
// look different from the value it stands for (absl::StrCat keeps only six
// significant digits).
#ifndef DPQ_CORE_UTIL_SHORTEST_DOUBLE_H_
#define DPQ_CORE_UTIL_SHORTEST_DOUBLE_H_

#include <string>

namespace dpq::core::util {

std::string ShortestDouble(double value);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_SHORTEST_DOUBLE_H_
