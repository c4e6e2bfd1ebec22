# Two calibrations of the same machine must plan alike: COMMAND (a|b|c, ending with the options of
# hetlb-calibrate but --output) runs twice; each file must hold `items` and every point's confidence
# interval; hetlb-calibration-compare then requires the two plans' makespans, each evaluated under
# either calibration, to differ by less than 5%. A shared machine has slow spells longer than a whole
# calibration, so when the two disagree a third runs and must agree with one of them (two of three
# calibrations agree); the test fails when no two do. WARNING, when given, must appear on stderr (the
# oversubscription warning).
#   cmake -DCOMMAND= -DCOMPARE= -DWORK= [-DWARNING=regex] -P calibrate_reproducible_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
string(REPLACE "|" ";" command "${COMMAND}")
function(calibrate run)
  execute_process(COMMAND ${command} --output ${WORK}/${run}.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "calibration ${run} failed (${rc})\n${out}\n${err}")
  endif()
  if(DEFINED WARNING AND NOT err MATCHES "${WARNING}")
    message(FATAL_ERROR "calibration ${run}: no warning matching '${WARNING}' on stderr:\n${err}")
  endif()
  file(READ ${WORK}/${run}.json json)
  string(JSON items ERROR_VARIABLE no_items GET "${json}" items)
  string(JSON ci ERROR_VARIABLE no_ci GET "${json}" processors 1 calibration compute ci95 0)
  string(JSON link_ci ERROR_VARIABLE no_link_ci GET "${json}" processors 1 calibration comm ci95 0)
  if(no_items OR NOT items GREATER 0 OR no_ci OR no_link_ci)
    message(FATAL_ERROR "calibration ${run}: expected items and the confidence intervals in the file:\n${json}")
  endif()
  message(STATUS "calibration ${run}: items ${items}\n${out}")
endfunction()

# Sets `agree` in the caller: the plans of calibrations x and y within 5% of each other.
function(compare x y)
  execute_process(COMMAND ${COMPARE} ${WORK}/${x}.json ${WORK}/${y}.json --tolerance 0.05 RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${x} against ${y}: ${out}${err}")
  if(rc EQUAL 0)
    set(agree TRUE PARENT_SCOPE)
  else()
    set(agree FALSE PARENT_SCOPE)
  endif()
endfunction()

calibrate(a)
calibrate(b)
compare(a b)
if(NOT agree)
  message(STATUS "calibrations a and b plan differently (5% tolerance); a third decides")
  calibrate(c)
  compare(a c)
  if(NOT agree)
    compare(b c)
  endif()
  if(NOT agree)
    message(FATAL_ERROR "no two of three calibrations plan alike (5% tolerance)")
  endif()
endif()
