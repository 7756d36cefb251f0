#include "core/dp/scaled_gap.h"

#include <cmath>

namespace dpq::core::dp {

double ScaledGap(double half_gap, double epsilon, double sensitivity) {
  if (half_gap == 0) return 0;
  int e_gap, e_eps, e_sens;
  const double m_gap = std::frexp(half_gap, &e_gap);
  const double m_eps = std::frexp(epsilon, &e_eps);
  const double m_sens = std::frexp(sensitivity, &e_sens);
  return std::ldexp(m_gap * m_eps / m_sens, e_gap + e_eps - e_sens);
}

}  // namespace dpq::core::dp
