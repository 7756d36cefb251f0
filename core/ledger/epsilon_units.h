// Exact budgets (docs/privacy.md 5; finding 9 of docs/privacy.md 7): the
// ledger counts epsilon in
// integer units of 10^-12, so that sums of charges are exact (no
// 0.1 + 0.2 > 0.3, no tolerance that lets the total exceed the grant).
//
// A charge must cover the epsilon the mechanism spends, so a charged double
// is converted by rounding UP (ChargeUnits); amounts an admin sets (grants,
// caps) by rounding to nearest (AmountUnits). A request's epsilon is first
// quantised (QuantizedEpsilon: the largest double at or below a whole
// number of units), so that "0.1" is charged 0.1 exactly and the mechanism
// runs at that double, never above it.
#ifndef DPQ_CORE_LEDGER_EPSILON_UNITS_H_
#define DPQ_CORE_LEDGER_EPSILON_UNITS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::ledger {

// Units per epsilon.
inline constexpr int64_t kUnitsPerEpsilon = 1'000'000'000'000;
// Largest amount the ledger holds in one number: 9 * 10^6 epsilon (below
// 2^63 units, and above any sum of kMaxEpsilon requests a ledger needs).
inline constexpr int64_t kMaxUnits = 9'000'000 * kUnitsPerEpsilon;

// The smallest number of units u with u / 10^12 >= epsilon (exactly).
// kInvalidArgument naming `name` unless epsilon is finite, > 0 and at most
// kMaxUnits / 10^12.
absl::StatusOr<int64_t> ChargeUnits(double epsilon,
                                    absl::string_view name = "epsilon");

// The nearest number of units to `amount` (finite, >= 0, at most
// kMaxUnits / 10^12; kInvalidArgument naming `name` otherwise, and for a
// positive amount below half a unit, which would be stored as 0: a grant
// of nothing, or a cap of 0, which means no cap).
absl::StatusOr<int64_t> AmountUnits(double amount, absl::string_view name);

// units / 10^12 as the nearest double (what the API shows).
double FromUnits(int64_t units);

// The largest double e with e <= units / 10^12 exactly (units >= 1): an
// epsilon that ChargeUnits turns back into exactly `units`.
double EpsilonOfUnits(int64_t units);

// The largest double e with e <= round(epsilon * 10^12) / 10^12 exactly,
// for epsilon in (0, kMaxUnits / 10^12]: the epsilon a release runs at, so
// that ChargeUnits(QuantizedEpsilon(x)) is round(x * 10^12), at least 1,
// for x up to 8192 (2^13). Above that, adjacent doubles are more than one
// unit apart and the round trip can come out a unit short: whatever is
// charged must be summed in units (the buyer release pipeline's covering
// reservation does), never read back from this double.
// Other values (<= 0, NaN, too large) are returned unchanged.
double QuantizedEpsilon(double epsilon);

// units / 10^12 as an exact decimal without trailing zeros: "15.6", "3",
// "0.000000000001", "-0.5" (what clients and error details show, so that an
// amount reads without float noise). Any int64_t, INT64_MIN included.
std::string UnitsDecimal(int64_t units);

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_EPSILON_UNITS_H_
