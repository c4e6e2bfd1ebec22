# cmake -DCOMMAND="a|b|c" -DPROGRAM=name -DRANKS=n -DEXPECTED=regex -P expect_option_mismatch.cmake
# Ranks started with different options (check_options_agree, hetlb/mpi/option_agreement.hpp): passes
# when the command exits non-zero and every rank 0..RANKS-1 printed "PROGRAM: rank r of RANKS: ..."
# matching EXPECTED, once. The command runs under `timeout` (a hang or a spin fails).
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND timeout 50 ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit, got 0\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(rc EQUAL 124)
  message(FATAL_ERROR "the run did not end within 50 s\nstderr:\n${err}")
endif()
string(REPLACE ";" "," err "${err}")  # a CMake list separator inside a line
math(EXPR last "${RANKS} - 1")
foreach(r RANGE 0 ${last})
  string(REGEX MATCHALL "${PROGRAM}: rank ${r} of ${RANKS}: [^\n]*" lines "${err}")
  list(LENGTH lines n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one line from rank ${r} of ${RANKS}, got ${n}\nstderr:\n${err}")
  endif()
  if(NOT lines MATCHES "${EXPECTED}")
    message(FATAL_ERROR "rank ${r}'s line does not match '${EXPECTED}':\n${lines}")
  endif()
endforeach()
message(STATUS "exit ${rc}; ${lines}")
