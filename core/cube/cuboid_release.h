// DP release of data-cube cuboids (count marginals) when some cuboids are
// public exactly (paper: exact-cuboids-in-noisy-data-cube, Sections 2, 4
// and 6; docs/cube.md). Entry point used by the service.
//
// Pipeline: generic sensitivity given the public exact cuboids Q ->
// discrete Laplace noise on the counts -> least-squares projection onto
// the exact cuboids (consistency) -> optional non-negative integral
// rounding (post-processing).
#ifndef DPQ_CORE_CUBE_CUBOID_RELEASE_H_
#define DPQ_CORE_CUBE_CUBOID_RELEASE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/table/table.h"

namespace dpq::core::cube {

// How one column becomes a nominal dimension.
struct DimensionSpec {
  std::string column;
  // Numeric columns: ascending bin edges e0 < e1 < ... < ek giving bins
  // [e0,e1), ..., [e(k-1),ek]; values outside and NULL go to an "other"
  // cell. Empty for nominal columns.
  std::vector<double> bin_edges;
  // Nominal columns: the declared domain (cell texts). NULL and undeclared
  // values go to "other".
  std::vector<std::string> domain;
  // Nominal columns without a domain: take the domain from the data (the
  // owner thereby makes the column's set of values public). Must be asked
  // for: a spec with neither bins, nor a domain, nor infer_domain is an
  // error. An inferred dimension always has an "other" cell (whether a
  // NULL exists must not decide that: it would leak).
  bool infer_domain = false;
  // Added: the declared domain or bins are complete, so no "other" cell is
  // made; rows with NULL or a value outside are left out of EVERY cuboid
  // (a fixed row filter, so still DP). Default false: an "other" cell.
  bool closed = false;
};

// The dimensions with their finished, public domains (labels in cell
// order: bins as "[e0,e1)", nominal values as text, then the catch-all
// cell if has_other: always, unless a declared domain or bins are closed).
struct CubeDimension {
  std::string column;
  std::vector<std::string> labels;
  // Added for mapping rows to cells (see data_cube.h): the bin edges of a
  // numeric dimension (labels[i] is bin i), empty for nominal ones; and
  // whether the last label is the catch-all cell for NULL, out-of-range
  // and undeclared values (labelled "other", or "(other)" if a value is
  // already called "other", "((other))" if "(other)" is taken too). Without it
  // such rows are left out of every cuboid.
  std::vector<double> bin_edges;
  bool has_other = false;
};
struct CubeSchema {
  std::vector<CubeDimension> dimensions;
};

// Builds the schema: every spec'd column, plus (if `specs` is empty; for
// experiments, never in the service) every string or int64 column with at
// most `max_inferred_domain` distinct values. kInvalidArgument naming the
// column for an unknown column, a double column without bin edges, unsorted
// edges, a nominal spec with neither domain nor infer_domain, or an
// inferred domain too large.
absl::StatusOr<CubeSchema> BuildCubeSchema(
    const table::Table& table, const std::vector<DimensionSpec>& specs,
    size_t max_inferred_domain = 1000);

struct CuboidCell {
  std::vector<std::string> values;  // one label per cuboid dimension
  double count = 0;
};
struct Cuboid {
  std::vector<std::string> dimensions;  // as requested, in that order
  std::vector<CuboidCell> cells;        // row-major over the labels
};

// The exact cuboid (no noise): for owners and for the public exact
// cuboids shown to buyers. kInvalidArgument for an unknown dimension.
absl::StatusOr<Cuboid> ComputeExactCuboid(const table::Table& table,
                                          const CubeSchema& schema,
                                          const std::vector<std::string>& dims);
// As above with an explicit limit on the number of cells
// (kResourceExhausted above it); the 3-argument form uses
// kDefaultMaxExactCells. O(rows * |dims| + cells).
inline constexpr size_t kDefaultMaxExactCells = 10'000'000;
absl::StatusOr<Cuboid> ComputeExactCuboid(const table::Table& table,
                                          const CubeSchema& schema,
                                          const std::vector<std::string>& dims,
                                          size_t max_cells);

enum class ReleaseStrategy {
  kPerCuboid,   // each requested cuboid noised, epsilon split evenly
  kBaseCuboid,  // the cuboid over the union of the requested dimensions
                // noised once, every requested cuboid derived from it
};

struct CuboidReleaseOptions {
  // Q: the public exact cuboids (dimension lists). Three or more without a
  // proven bound: kFailedPrecondition with the reason.
  std::vector<std::vector<std::string>> public_exact_cuboids;
  double epsilon = 0;  // total, validated by dp::ValidateEpsilon
  // Post-processing: round to non-negative integers after consistency
  // (then exact-cuboid consistency holds only approximately).
  bool non_negative_integral = false;
  // Limit on the number of noised cells (kResourceExhausted above it).
  size_t max_cells = 1'000'000;
};

struct CuboidRelease {
  std::vector<Cuboid> cuboids;  // noisy and consistent, in request order
  ReleaseStrategy strategy = ReleaseStrategy::kPerCuboid;
  double sensitivity = 0;  // generic sensitivity used
  double epsilon_spent = 0;
  // Standard deviation of the noise of one released cell before
  // consistency enforcement (which only lowers it), per cuboid.
  std::vector<double> noise_stddev;
};

// Chooses the cheaper strategy (smaller total noise variance on the
// requested cells) and releases. A requested cuboid computable from one
// exact cuboid is public: returned exactly, noise_stddev 0, no epsilon
// (epsilon_spent is 0 if every requested cuboid is public). Every noised
// cuboid is made consistent with the projections of all exact cuboids onto
// its dimensions. Details and proofs: docs/cube.md. kInvalidArgument for an
// unknown dimension or invalid epsilon; kFailedPrecondition for an unsupported
// Q; kResourceExhausted over max_cells.
absl::StatusOr<CuboidRelease> ReleaseCuboids(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options, dp::SecureUrbg& urbg);

// Every error ReleaseCuboids can return for these arguments, without
// looking at a row: all of them depend on the schema (declared labels),
// the requested and public cuboids, epsilon and the limits only. A caller
// that charges for a release checks this before reserving budget.
absl::Status CheckCuboidRelease(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_CUBOID_RELEASE_H_
