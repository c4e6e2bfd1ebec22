// Linear program (3) of RR-4770 solved by GLPK, in a sparse form: S_i = S_{i-1} + l_i + c_i n_i
// (the root's sending date after P_i), T >= S_i + L_i + w_i n_i, sum n_i = n, n_i >= 0; minimize T.
// With `exact`, the simplex result is refined by glp_exact (exact rational arithmetic).
#include <glpk.h>

#include <memory>
#include <string>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

RationalSolution solve_lp_glpk(const Problem& pb, bool exact) {
  if (!pb.all_affine()) throw Error("lp: linear program (3) needs affine costs (a processor has a table)");
  const int p = static_cast<int>(pb.size());
  glp_term_out(GLP_OFF);
  std::unique_ptr<glp_prob, decltype(&glp_delete_prob)> lp(glp_create_prob(), &glp_delete_prob);
  glp_prob* P = lp.get();
  glp_set_obj_dir(P, GLP_MIN);
  // Columns: n_1..n_p, S_1..S_p, T.
  glp_add_cols(P, 2 * p + 1);
  for (int i = 1; i <= p; ++i) {
    glp_set_col_bnds(P, i, GLP_LO, 0.0, 0.0);
    glp_set_col_bnds(P, p + i, GLP_FR, 0.0, 0.0);
  }
  const int colT = 2 * p + 1;
  glp_set_col_bnds(P, colT, GLP_FR, 0.0, 0.0);
  glp_set_obj_coef(P, colT, 1.0);
  // Rows: 1..p chain, p+1..2p finish, 2p+1 total.
  glp_add_rows(P, 2 * p + 1);
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  auto put = [&](int r, int col, double v) {
    ia.push_back(r);
    ja.push_back(col);
    ar.push_back(v);
  };
  for (int i = 1; i <= p; ++i) {
    const auto& comm = pb.comm[i - 1];
    const auto& comp = pb.compute[i - 1];
    glp_set_row_bnds(P, i, GLP_FX, comm.latency(), comm.latency());  // S_i - S_{i-1} - c_i n_i = l_i
    put(i, p + i, 1.0);
    if (i > 1) put(i, p + i - 1, -1.0);
    if (comm.per_item() != 0.0) put(i, i, -comm.per_item());
    glp_set_row_bnds(P, p + i, GLP_LO, comp.latency(), 0.0);  // T - S_i - w_i n_i >= L_i
    put(p + i, colT, 1.0);
    put(p + i, p + i, -1.0);
    if (comp.per_item() != 0.0) put(p + i, i, -comp.per_item());
    put(2 * p + 1, i, 1.0);
  }
  const double n = static_cast<double>(pb.items);
  glp_set_row_bnds(P, 2 * p + 1, GLP_FX, n, n);
  glp_load_matrix(P, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  // Progress lines: GLPK's own iteration lines ("it: obj = ..."), through the progress sink.
  const bool progress = progress_wanted() && p >= 1000;
  if (progress) {
    parm.msg_lev = GLP_MSG_ON;
    parm.out_frq = static_cast<int>(kProgressPeriod * 1000);
    glp_term_out(GLP_ON);
    glp_term_hook(
        [](void* info, const char* s) {
          std::string line(s);
          while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
          if (line.find("obj =") != std::string::npos)
            report_progress([&] { return fmt::format("lp: GLPK simplex on {} processors: {}", *static_cast<int*>(info), line); });
          return 1;  // nothing on the terminal
        },
        const_cast<int*>(&p));
  }
  int rc = glp_simplex(P, &parm);
  if (rc == 0 && exact) rc = glp_exact(P, &parm);
  if (progress) {
    glp_term_hook(nullptr, nullptr);
    glp_term_out(GLP_OFF);
  }
  if (rc != 0 || glp_get_status(P) != GLP_OPT)
    throw Error(fmt::format("lp: GLPK did not find the optimum of LP (3) (code {})", rc));
  RationalSolution sol;
  sol.makespan = glp_get_obj_val(P);
  for (int i = 1; i <= p; ++i) sol.shares.push_back(std::max(0.0, glp_get_col_prim(P, i)));
  sol.method = exact ? "LP (3) by GLPK, exact rational simplex" : "LP (3) by GLPK, floating-point simplex";
  return sol;
}

}  // namespace hetlb::scatter
