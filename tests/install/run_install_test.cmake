# Installs hetlb into a scratch prefix as a user would, then from the prefix only: builds the C quick
# start with mpicc and pkg-config (libhetlb_mpi.so), the C++ one with find_package(hetlb COMPONENTS mpi)
# (static hetlb::mpi) and the Fortran one (hetlb::mpi_f08) when FORTRAN is ON; runs each under mpirun
# (every item checked), and a diffusion program (hetlb/mpi/diffusion.hpp); runs `hetlb calibrate` from the prefix; checks that docs/mpi-reference.md shows each
# quick start verbatim.
# Also: the C quick start with the plain C compiler and hetlb-mpi.pc, a C-only and a Fortran-only CMake
# project, the installed hetlb-seismic and hetlb-diffuse on the installed inputs (share/hetlb).
#   cmake -DSOURCE_DIR= -DBINARY_DIR= -DMPIRUN= -DMPICC= -DCC= -DPLATFORM= -DFORTRAN=ON|OFF -P run_install_test.cmake
set(work ${BINARY_DIR}/install-test)
set(prefix ${work}/prefix)
file(REMOVE_RECURSE ${work})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
set(mpirun ${MPIRUN} --allow-run-as-root --oversubscribe -np 3)
set(here ${SOURCE_DIR}/tests/install)

run(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})
foreach(f lib/libhetlb_mpi.a lib/libhetlb_mpi.so bin/hetlb bin/hetlb-calibrate bin/hetlb-seismic bin/hetlb-diffuse
          share/hetlb/grid1999.json share/hetlb/cluster-4.json share/hetlb/example_kernel.c lib/pkgconfig/hetlb.pc
          lib/pkgconfig/hetlb-mpi.pc lib/cmake/hetlb/hetlbMpiTargets.cmake include/hetlb/mpi/plan.h
          include/hetlb/mpi/diffusion.hpp include/hetlb/mpi/diffusion.h include/hetlb/diffusion/metrics.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# hetlb::mpi carries OMPI_SKIP_MPICXX (no MPI C++ bindings, no libmpi_cxx in C++ users).
file(READ ${prefix}/lib/cmake/hetlb/hetlbMpiTargets.cmake targets)
if(NOT targets MATCHES "INTERFACE_COMPILE_DEFINITIONS \"OMPI_SKIP_MPICXX")
  message(FATAL_ERROR "hetlb::mpi does not carry OMPI_SKIP_MPICXX:\n${targets}")
endif()

# C: mpicc app.c $(pkg-config --cflags --libs hetlb-mpi)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --cflags --libs hetlb-mpi)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${MPICC} -std=c99 -Wall -Werror ${here}/quickstart.c -o ${work}/quickstart_c ${flags} -Wl,-rpath,${prefix}/lib)
run(${mpirun} ${work}/quickstart_c ${PLATFORM})
if(NOT last_output MATCHES "C: 100000 items scattered and gathered back, all checked")
  message(FATAL_ERROR "C quick start: ${last_output}")
endif()
message(STATUS "${last_output}")
run(pkg-config --cflags --libs hetlb)  # the planning core's file is valid too
# hetlb-mpi.pc names the MPI it was built with by its flags, not by a vendor's pkg-config module: the
# plain C compiler builds the same program.
run(pkg-config --print-requires hetlb-mpi)
if(NOT last_output STREQUAL "")
  message(FATAL_ERROR "hetlb-mpi.pc requires other modules: ${last_output}")
endif()
run(pkg-config --variable=mpi hetlb-mpi)
message(STATUS "hetlb-mpi.pc: built with ${last_output}")
run(${CC} -std=c99 -Wall -Werror ${here}/quickstart.c -o ${work}/quickstart_cc ${flags} -Wl,-rpath,${prefix}/lib)
run(${mpirun} ${work}/quickstart_cc ${PLATFORM})
if(NOT last_output MATCHES "C: 100000 items scattered and gathered back, all checked")
  message(FATAL_ERROR "C quick start built with ${CC}: ${last_output}")
endif()

# A C-only CMake project (static hetlb::mpi and shared hetlb::mpi_shared) and a Fortran-only one.
set(only_projects c_only)
if(FORTRAN)
  list(APPEND only_projects fortran_only)
endif()
foreach(project ${only_projects})
  run(${CMAKE_COMMAND} -S ${here}/${project} -B ${work}/${project} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
  run(${CMAKE_COMMAND} --build ${work}/${project})
endforeach()
foreach(program c_only/quickstart_c_static c_only/quickstart_c_shared)
  run(${mpirun} ${work}/${program} ${PLATFORM})
  if(NOT last_output MATCHES "C: 100000 items scattered and gathered back, all checked")
    message(FATAL_ERROR "${program}: ${last_output}")
  endif()
endforeach()
if(FORTRAN)
  run(${mpirun} ${work}/fortran_only/quickstart_f08_only ${PLATFORM})
  if(NOT last_output MATCHES "Fortran: 100000 items scattered and gathered back, all checked")
    message(FATAL_ERROR "Fortran-only project: ${last_output}")
  endif()
endif()
message(STATUS "C-only and Fortran-only CMake projects built and ran")

# The installed example programs run on their installed inputs.
run(${MPIRUN} --allow-run-as-root --oversubscribe -np 4 ${prefix}/bin/hetlb-seismic --mode hetlb
    --platform ${prefix}/share/hetlb/cluster-4.json --rays 400 --format json)
if(NOT last_output MATCHES "\"integrity\":true")
  message(FATAL_ERROR "installed hetlb-seismic: ${last_output}")
endif()
# The guide's port (docs/mpi.md), from its installed sources, as the guide builds it.
run(${MPICC} ${prefix}/share/hetlb/matvec/matvec_hetlb.c ${prefix}/share/hetlb/matvec/matvec_common.c
    -o ${work}/matvec ${flags} -Wl,-rpath,${prefix}/lib)
run(${MPIRUN} --allow-run-as-root --oversubscribe -np 4 ${work}/matvec --rows 120 --steps 2 --speeds 1,1,2,4)
if(NOT last_output MATCHES "matvec-hetlb: 2 steps, y checked")
  message(FATAL_ERROR "the installed matrix-vector port: ${last_output}")
endif()
# The n-body example of the diffusion runtime, from its installed source.
run(${MPICC} ${prefix}/share/hetlb/particles/particles.c -o ${work}/particles ${flags} -lm -Wl,-rpath,${prefix}/lib)
run(${MPIRUN} --allow-run-as-root --oversubscribe -np 4 ${work}/particles --bodies 120 --steps 10 --speeds 1,1,0.5,0.25)
if(NOT last_output MATCHES "every body once, equal to the serial computation")
  message(FATAL_ERROR "the installed n-body example: ${last_output}")
endif()
run(${mpirun} ${prefix}/bin/hetlb-diffuse --topology ring --initial single --load-per-node 20 --iterations 5
    --min-lb-iter 0.002)

# C++ (and Fortran): find_package(hetlb REQUIRED COMPONENTS mpi [mpi_f08])
run(${CMAKE_COMMAND} -S ${here} -B ${work}/build -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
    -DWITH_FORTRAN=${FORTRAN})
run(${CMAKE_COMMAND} --build ${work}/build)
run(${mpirun} ${work}/build/quickstart_cpp ${PLATFORM})
if(NOT last_output MATCHES "C\\+\\+: 100000 items scattered and gathered back, all checked")
  message(FATAL_ERROR "C++ quick start: ${last_output}")
endif()
message(STATUS "${last_output}")
run(${mpirun} ${work}/build/quickstart_diffusion)  # asynchronous balancing from the prefix
if(NOT last_output MATCHES "diffusion: 300 items balanced from rank 0, rank 0 holds [0-9]+, all held once")
  message(FATAL_ERROR "diffusion quick start: ${last_output}")
endif()
message(STATUS "${last_output}")
set(docs_examples quickstart.c quickstart.cpp)
if(FORTRAN)
  run(${mpirun} ${work}/build/quickstart_f08 ${PLATFORM})
  if(NOT last_output MATCHES "Fortran: 100000 items scattered and gathered back, all checked")
    message(FATAL_ERROR "Fortran quick start: ${last_output}")
  endif()
  message(STATUS "${last_output}")
  list(APPEND docs_examples quickstart.f90)
endif()

# hetlb calibrate from the prefix finds the installed hetlb-calibrate beside it.
run(${prefix}/bin/hetlb calibrate -n 2 -- --output ${work}/cal.json --sizes 50 100 --comm-sizes 100 1000
    --max-seconds-per-point 0.05)
file(READ ${work}/cal.json cal)
string(JSON n LENGTH "${cal}" processors)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "hetlb calibrate from the prefix wrote: ${cal}")
endif()

# The quick starts of docs/mpi-reference.md are these files, verbatim.
file(READ ${SOURCE_DIR}/docs/mpi-reference.md docs)
foreach(example ${docs_examples})
  file(READ ${here}/${example} text)
  string(FIND "${docs}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "docs/mpi-reference.md does not show tests/install/${example} verbatim")
  endif()
endforeach()
