#include "probe.h"

#ifdef HETLB_PROBE_V2
int hetlb_probe_run(const struct hetlb_probe_options* options, long ranks) { return options->items + (int)ranks; }
#else
int hetlb_probe_run(const struct hetlb_probe_options* options, int ranks) { return options->items + ranks; }
#endif
