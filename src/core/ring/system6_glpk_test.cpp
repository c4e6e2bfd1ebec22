// System 6 cross-checked against GLPK on small rings: the rational LP optimum equals our rational
// optimum, and GLPK's integer optimum (branch and bound) equals our exact integer optimum.
#include <glpk.h>
#include <gtest/gtest.h>

#include <memory>

#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/verify.hpp"
#include "test_support.hpp"

using namespace hetlb;
using namespace hetlb::ring;
using namespace hetlb::ring::testing;

namespace {
// System 6 with gross variables S_{i,i+1} (columns 1..n), S_{i,i-1} (n+1..2n) and tau (2n+1).
double glpk_system6(const Ring& r, bool integer) {
  const int n = static_cast<int>(r.size());
  glp_term_out(GLP_OFF);
  std::unique_ptr<glp_prob, decltype(&glp_delete_prob)> lp(glp_create_prob(), &glp_delete_prob);
  glp_prob* P = lp.get();
  glp_set_obj_dir(P, GLP_MIN);
  glp_add_cols(P, 2 * n + 1);
  for (int j = 1; j <= 2 * n; ++j) {
    glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
    if (integer) glp_set_col_kind(P, j, GLP_IV);
  }
  const int tau = 2 * n + 1;
  glp_set_col_bnds(P, tau, GLP_LO, 0.0, 0.0);
  glp_set_obj_coef(P, tau, 1.0);
  glp_add_rows(P, 3 * n);
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  auto put = [&](int row, int col, double v) {
    ia.push_back(row);
    ja.push_back(col);
    ar.push_back(v);
  };
  auto succ_col = [&](int i) { return 1 + (i + n) % n; };     // S_{i,i+1}
  auto pred_col = [&](int i) { return 1 + n + (i + n) % n; };  // S_{i,i-1}
  for (int i = 0; i < n; ++i) {
    const double d = static_cast<double>(r.loads[i] - r.targets[i]);
    const int cons = 1 + i, send = 1 + n + i, recv = 1 + 2 * n + i;
    glp_set_row_bnds(P, cons, GLP_FX, d, d);  // S_{i,i+1} + S_{i,i-1} - S_{i+1,i} - S_{i-1,i} = delta_i
    put(cons, succ_col(i), 1.0);
    put(cons, pred_col(i), 1.0);
    put(cons, pred_col(i + 1), -1.0);
    put(cons, succ_col(i - 1), -1.0);
    glp_set_row_bnds(P, send, GLP_UP, 0.0, 0.0);  // S_{i,i+1} c_{i,i+1} + S_{i,i-1} c_{i,i-1} <= tau
    put(send, succ_col(i), r.succ_cost[i]);
    put(send, pred_col(i), r.pred_cost[i]);
    put(send, tau, -1.0);
    glp_set_row_bnds(P, recv, GLP_UP, 0.0, 0.0);  // S_{i+1,i} c_{i+1,i} + S_{i-1,i} c_{i-1,i} <= tau
    put(recv, pred_col(i + 1), r.pred_cost[(i + 1) % n]);
    put(recv, succ_col(i - 1), r.succ_cost[(i + n - 1) % n]);
    put(recv, tau, -1.0);
  }
  glp_load_matrix(P, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = GLP_MSG_OFF;
  EXPECT_EQ(glp_simplex(P, &sm), 0);
  EXPECT_EQ(glp_exact(P, &sm), 0);
  if (!integer) return glp_get_obj_val(P);
  glp_iocp io;
  glp_init_iocp(&io);
  io.msg_lev = GLP_MSG_OFF;
  io.tol_int = 1e-9;
  EXPECT_EQ(glp_intopt(P, &io), 0);
  EXPECT_EQ(glp_mip_status(P), GLP_OPT);
  return glp_mip_obj_val(P);
}
}  // namespace

TEST(ringSystem6Glpk, RationalAndIntegerOptimaMatchGlpk) {
  std::mt19937_64 g(99);
  int light = 0;
  for (int it = 0; it < 300; ++it) {
    const std::size_t n = 2 + g() % 7;
    const Ring r = random_ring(g, n, it % 2 ? Shape::Random : Shape::Concentrated,
                               it % 3 ? Costs::Integer : Costs::Real, true);
    const FlowOptimum s6 = solve_system6(r);
    double rational = 0;
    system6_rational_theta(r, s6.theta, &rational);
    const double lp = glpk_system6(r, false);
    const double mip = glpk_system6(r, true);
    ASSERT_NEAR(rational, lp, 1e-7 * std::max(1.0, lp)) << describe(r);
    ASSERT_NEAR(s6.time, mip, 1e-7 * std::max(1.0, mip)) << describe(r);
    // The planner: a light optimum is reached (Lemma 9); otherwise GLPK's optimum stays a lower bound.
    const Plan p = plan_redistribution(r);
    ASSERT_EQ(verify_schedule(r, p.transfers, p.time), std::nullopt) << describe(r);
    ASSERT_GE(p.time, mip * (1 - 1e-7));
    if (p.algorithm == "system-6") {
      ASSERT_NEAR(p.time, mip, 1e-7 * std::max(1.0, mip)) << describe(r);
      ++light;
    }
  }
  EXPECT_GT(light, 50);
}
