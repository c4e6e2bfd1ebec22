# Warnings as errors on every target of ours; sanitizers when asked.
function(hetlb_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports -Wrestrict falsely inside libstdc++ for std::string concatenation (GCC PR 105329).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(HETLB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# One precompiled header for every GoogleTest program: GoogleTest, rapidcheck, nlohmann-json and the
# standard headers the tests use are parsed once instead of once per test file (about 4 s of the 7 s a
# test file takes to compile). The holder is an executable, so that its flags (-fPIE) are the tests'.
option(HETLB_TEST_PCH "Precompile the test programs' common headers" ON)
# GCC 12 reports -Wstringop-overflow and -Warray-bounds falsely inside libstdc++'s char_traits once the standard headers
# come precompiled (the same family as GCC PR 105329).
# Test programs are compiled at -O1 in Release builds (CMake's -O3 costs them about a third more compile time
# and buys them nothing measured); the precompiled header and its users share the flag.
function(hetlb_test_pch_options target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1>)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-stringop-overflow -Wno-array-bounds)
  endif()
endfunction()
function(hetlb_test_pch)
  if(TARGET hetlb_test_pch)
    return()
  endif()
  set(main ${PROJECT_BINARY_DIR}/hetlb_test_pch_main.cpp)
  if(NOT EXISTS ${main})
    file(WRITE ${main} "int main() { return 0; }\n")
  endif()
  add_executable(hetlb_test_pch ${main})
  hetlb_target_options(hetlb_test_pch)
  hetlb_test_pch_options(hetlb_test_pch)
  target_link_libraries(hetlb_test_pch PRIVATE rapidcheck_gtest rapidcheck GTest::gtest)
  target_compile_definitions(hetlb_test_pch PRIVATE HETLB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    HETLB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  target_precompile_headers(hetlb_test_pch PRIVATE <algorithm> <cmath> <cstdio> <cstdlib> <filesystem>
    <fstream> <functional> <map> <numeric> <set> <sstream> <string> <vector>
    <gtest/gtest.h> <rapidcheck.h> <rapidcheck/gtest.h> <nlohmann/json.hpp>)
endfunction()

# hetlb_add_test(NAME name SOURCES a.cpp b.cpp [LIBS ...] [NO_SANITIZER]): a GoogleTest executable next to
# its feature; NO_SANITIZER leaves it out of the sanitized suite (make test-asan).
function(hetlb_add_test)
  cmake_parse_arguments(T "NO_SANITIZER" "NAME" "SOURCES;LIBS" ${ARGN})
  if(NOT HETLB_BUILD_TESTS)
    return()
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  hetlb_target_options(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} rapidcheck_gtest rapidcheck GTest::gtest GTest::gtest_main)
  target_compile_definitions(${T_NAME} PRIVATE HETLB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    HETLB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  hetlb_test_pch_options(${T_NAME})
  if(HETLB_TEST_PCH)
    hetlb_test_pch()
    target_precompile_headers(${T_NAME} REUSE_FROM hetlb_test_pch)
  endif()
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  # Listed when ctest runs (not after each link): a build does not run every test program once.
  if(HETLB_UNIT_TESTS_SANITIZED_ONLY AND NOT HETLB_SANITIZE AND NOT T_NO_SANITIZER)
    # make test runs it in the sanitized build: built here on demand only, and not listed.
    set_target_properties(${T_NAME} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    return()
  endif()
  set(labels "")
  if(T_NO_SANITIZER)  # the sanitized suite skips it: it checks no code the other tests do not
    set(labels "no-sanitizer")
  endif()
  gtest_discover_tests(${T_NAME} DISCOVERY_TIMEOUT 60 DISCOVERY_MODE PRE_TEST PROPERTIES ENVIRONMENT "RC_PARAMS=seed=1 max_success=300"
    LABELS "${labels}")
endfunction()

# hetlb_test_depends(TEST TARGET...): TEST (a test executable of hetlb_add_test) runs TARGET, so it is
# built first. Nothing when the tests are not built (-DHETLB_BUILD_TESTS=OFF).
function(hetlb_test_depends test)
  if(HETLB_BUILD_TESTS AND TARGET ${test})
    add_dependencies(${test} ${ARGN})
  endif()
endfunction()

# hetlb_unity(TARGET...): with -DHETLB_UNITY=ON (make build and make test), compiled ten sources at a
# time, their common headers parsed once (about half the CPU time of those targets). Only for targets whose
# files give no two local things the same name (in one compile they would clash): the planning core, the
# simulator, the plots, the readers, the campaigns, the MPI library, the command line and hetlb-diffuse;
# plain `cmake` builds (a developer's) compile file by file.
option(HETLB_UNITY "Unity builds of the targets that allow them" OFF)
function(hetlb_unity)
  if(NOT HETLB_UNITY)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 10)
    endif()
  endforeach()
endfunction()

# Every MPI test: a TIMEOUT (never a hang), the label `mpi`. They also run in the sanitizer build, with
# LeakSanitizer off: Open MPI keeps runtime allocations past MPI_Finalize (reported from inside libmpi);
# AddressSanitizer and UBSan stay on. (The programs, examples and tests/mpi use it.)
function(hetlb_mpi_test_properties name timeout)
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} LABELS mpi)
  if(HETLB_SANITIZE)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endfunction()

# Ranks started with different options (MPMD: A ranks with ARGS_A, B ranks with ARGS_B): every rank
# names the option that differs, the job ends non-zero, under a timeout. ARGS_A and ARGS_B are lists.
function(hetlb_option_mismatch_test name program A args_a B args_b expected)
  set(run ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe)
  list(REMOVE_ITEM args_a "")
  list(REMOVE_ITEM args_b "")
  string(REPLACE ";" "|" command
    "${run};-np;${A};$<TARGET_FILE:${program}>;${args_a};:;-np;${B};$<TARGET_FILE:${program}>;${args_b}")
  math(EXPR ranks "${A} + ${B}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" -DPROGRAM=${program} -DRANKS=${ranks}
    "-DEXPECTED=${expected}" -P ${PROJECT_SOURCE_DIR}/tests/expect_option_mismatch.cmake)
  hetlb_mpi_test_properties(${name} 60)
endfunction()
