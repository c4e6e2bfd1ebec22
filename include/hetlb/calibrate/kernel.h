/* The compute kernel that hetlb-calibrate times (and that an application hands to its workers).
 *
 * A kernel library is a shared object exporting, with C linkage:
 *
 *   int hetlb_kernel(long long first, long long count);
 *
 * which processes the items first .. first + count - 1 (of the application's own data set) and
 * returns 0 on success, non-zero on failure. hetlb-calibrate loads it with dlopen(3), calls it for a
 * range of counts on every rank, and fits Tcomp(i, x) from the timings. */
#ifndef HETLB_CALIBRATE_KERNEL_H
#define HETLB_CALIBRATE_KERNEL_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*hetlb_kernel_fn)(long long first, long long count);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_CALIBRATE_KERNEL_H */
