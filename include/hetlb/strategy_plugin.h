/* hetlb strategy plug-ins: a load-balancing strategy compiled as a shared library and loaded by path
 * (`--strategy plugin:PATH`) by the simulator, hetlb-diffuse / the MPI runtime and campaigns
 * (docs/adding-a-strategy.md). Plain C, so that any compiler can build one.
 *
 * The library exports hetlb_strategy_entry(), returning a description whose interface_version is
 * HETLB_STRATEGY_PLUGIN_VERSION; a library built against another version is refused. At each
 * balancing step of a node, hetlb calls decide() with what the node knows, and decide() writes the
 * amount of load to send to each neighbour. */
#ifndef HETLB_STRATEGY_PLUGIN_H
#define HETLB_STRATEGY_PLUGIN_H

#define HETLB_STRATEGY_PLUGIN_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

enum hetlb_param_type { HETLB_PARAM_REAL = 0, HETLB_PARAM_INTEGER = 1, HETLB_PARAM_FLAG = 2 };

/* A parameter of the strategy, set with --param NAME=VALUE or in a campaign spec. Values outside
 * [min, max] (not whole for HETLB_PARAM_INTEGER, not 0/1 for HETLB_PARAM_FLAG) are refused before
 * any run. */
typedef struct hetlb_strategy_param {
  const char* name;
  int type; /* enum hetlb_param_type */
  double default_value;
  double min, max;
  const char* help;
} hetlb_strategy_param;

/* What the node knows when it decides. */
typedef struct hetlb_node_view {
  int node;                       /* the node's index */
  double date;                    /* seconds since the start (simulated, or wall-clock under MPI) */
  double load;                    /* the node's own load (load units) */
  double speed;                   /* the node's own speed (1 when balancing by load) */
  int degree;                     /* number of neighbours */
  const double* neighbour_loads;  /* [degree] their last known loads */
  const double* neighbour_speeds; /* [degree] their speeds relative to the node's own (all 1 by load) */
  const double* params;           /* [param_count] the parameter values, in declaration order */
} hetlb_node_view;

typedef struct hetlb_strategy_plugin {
  int interface_version; /* HETLB_STRATEGY_PLUGIN_VERSION */
  const char* name;      /* a short name, letters, digits and '_' */
  const char* label;     /* as shown in tables and figures */
  const char* summary;   /* one line */
  int param_count;
  const hetlb_strategy_param* params;
  /* Writes transfers[0..degree-1], in load units: each finite and >= 0, their sum at most the node's
   * load. Returns 0, or non-zero to end the run with an error. A decision outside these bounds ends
   * the run with an error naming the library, the node and the date (it is never clamped). */
  int (*decide)(const hetlb_node_view* node, double* transfers);
} hetlb_strategy_plugin;

/* The entry point every plug-in exports. */
const hetlb_strategy_plugin* hetlb_strategy_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_STRATEGY_PLUGIN_H */
