/* hetlb's version, for C, C++ and the build (CMake reads the three numbers from here).
 *
 * While the major number is 0, a change of the minor number may change the public C/C++ API or the ABI
 * of libhetlb_mpi (its soname is libhetlb_mpi.so.MAJOR.MINOR); from 1.0 on, only a change of the major
 * number may. A function, type or option that goes away is first marked HETLB_DEPRECATED for one minor
 * release, with the name of its replacement (docs/changelog.md lists both). */
#ifndef HETLB_VERSION_H
#define HETLB_VERSION_H

#define HETLB_VERSION_MAJOR 0
#define HETLB_VERSION_MINOR 2
#define HETLB_VERSION_PATCH 0
#define HETLB_VERSION_STRING "0.2.0"
/* One number to compare: #if HETLB_VERSION_NUMBER >= 200 (0.2.0) */
#define HETLB_VERSION_NUMBER (HETLB_VERSION_MAJOR * 10000 + HETLB_VERSION_MINOR * 100 + HETLB_VERSION_PATCH)

/* Marks a declaration that will go away: HETLB_DEPRECATED("use hetlb_x_y instead") before it. */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define HETLB_DEPRECATED(message) [[deprecated(message)]]
#elif defined(__GNUC__) || defined(__clang__)
#define HETLB_DEPRECATED(message) __attribute__((deprecated(message)))
#else
#define HETLB_DEPRECATED(message)
#endif

#endif /* HETLB_VERSION_H */
