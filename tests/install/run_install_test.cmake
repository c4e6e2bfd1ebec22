# Installs hetlb into a scratch prefix as a user would, then from the prefix only: builds the C quick
# start with mpicc and pkg-config (libhetlb_mpi.so), the C++ one with find_package(hetlb COMPONENTS mpi)
# (static hetlb::mpi) and the Fortran one (hetlb::mpi_f08) when FORTRAN is ON; runs each under mpirun
# (every item checked), and a diffusion program (hetlb/mpi/diffusion.hpp); runs `hetlb calibrate` from the prefix; checks that docs/mpi.md shows each
# quick start verbatim.
#   cmake -DSOURCE_DIR= -DBINARY_DIR= -DMPIRUN= -DMPICC= -DPLATFORM= -DFORTRAN=ON|OFF -P run_install_test.cmake
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
foreach(f lib/libhetlb_mpi.a lib/libhetlb_mpi.so bin/hetlb bin/hetlb-calibrate lib/pkgconfig/hetlb.pc
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

# The quick starts of docs/mpi.md are these files, verbatim.
file(READ ${SOURCE_DIR}/docs/mpi.md docs)
foreach(example ${docs_examples})
  file(READ ${here}/${example} text)
  string(FIND "${docs}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "docs/mpi.md does not show tests/install/${example} verbatim")
  endif()
endforeach()
