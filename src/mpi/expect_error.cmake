# cmake -DCOMMAND="a|b|c" -DEXPECTED=regex -P expect_error.cmake
# Passes when the command exits non-zero and its stderr holds exactly one "hetlb_mpi:" line, matching
# EXPECTED (the one clear line printed by rank 0).
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "hetlb_mpi:" prefixes "${err}")
list(LENGTH prefixes n)
string(REGEX MATCH "hetlb_mpi:[^\n]*" line "${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit, got 0\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected exactly one 'hetlb_mpi:' line on stderr, got ${n}\nstderr:\n${err}")
endif()
if(NOT line MATCHES "${EXPECTED}")
  message(FATAL_ERROR "the error line does not match '${EXPECTED}':\n${line}")
endif()
message(STATUS "exit ${rc}, ${line}")
