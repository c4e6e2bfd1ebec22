/* hetlb_mpi, C interface: the library's build identity, as every hetlb program prints it for --version
 * (hetlb's version, the commit it was built from, a mark for uncommitted changes, and the SimGrid, MPI
 * and GLPK versions it was configured with). Needs no MPI: call it before MPI_Init. */
#ifndef HETLB_MPI_VERSION_H
#define HETLB_MPI_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* With "--version" among argv[1..argc-1]: prints the build identity on stdout under the name of
 * argv[0] (without its folder) and returns 1 (the program then exits 0); returns 0 otherwise. */
int hetlb_mpi_print_version_if_asked(int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_VERSION_H */
