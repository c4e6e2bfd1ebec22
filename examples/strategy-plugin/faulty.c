/* Faulty plug-ins for the tests of the checks (one per FAULT): another interface version, negative,
 * non-finite or excessive transfers, a failing decide(), a parameter declared twice, a parameter name
 * that cannot be given as NAME=VALUE, a decide() that never returns once its node holds load, a decide()
 * that calls exit(0), a label of two lines, a decide() that dereferences NULL, one that calls abort(). */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

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
#elif FAULT == 8
  for (;;) sleep(1);
#elif FAULT == 9
  exit(0);
#elif FAULT == 11
  *(volatile double*)0 = node->load;
#elif FAULT == 12
  abort();
#endif
  return 0;
}

#if FAULT == 6
static const hetlb_strategy_param params[] = {{"alpha", HETLB_PARAM_REAL, 1, 0, 1, "a"},
                                              {"alpha", HETLB_PARAM_REAL, 1, 0, 1, "again"}};
#define PARAM_COUNT 2
#elif FAULT == 7
static const hetlb_strategy_param params[] = {{"a=b", HETLB_PARAM_REAL, 1, 0, 1, "not a name"}};
#define PARAM_COUNT 1
#else
static const hetlb_strategy_param* const params = 0;
#define PARAM_COUNT 0
#endif

static const hetlb_strategy_plugin plugin = {
#if FAULT == 1
    HETLB_STRATEGY_PLUGIN_VERSION + 1,
#else
    HETLB_STRATEGY_PLUGIN_VERSION,
#endif
#if FAULT == 10
    "faulty", "faulty\nstrategy", "a faulty plug-in", PARAM_COUNT, params, decide,
#else
    "faulty", "faulty", "a faulty plug-in", PARAM_COUNT, params, decide,
#endif
};

const hetlb_strategy_plugin* hetlb_strategy_entry(void) { return &plugin; }
