// One component of R2T's truncation LP solved by GLPK (see
// truncated_count.h for the LP).
#include <glpk.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bench/r2t/truncated_count.h"

namespace dpq::bench::r2t::internal {
namespace {

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

}  // namespace

absl::StatusOr<double> SolveWithGlpk(const ComponentLp& lp) {
  // Rows only where the cap can bind (cap < the node's degree in this LP);
  // the others are implied by x_e <= 1 and would only slow the simplex down.
  std::vector<uint32_t> degree(lp.num_nodes, 0);
  for (const auto& [u, v] : lp.edges) {
    ++degree[u];
    ++degree[v];
  }
  std::vector<int> row_of(lp.num_nodes, 0);  // GLPK rows are 1-based
  int num_rows = 0;
  for (uint32_t v = 0; v < lp.num_nodes; ++v) {
    if (lp.capacity[v] < static_cast<double>(degree[v])) row_of[v] = ++num_rows;
  }
  if (num_rows == 0) return static_cast<double>(lp.edges.size());
  if (lp.edges.size() > static_cast<size_t>(INT32_MAX / 2)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "A truncation LP component has ", lp.edges.size(),
        " edges, more than GLPK's int indices allow; use --solver flow."));
  }

  glp_term_out(GLP_OFF);
  std::unique_ptr<glp_prob, ProblemDeleter> prob(glp_create_prob());
  glp_set_obj_dir(prob.get(), GLP_MAX);
  glp_add_rows(prob.get(), num_rows);
  for (uint32_t v = 0; v < lp.num_nodes; ++v) {
    if (row_of[v] != 0) {
      glp_set_row_bnds(prob.get(), row_of[v], GLP_UP, 0.0, lp.capacity[v]);
    }
  }
  const int num_cols = static_cast<int>(lp.edges.size());
  glp_add_cols(prob.get(), num_cols);
  // Index 0 of the triplet arrays is unused (GLPK is 1-based).
  std::vector<int> ia(1), ja(1);
  std::vector<double> ar(1);
  for (int j = 1; j <= num_cols; ++j) {
    glp_set_col_bnds(prob.get(), j, GLP_DB, 0.0, 1.0);
    glp_set_obj_coef(prob.get(), j, 1.0);
    const auto& [u, v] = lp.edges[static_cast<size_t>(j - 1)];
    for (uint32_t end : {u, v}) {
      if (row_of[end] == 0) continue;
      ia.push_back(row_of[end]);
      ja.push_back(j);
      ar.push_back(1.0);
    }
  }
  glp_load_matrix(prob.get(), static_cast<int>(ia.size() - 1), ia.data(),
                  ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  const int code = glp_simplex(prob.get(), &parm);
  if (code != 0 || glp_get_status(prob.get()) != GLP_OPT) {
    return absl::InternalError(absl::StrCat(
        "GLPK did not solve a truncation LP (glp_simplex returned ", code,
        ", status ", glp_get_status(prob.get()), ")."));
  }
  return glp_get_obj_val(prob.get());
}

}  // namespace dpq::bench::r2t::internal
