/* An example strategy plug-in: first-order diffusion (Cybenko 1989), the rule hetlb also has built in
 * as "first_order". Every neighbour j lighter than the node gets (x_i - x_j) / (deg + 1). In the time
 * view (neighbour speeds r_j relative to the node's), the date difference t_i - t_j (t_j = x_j / r_j)
 * is converted with the receiver's speed capped at the node's own: (t_i - t_j) min(1, r_j) / (deg + 1).
 *
 * Build:  cc -O2 -shared -fPIC -I PREFIX/include first_order.c -o libfirst_order.so
 * Run:    hetlb simulate diffusion --strategy plugin:./libfirst_order.so --param alpha=1
 *
 * The parameter alpha (default 1, in (0, 1]) scales every transfer: alpha = 1 is the built-in rule. */
#include <hetlb/strategy_plugin.h>

static const hetlb_strategy_param params[] = {
    {"alpha", HETLB_PARAM_REAL, 1.0, 1e-6, 1.0, "every transfer is multiplied by alpha"},
};

static int decide(const hetlb_node_view* node, double* transfers) {
  const double parts = (double)node->degree + 1.0;
  const double alpha = node->params[0];
  for (int j = 0; j < node->degree; ++j) {
    const double r = node->neighbour_speeds[j];
    const double t = node->neighbour_loads[j] / r;
    double s = 0;
    if (t < node->load) s = (node->load - t) * (r < 1.0 ? r : 1.0) / parts;
    transfers[j] = alpha == 1.0 ? s : alpha * s;
  }
  return 0;
}

static const hetlb_strategy_plugin plugin = {
    HETLB_STRATEGY_PLUGIN_VERSION,
    "first_order_plugin",
    "first-order diffusion (plug-in)",
    "every lighter neighbour j gets alpha (x_i - x_j) / (deg + 1)",
    1,
    params,
    decide,
};

const hetlb_strategy_plugin* hetlb_strategy_entry(void) { return &plugin; }
