/* A library of two versions for the ABI check's own test: the second changes a parameter's type and a
 * structure's size, which abi_check.sh must refuse. */
#ifndef HETLB_ABI_PROBE_H
#define HETLB_ABI_PROBE_H
struct hetlb_probe_options {
  int items;
#ifdef HETLB_PROBE_V2
  double weight;
#endif
};
#ifdef HETLB_PROBE_V2
int hetlb_probe_run(const struct hetlb_probe_options* options, long ranks);
#else
int hetlb_probe_run(const struct hetlb_probe_options* options, int ranks);
#endif
#endif
