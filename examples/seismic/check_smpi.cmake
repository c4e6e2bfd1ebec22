# cmake -DUNIFORM=cmd;... -DHETLB=cmd;... -DREVERSE=cmd;... -P check_smpi.cmake
# Runs hetlb-seismic under smpirun three times (uniform, hetlb decreasing bandwidth, hetlb increasing
# bandwidth). Each must exit 0 (every ray traced exactly once); the simulated makespan of each hetlb run
# must be within 1% of the planner's prediction, and the balanced run must beat the uniform one.
cmake_minimum_required(VERSION 3.20)
foreach(run UNIFORM HETLB REVERSE)
  string(REPLACE "|" ";" command "${${run}}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${run}: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  string(JSON makespan_${run} GET "${out}" makespan)
  if(NOT run STREQUAL "UNIFORM")
    string(JSON predicted_${run} GET "${out}" predicted_makespan)
    set(m ${makespan_${run}})
    set(p ${predicted_${run}})
    # |m - p| <= 1% of p, written with floating comparisons: m <= 1.01 p and m >= 0.99 p.
    execute_process(COMMAND awk "BEGIN { exit !(${m} <= 1.01 * ${p} && ${m} >= 0.99 * ${p}) }" RESULT_VARIABLE close)
    if(NOT close EQUAL 0)
      message(FATAL_ERROR "${run}: simulated makespan ${m} s, planner predicted ${p} s (more than 1% apart)")
    endif()
  endif()
  message(STATUS "${run}: makespan ${makespan_${run}} s")
endforeach()
if(NOT makespan_HETLB LESS makespan_UNIFORM)
  message(FATAL_ERROR "balanced ${makespan_HETLB} s is not faster than uniform ${makespan_UNIFORM} s")
endif()
message(STATUS "uniform ${makespan_UNIFORM} s, hetlb decreasing bandwidth ${makespan_HETLB} s (predicted ${predicted_HETLB}), increasing bandwidth ${makespan_REVERSE} s (predicted ${predicted_REVERSE})")
