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

# hetlb_add_test(NAME name SOURCES a.cpp b.cpp [LIBS ...]): a GoogleTest executable next to its feature.
function(hetlb_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS" ${ARGN})
  if(NOT HETLB_BUILD_TESTS)
    return()
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  hetlb_target_options(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} rapidcheck_gtest rapidcheck GTest::gtest GTest::gtest_main)
  target_compile_definitions(${T_NAME} PRIVATE HETLB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    HETLB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  gtest_discover_tests(${T_NAME} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT "RC_PARAMS=seed=1 max_success=300")
endfunction()

# hetlb_test_depends(TEST TARGET...): TEST (a test executable of hetlb_add_test) runs TARGET, so it is
# built first. Nothing when the tests are not built (-DHETLB_BUILD_TESTS=OFF).
function(hetlb_test_depends test)
  if(HETLB_BUILD_TESTS AND TARGET ${test})
    add_dependencies(${test} ${ARGN})
  endif()
endfunction()
