// The values of dpq's flags and arguments, parsed from their text: numbers,
// the names of measures, methods and modes, cube dimensions and lists.
// Every error is kInvalidArgument with a message that names the flag (or
// argument) and the value: a usage error (`dpq` exits 2).
#ifndef DPQ_CLIENT_FLAG_VALUES_H_
#define DPQ_CLIENT_FLAG_VALUES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::client {

// A finite decimal number for `what` (a flag such as "--epsilon", or an
// argument such as "EPS"). Negative values and zero are accepted: the
// server owns the range checks.
absl::StatusOr<double> ParseNumber(absl::string_view what,
                                   const std::string& text);

// A non-negative decimal integer without a sign.
absl::StatusOr<uint64_t> ParseUint64(absl::string_view what,
                                     const std::string& text);

// As ParseUint64, at most 2^32 - 1.
absl::StatusOr<uint32_t> ParseUint32(absl::string_view what,
                                     const std::string& text);

// Parses "mi"/"p"/"r" (case-insensitive). kInvalidArgument otherwise.
absl::StatusOr<dpq::v1::Measure> ParseMeasureName(const std::string& text);

// Parses "gem"/"optimized"/"hierarchical"/"basic"/"baseline"
// (case-insensitive), the methods of I_MI and I_P.
absl::StatusOr<dpq::v1::SelectionMethod> ParseMethodName(
    const std::string& text);

// Parses "cover_bound"/"exact"/"vertex_cover" (case-insensitive), the
// methods of I_R.
absl::StatusOr<dpq::v1::RepairMethod> ParseRepairMethodName(
    const std::string& text);

// Parses "table"/"graph" (case-insensitive) for --kind.
absl::StatusOr<dpq::v1::DatasetKind> ParseKindName(const std::string& text);

// Parses "pareto"/"aggregation" (case-insensitive) for --approach.
absl::StatusOr<dpq::v1::SelectionApproach> ParseApproachName(
    const std::string& text);

// Parses "global"/"local" (case-insensitive) for --sensitivity.
absl::StatusOr<dpq::v1::SensitivityMode> ParseSensitivityName(
    const std::string& text);

// Parses "degree"/"egocentric_density" (case-insensitive) for --objectives.
absl::StatusOr<dpq::v1::NodeObjective> ParseObjectiveName(
    const std::string& text);

// A --cube-dimension value:
//   COL               nominal, domain inferred from the data;
//   COL:e0,e1,...,ek  numeric, bins [e0,e1), ..., [e(k-1),ek] (finite
//                     numbers; their order is the server's to check);
//   COL=v1|v2|...     nominal with the declared domain v1, v2, ...
// Spaces around names and values are trimmed. kInvalidArgument for an
// empty column or value, or an edge that is not a number.
absl::StatusOr<dpq::v1::CubeDimension> ParseCubeDimension(
    const std::string& text);

// A comma-separated list of column names for `flag` (--dims,
// --public-cuboid, --features), trimmed. "" is the empty list (the apex
// cuboid) when `allow_empty`; an empty item ("A,,B") or a name given twice
// is kInvalidArgument.
absl::StatusOr<std::vector<std::string>> ParseNameList(absl::string_view flag,
                                                       const std::string& text,
                                                       bool allow_empty);

// A comma-separated list of finite numbers for `flag` (--weights).
absl::StatusOr<std::vector<double>> ParseNumberList(absl::string_view flag,
                                                    const std::string& text);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_FLAG_VALUES_H_
