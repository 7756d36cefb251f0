// Exact (Clopper-Pearson) binomial confidence bounds, for the privacy
// auditor. Tests only.
#ifndef DPQ_TESTS_PRIVACY_AUDIT_CLOPPER_PEARSON_H_
#define DPQ_TESTS_PRIVACY_AUDIT_CLOPPER_PEARSON_H_

#include <cstdint>

namespace dpq::audit {

// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x
// in [0, 1] (continued fraction, modified Lentz; relative error ~1e-14).
double RegularizedIncompleteBeta(double a, double b, double x);

// The largest p with P(Binomial(n, p) >= k) <= alpha: a lower bound on the
// success probability that fails with probability at most alpha. 0 for
// k = 0.
double ClopperPearsonLower(int64_t k, int64_t n, double alpha);

// The smallest p with P(Binomial(n, p) <= k) <= alpha: an upper bound that
// fails with probability at most alpha. 1 for k = n.
double ClopperPearsonUpper(int64_t k, int64_t n, double alpha);

}  // namespace dpq::audit

#endif  // DPQ_TESTS_PRIVACY_AUDIT_CLOPPER_PEARSON_H_
