#include "core/selection/weighted_sum_sensitivity.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace dpq::core::selection {

absl::StatusOr<WeightedSumSensitivity> WeightedSumSensitivity::Create(
    std::vector<double> weights,
    std::vector<const SensitivityFunction*> components) {
  if (weights.size() != components.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "A weighted sum needs one weight per objective, but there are ",
        weights.size(), " weights for ", components.size(), " objectives."));
  }
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Weight ", i, " must be finite, but is ", weights[i], "."));
    }
    if (components[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The sensitivity function of objective ", i, " is missing (null)."));
    }
    weights[i] = std::fabs(weights[i]);
  }
  return WeightedSumSensitivity(std::move(weights), std::move(components));
}

WeightedSumSensitivity::WeightedSumSensitivity(
    std::vector<double> abs_weights,
    std::vector<const SensitivityFunction*> components)
    : abs_weights_(std::move(abs_weights)),
      components_(std::move(components)) {}

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// a + b * c, never below the exact value: each operation that rounded
// down is moved one ulp up (exact operations are left alone). fma gives
// the exact error of the product, TwoSum that of the sum.
double AddProductUp(double a, double b, double c) {
  double product = b * c;
  if (std::fma(b, c, -product) > 0)
    product = std::nextafter(product, kInfinity);
  const double sum = a + product;
  const double bb = sum - a;
  const double err = (a - (sum - bb)) + (product - bb);
  return err > 0 ? std::nextafter(sum, kInfinity) : sum;
}

}  // namespace

double WeightedSumSensitivity::At(size_t candidate, uint64_t t) const {
  double sum = 0;
  for (size_t i = 0; i < components_.size(); ++i) {
    if (abs_weights_[i] != 0) {
      sum =
          AddProductUp(sum, abs_weights_[i], components_[i]->At(candidate, t));
    }
  }
  return sum;
}

double WeightedSumSensitivity::Global() const {
  double sum = 0;
  for (size_t i = 0; i < components_.size(); ++i) {
    if (abs_weights_[i] != 0) {
      sum = AddProductUp(sum, abs_weights_[i], components_[i]->Global());
    }
  }
  return sum;
}

std::vector<double> NormalizeWeights(absl::Span<const double> weights) {
  double largest = 0;
  for (double w : weights) largest = std::max(largest, std::fabs(w));
  std::vector<double> out(weights.begin(), weights.end());
  if (largest == 0) return out;
  for (double& w : out) w /= largest;
  return out;
}

}  // namespace dpq::core::selection
