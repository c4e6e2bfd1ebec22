# cmake -DA="cmd|args" -DB="cmd|args" -P same_metrics.cmake: both commands print `--format json`; passes
# when every metric of the run (not the strategy's name or the wall-clock figures) is the same text.
cmake_minimum_required(VERSION 3.20)
foreach(which A B)
  string(REPLACE "|" ";" command "${${which}}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out_${which} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${${which}}: exit ${rc}\n${err}")
  endif()
endforeach()
foreach(key converged converged_nodes avg_convergence_date max_convergence_date data_transfer_amount data_messages
            ctrl_messages computing_iterations balancing_iterations final_loads simulated_time)
  string(JSON a GET "${out_A}" ${key})
  string(JSON b GET "${out_B}" ${key})
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${key}: ${a} (built in) against ${b} (plug-in)")
  endif()
  message(STATUS "${key}: ${a}")
endforeach()
