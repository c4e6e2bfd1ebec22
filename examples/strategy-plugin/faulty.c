/* Faulty plug-ins for the tests of the checks (one per FAULT): another interface version, negative,
 * non-finite or excessive transfers, a failing decide(). */
#include <math.h>

#include <hetlb/strategy_plugin.h>

static int decide(const hetlb_node_view* node, double* transfers) {
  for (int j = 0; j < node->degree; ++j) transfers[j] = 0;
  if (node->degree == 0 || node->load <= 0) return 0;
#if FAULT == 2
  transfers[0] = -1;
#elif FAULT == 3
  transfers[0] = NAN;
#elif FAULT == 4
  transfers[0] = node->load * 2;
#elif FAULT == 5
  return 7;
#endif
  return 0;
}

static const hetlb_strategy_plugin plugin = {
#if FAULT == 1
    HETLB_STRATEGY_PLUGIN_VERSION + 1,
#else
    HETLB_STRATEGY_PLUGIN_VERSION,
#endif
    "faulty", "faulty", "a faulty plug-in", 0, 0, decide,
};

const hetlb_strategy_plugin* hetlb_strategy_entry(void) { return &plugin; }
