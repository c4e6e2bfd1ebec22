/* An example kernel library for hetlb-calibrate (see include/hetlb/calibrate/kernel.h): each item
 * costs a fixed amount of floating-point work. */
#include "hetlb/calibrate/kernel.h"

int hetlb_kernel(long long first, long long count) {
  volatile double sink = 0.0;
  for (long long i = first; i < first + count; ++i) {
    double x = 1.0 + (double)(i % 5) * 1e-3;
    for (int k = 0; k < 3000; ++k) x = x * 0.999999 + 1e-6;
    sink += x;
  }
  return sink >= 0.0 ? 0 : 1;
}
