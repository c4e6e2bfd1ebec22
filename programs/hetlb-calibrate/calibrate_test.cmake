# Calibrates 3 ranks with the example kernel library, then plans a scatter on the result.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${MPIRUN} --allow-run-as-root --oversubscribe -np 3 ${BIN}/hetlb-calibrate
                        --output ${WORK}/cal.json --kernel ${KERNEL} --sizes 100 200 400 --comm-sizes 100 1000 10000
                        --max-seconds-per-point 0.3 --items 5000
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hetlb-calibrate failed (${rc})\n${out}\n${err}")
endif()
file(READ ${WORK}/cal.json json)
string(JSON timed GET "${json}" calibration items_timed)
if(NOT timed MATCHES "random item of 0\\.\\.5000")
  message(FATAL_ERROR "with --items 5000 the timings should sample items 0..4999, the file says: ${timed}")
endif()
string(JSON n LENGTH "${json}" processors)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "expected 3 processors, got ${n}:\n${json}")
endif()
foreach(i 0 1 2)
  string(JSON slope GET "${json}" processors ${i} compute per_item)
  if(NOT slope GREATER 0)
    message(FATAL_ERROR "processor ${i}: compute per_item ${slope}, expected > 0")
  endif()
endforeach()
execute_process(COMMAND ${BIN}/hetlb scatter ${WORK}/cal.json --format json
                RESULT_VARIABLE rc OUTPUT_VARIABLE plan ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hetlb scatter refused the calibrated platform: ${err}")
endif()
string(JSON items GET "${plan}" items)
if(NOT items EQUAL 5000)
  message(FATAL_ERROR "unexpected plan: ${plan}")
endif()
message(STATUS "${out}")

# The same through the command line: hetlb calibrate -n 2 -- ...
execute_process(COMMAND ${BIN}/hetlb calibrate -n 2 -- --output ${WORK}/cal2.json --sizes 100 200 --comm-sizes 100 1000
                        --max-seconds-per-point 0.2 --model table
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hetlb calibrate failed (${rc})\n${out}\n${err}")
endif()
file(READ ${WORK}/cal2.json json)
string(JSON n LENGTH "${json}" processors 1 compute table)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected a 2-point table model:\n${json}")
endif()
# Without --items the file still says how many items to plan (largest --sizes x ranks), so that
# hetlb scatter takes it as it is.
string(JSON items GET "${json}" items)
if(NOT items EQUAL 400)
  message(FATAL_ERROR "expected items = 400 (200 x 2 ranks) by default:\n${json}")
endif()
execute_process(COMMAND ${BIN}/hetlb scatter ${WORK}/cal2.json --format json RESULT_VARIABLE rc OUTPUT_VARIABLE plan ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hetlb scatter refused the calibration without --items: ${err}")
endif()
