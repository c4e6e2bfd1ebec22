# Tests of the diffusion runtime through hetlb-diffuse under mpirun (oversubscribed, always with a
# TIMEOUT: a hang fails) and under SMPI. Kept short: tens of items per rank, periods of milliseconds.
set(diffuse_mpirun ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe ${MPIEXEC_NUMPROC_FLAG})
find_program(HETLB_TIMEOUT timeout REQUIRED)
set(diffuse_data ${CMAKE_CURRENT_BINARY_DIR}/testdata)
# The papers' model (--balance load: equal load units, every rank alike); the runtime's default, time, is
# tested by the work, SMPI and unlike-rank tests below.
set(diffuse_fast --load-per-node 40 --iterations 8 --min-lb-iter 0.002 --min-comp-iter 0.0005 --ratio 0.001
  --time-limit 20 --format json --balance load)

function(diffuse_test_properties name timeout)
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} LABELS "mpi;diffusion")
  if(HETLB_SANITIZE)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endfunction()

# A run that must end converged with every item id exactly once and every payload intact.
function(diffuse_test name np)
  string(REPLACE ";" "|" command "${diffuse_mpirun};${np};$<TARGET_FILE:hetlb-diffuse>;${diffuse_fast};${ARGN}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" ${DIFFUSE_CHECK_ARGS}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run.cmake)
  diffuse_test_properties(${name} 60)
endfunction()

# Random connected graphs (a random spanning tree plus random chords), and initial-load files.
function(diffuse_random_graph path n seed)
  string(RANDOM LENGTH 1 RANDOM_SEED ${seed} unused)
  set(edges "")
  set(pairs "")
  math(EXPR last "${n} - 1")
  foreach(v RANGE 1 ${last})
    string(RANDOM LENGTH 4 ALPHABET 0123456789 r)
    math(EXPR u "${r} % ${v}")
    list(APPEND pairs "${u} ${v}")
  endforeach()
  foreach(c RANGE 1 ${n})
    string(RANDOM LENGTH 4 ALPHABET 0123456789 a)
    string(RANDOM LENGTH 4 ALPHABET 0123456789 b)
    math(EXPR u "${a} % ${n}")
    math(EXPR v "${b} % ${n}")
    if(u LESS v AND NOT "${u} ${v}" IN_LIST pairs)
      list(APPEND pairs "${u} ${v}")
    endif()
  endforeach()
  foreach(p IN LISTS pairs)
    string(REPLACE " " ";" uv "${p}")
    list(GET uv 0 u)
    list(GET uv 1 v)
    string(APPEND edges "${u} ${v}\n${v} ${u}\n")
  endforeach()
  file(WRITE ${path} "# random connected graph, ${n} nodes, seed ${seed}\n${edges}")
endfunction()
diffuse_random_graph(${diffuse_data}/random-6.edges 6 11)
diffuse_random_graph(${diffuse_data}/random-10.edges 10 12)
diffuse_random_graph(${diffuse_data}/random-16.edges 16 13)
file(WRITE ${diffuse_data}/half-empty-6.loads "0 600 0 0 600 0\n")
file(WRITE ${diffuse_data}/last-holds-all-5.loads "0 0 0 0 200\n")
file(WRITE ${diffuse_data}/asymmetric.edges "0 1\n1 0\n1 2\n2 1\n2 3\n")
file(WRITE ${diffuse_data}/out-of-range.edges "0 1\n1 0\n1 2\n2 1\n2 7\n7 2\n")
file(WRITE ${diffuse_data}/one-item-4.loads "1 0 0 0\n")
file(WRITE ${diffuse_data}/three-items-4.loads "2 1 0 0\n")

diffuse_test(diffuse_np2_line_calls 2 --topology line)
# Integer load: within 1% of the average needs whole items, so at least 100 items per rank.
diffuse_test(diffuse_np3_ring_thread_integer 3 --topology ring --progress thread --integer --load-per-node 200)
diffuse_test(diffuse_np4_torus_makhoul_calls 4 --topology torus --strategy makhoul)
diffuse_test(diffuse_np4_complete_simple_thread 4 --topology complete --strategy simple --progress thread)
diffuse_test(diffuse_np8_hypercube_virtual_integer 8 --topology hypercube --virtual-load --integer --k 2
  --load-per-node 200)
diffuse_test(diffuse_np8_hypercube_virtual_thread 8 --topology hypercube --virtual-load --progress thread)
diffuse_test(diffuse_np6_random_graph_calls 6 --topology ${diffuse_data}/random-6.edges --initial random --seed 3)
diffuse_test(diffuse_np10_random_graph_thread_integer 10 --topology ${diffuse_data}/random-10.edges --initial random
  --seed 4 --progress thread --integer --load-per-node 200)
diffuse_test(diffuse_np16_random_graph_calls 16 --topology ${diffuse_data}/random-16.edges --initial random --seed 5
  --load-per-node 20)
diffuse_test(diffuse_np16_torus_thread_integer 16 --topology torus --progress thread --integer --load-per-node 200)
diffuse_test(diffuse_np6_empty_ranks 6 --topology ring --initial ${diffuse_data}/half-empty-6.loads)
diffuse_test(diffuse_np6_empty_ranks_integer_thread 6 --topology ring --initial ${diffuse_data}/half-empty-6.loads
  --integer --progress thread)
diffuse_test(diffuse_np5_last_rank_holds_all_thread 5 --topology line --initial ${diffuse_data}/last-holds-all-5.loads
  --progress thread)
diffuse_test(diffuse_np4_seismic_kernel 4 --topology ring --kernel seismic --item-bytes 200)
# Application-owned items moved through pack/unpack callbacks.
diffuse_test(diffuse_np5_app_items_calls 5 --topology line --app-items --item-bytes 100)
diffuse_test(diffuse_np4_app_items_thread_integer 4 --topology torus --app-items --progress thread --integer
  --load-per-node 200)
set(DIFFUSE_CHECK_ARGS -DCONVERGED=any)
diffuse_test(diffuse_np4_stop_calls 4 --topology ring --iterations 1000000 --stop-after 0.3)
diffuse_test(diffuse_np4_stop_thread 4 --topology torus --iterations 1000000 --stop-after 0.3 --progress thread)
# Fewer items than ranks (ranks holding load but never an item): converged, no time limit needed (they
# ran forever).
diffuse_test(diffuse_np4_one_item 4 --initial ${diffuse_data}/one-item-4.loads --time-limit 0)
diffuse_test(diffuse_np4_three_items_thread 4 --initial ${diffuse_data}/three-items-4.loads --time-limit 0
  --progress thread)
# The time limit on the clock: a balancing period past the limit no longer delays the end (it ended
# after the period, 50 s); the windows of slowdowns end (the factor held past its window's end).
set(DIFFUSE_CHECK_ARGS -DCONVERGED=any)
diffuse_test(diffuse_np4_time_limit_before_period 4 --iterations 1000000 --min-lb-iter 50 --time-limit 1)
set_tests_properties(diffuse_np4_time_limit_before_period PROPERTIES TIMEOUT 20)
diffuse_test(diffuse_np4_slowdown_window_ends 4 --ratio 1 --slowdown 1:1e6:0:0.3)
set_tests_properties(diffuse_np4_slowdown_window_ends PROPERTIES TIMEOUT 20)
set(DIFFUSE_CHECK_ARGS "-DNOTICE=MPI_THREAD_MULTIPLE is not provided on every rank; running in progress\\(\\) mode")
diffuse_test(diffuse_np3_thread_unavailable_falls_back 3 --topology ring --progress thread --thread-level funneled)
unset(DIFFUSE_CHECK_ARGS)

# Unlike ranks (emulated by waiting) and fixed work, bulk-synchronous: every item processed exactly
# --work times (verify), the --work fields reported; balanced by time with given speeds the final items
# are the speed-proportional shares.
set(diffuse_work --work 40 --ratio 0.02 --min-lb-iter 0.002 --time-limit 30 --format json)
function(diffuse_work_test name np)
  string(REPLACE ";" "|" command "${diffuse_mpirun};${np};$<TARGET_FILE:hetlb-diffuse>;${diffuse_work};${ARGN}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" -DCONVERGED=any -DWORK=ON ${DIFFUSE_CHECK_ARGS}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run.cmake)
  diffuse_test_properties(${name} 60)
endfunction()
diffuse_work_test(diffuse_np4_work_time_measured_calls 4 --speeds 1,1,2,4 --balance time --initial single
  --load-per-node 30)
diffuse_work_test(diffuse_np4_work_load_thread 4 --speeds 1,1,2,4 --balance load --initial random --progress thread
  --load-per-node 30)
diffuse_work_test(diffuse_np4_work_slowdown_integer 4 --balance time --integer --initial random --slowdown 1:4:0.01:0.05
  --slowdown 1:2:0.06:0.08 --load-per-node 30)
diffuse_work_test(diffuse_np4_work_app_items_thread 4 --speeds 1,2,2,4 --balance time --app-items --item-bytes 100
  --progress thread --initial random --load-per-node 30)
# hetlb-calibrate's platform file as it is (4 processors: speeds 1 / 0.001, 1 / 0.002, ...).
diffuse_work_test(diffuse_np4_work_calibrate_file 4 --speeds ${PROJECT_SOURCE_DIR}/programs/hetlb-calibrate/calibrate-4.json
  --balance time --speed-source given --load-per-node 30)
# --balancer: global steps from a single loaded rank with the default (hybrid) and global, none with diffusion.
set(DIFFUSE_CHECK_ARGS -DGLOBAL_STEPS=some)
diffuse_work_test(diffuse_np4_work_balancer_global 4 --speeds 1,1,2,4 --balance time --initial single
  --load-per-node 30 --balancer global)
diffuse_work_test(diffuse_np4_work_balancer_default 4 --speeds 1,1,2,4 --balance time --initial single
  --load-per-node 30)
set(DIFFUSE_CHECK_ARGS -DGLOBAL_STEPS=none)
diffuse_work_test(diffuse_np4_work_balancer_diffusion 4 --speeds 1,1,2,4 --balance time --initial single
  --load-per-node 30 --balancer diffusion)
set(DIFFUSE_CHECK_ARGS "-DSHARES=20\;20\;40\;80" -DSHARE_TOLERANCE=15)
diffuse_work_test(diffuse_np4_work_time_given_shares 4 --speeds 1,1,2,4 --balance time --speed-source given
  --initial random --load-per-node 40 --work 200 --integer)
unset(DIFFUSE_CHECK_ARGS)
# The iteration-time imbalance figure (gnuplot, through src/plot's render()).
find_program(HETLB_DIFFUSE_GNUPLOT gnuplot)
if(HETLB_DIFFUSE_GNUPLOT)
  set(DIFFUSE_CHECK_ARGS -DFIGURE=${diffuse_data}/work-imbalance.svg)
  diffuse_work_test(diffuse_np4_work_plot 4 --speeds 1,1,2,4 --balance time --plot ${diffuse_data}/work-imbalance.svg)
  unset(DIFFUSE_CHECK_ARGS)
endif()
# Asynchronous, balanced by time with given speeds: converged at the speed-proportional shares. Integer
# runs may stop |x_i - share_i| < s_i 2 D / s_min items from their share (docs/simulation.md, "Balancing
# by time"): 1,000 items a node make that band narrower than the 1% of the convergence test.
set(DIFFUSE_CHECK_ARGS "-DSHARES=500\;500\;1000\;2000" -DSHARE_TOLERANCE=20)
diffuse_test(diffuse_np4_async_time_given_integer 4 --balance time --speeds 1,1,2,4 --speed-source given --integer
  --load-per-node 1000)
unset(DIFFUSE_CHECK_ARGS)
# The bulk-synchronous mode in the convergence runs too.
diffuse_test(diffuse_np5_bsp_ring_calls 5 --mode bsp --topology ring)
diffuse_test(diffuse_np4_bsp_torus_thread_integer 4 --mode bsp --progress thread --integer --load-per-node 200)

# Bad input: the same error on every rank, exactly one line (rank 0's), non-zero exit, no hang.
function(diffuse_error_test name np expected)
  string(REPLACE ";" "|" command "${diffuse_mpirun};${np};$<TARGET_FILE:hetlb-diffuse>;${ARGN}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" "-DEXPECTED=${expected}"
    -DPREFIX=hetlb-diffuse: -P ${PROJECT_SOURCE_DIR}/tests/expect_error.cmake)
  diffuse_test_properties(${name} 60)
endfunction()
diffuse_error_test(diffuse_error_unknown_strategy 3 "strategy \"fastest\": unknown" --strategy fastest)
diffuse_error_test(diffuse_error_k_below_1 3 "k = 0.5: expected k >= 1" --k 0.5)
diffuse_error_test(diffuse_error_item_size_0 3 "item size 0: expected items of at least 1 byte" --item-bytes 0
  --topology ring)
# An item of 1e306 flops never finished (the run ignored its time limit); 1e300 items per node were
# converted to counts (undefined behaviour); a negative time limit meant none.
diffuse_error_test(diffuse_error_ratio_huge 2 "--ratio 1e.300: expected a positive ratio of at most 1e.06" --ratio 1e300)
diffuse_error_test(diffuse_error_min_lb_iter_nan 2 "--min-lb-iter nan: expected a non-negative number of seconds"
  --min-lb-iter nan)
diffuse_error_test(diffuse_error_min_comp_iter_nan 2 "--min-comp-iter nan: expected a non-negative number of seconds"
  --min-comp-iter nan)
diffuse_error_test(diffuse_error_ratio_0 2 "--ratio 0: expected a positive ratio" --ratio 0)
# Values past which a run outlasts its time limit (docs/limits.md).
diffuse_error_test(diffuse_error_min_lb_iter_huge 2 "--min-lb-iter 1e.300: expected a non-negative number of seconds, at most 60"
  --min-lb-iter 1e300)
diffuse_error_test(diffuse_error_min_comp_iter_huge 2 "--min-comp-iter 61: expected a non-negative number of seconds, at most 60"
  --min-comp-iter 61)
diffuse_error_test(diffuse_error_slowdown_factor_huge 4 "--slowdown 1:1e308:0:1: factor 1e308: expected a finite factor > 0, at most 1e.06"
  --slowdown 1:1e308:0:1)
# One rank failing after the option agreement (rank 0 cannot hold its items in a 400 MB address space):
# the job ends with its one line (the others waited in start() forever).
string(REPLACE ";" " " mpirun_words "${diffuse_mpirun}")
if(NOT HETLB_SANITIZE)  # ulimit -v leaves AddressSanitizer no room for its shadow memory
  add_test(NAME diffuse_one_rank_fails_after_agreement COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=sh|-c|ulimit -v 400000 && exec ${HETLB_TIMEOUT} 30 ${mpirun_words} 4 $<TARGET_FILE:hetlb-diffuse> --item-bytes 10000000 --load-per-node 20"
    "-DEXPECTED=rank 0: std::bad_alloc; ending the job" -DPREFIX=hetlb-diffuse: -P ${PROJECT_SOURCE_DIR}/tests/expect_error.cmake)
  diffuse_test_properties(diffuse_one_rank_fails_after_agreement 40)
endif()
# A strategy decision that never returns: the job ends past the time limit, with one line per rank caught.
add_test(NAME diffuse_time_limit_decision_never_returns COMMAND ${HETLB_TIMEOUT} 30 ${diffuse_mpirun} 4
  $<TARGET_FILE:hetlb-diffuse> --strategy plugin:${CMAKE_BINARY_DIR}/plugins/libhetlb_strategy_faulty_8.so
  --time-limit 1 --load-per-node 10)
diffuse_test_properties(diffuse_time_limit_decision_never_returns 40)
set_tests_properties(diffuse_time_limit_decision_never_returns PROPERTIES
  PASS_REGULAR_EXPRESSION "hetlb-diffuse: rank [0-9]: still running 5 s after the --time-limit of 1 s")
add_dependencies(hetlb-diffuse hetlb_strategy_faulty_8)
# A negative seed was wrapped to 2^64 - 5 and ran; counts past their type were saturated and ran.
diffuse_error_test(diffuse_error_negative_seed 2 "--seed: value -5: expected a whole number from 0 to" --seed -5)
diffuse_error_test(diffuse_error_iterations_past_type 2
  "--iterations: value 99999999999999999999999: expected a whole number from 1 to" --iterations 99999999999999999999999)
diffuse_error_test(diffuse_error_item_bytes_past_type 2
  "--item-bytes: value 99999999999999999999999: expected a whole number" --item-bytes 99999999999999999999999)
diffuse_error_test(diffuse_error_unknown_option 2 "not expected: 1 --bogus \\(see hetlb-diffuse --help\\)" --bogus 1)
diffuse_error_test(diffuse_error_items_beyond_memory 2 "2e.300 items of 64 bytes in all: expected at most"
  --load-per-node 1e300 --topology line)
diffuse_error_test(diffuse_error_item_bytes_huge 2 "--item-bytes 100000000000: expected at most 1073741824"
  --item-bytes 100000000000 --topology line)
diffuse_error_test(diffuse_error_negative_time_limit 2 "--time-limit -1: expected a non-negative number"
  --time-limit -1 --topology line)
diffuse_error_test(diffuse_error_hypercube_of_12 12 "hypercube" --topology hypercube)
diffuse_error_test(diffuse_error_speed_zero 4 "--speeds 1,0,2,4: speed 0 of rank 1: expected a finite speed > 0"
  --speeds 1,0,2,4)
diffuse_error_test(diffuse_error_speed_negative 4 "--speeds 1,1,-2,4: speed -2 of rank 2" --speeds 1,1,-2,4)
diffuse_error_test(diffuse_error_speed_nan 4 "--speeds 1,nan,2,4: speed nan of rank 1" --speeds 1,nan,2,4)
diffuse_error_test(diffuse_error_speed_inf 4 "--speeds 1,1,2,inf: speed inf of rank 3" --speeds 1,1,2,inf)
diffuse_error_test(diffuse_error_speeds_length 4 "--speeds 1,2,4: 3 speeds for 4 ranks; expected one speed per rank"
  --speeds 1,2,4)
diffuse_error_test(diffuse_error_speeds_file_length 2 "calibrate-4.json: 4 speeds for 2 ranks"
  --speeds ${PROJECT_SOURCE_DIR}/programs/hetlb-calibrate/calibrate-4.json)
diffuse_error_test(diffuse_error_slowdown_rank 4 "--slowdown 4:2:0:1: rank 4 out of range; expected 0 to 3"
  --slowdown 4:2:0:1)
diffuse_error_test(diffuse_error_slowdown_factor 4 "--slowdown 1:0:0:1: factor 0: expected a finite factor > 0"
  --slowdown 1:0:0:1)
diffuse_error_test(diffuse_error_slowdown_order 4 "--slowdown 1:2:3:1: end 1 before its start 3" --slowdown 1:2:3:1)
diffuse_error_test(diffuse_error_slowdown_overlap 4 "--slowdown: intervals 0-2 s and 1-3 s of rank 1 overlap"
  --slowdown 1:2:0:2 --slowdown 1:3:1:3)
diffuse_error_test(diffuse_error_plot_extension 2 "--plot .fig.pdf.: unknown figure format" --work 5 --plot fig.pdf)
# The simulated host's speed exists only under SMPI: refused on every rank elsewhere.
diffuse_error_test(diffuse_error_speed_source_host 3 "--speed-source host: expected the SMPI build"
  --speed-source host --balance time)
diffuse_error_test(diffuse_error_work_async 4 "--work with --mode async: expected --mode bsp" --work 5 --mode async)
diffuse_error_test(diffuse_error_asymmetric_edges 4 "asymmetric.edges" --topology ${diffuse_data}/asymmetric.edges)
diffuse_error_test(diffuse_error_edge_out_of_range 4 "out-of-range.edges" --topology ${diffuse_data}/out-of-range.edges)
diffuse_error_test(diffuse_error_initial_load_length 4 "half-empty-6.loads"
  --initial ${diffuse_data}/half-empty-6.loads)

# Ranks started with different options (issue 31): one class of option per test, each rank names it,
# the job ends at once (it span forever, crashed, or exited 0 before the agreement check).
set(diffuse_base --load-per-node 10 --time-limit 5 --topology ring)
function(diffuse_mismatch_test option A args_a B args_b expected)
  hetlb_option_mismatch_test(diffuse_options_differ_${option} hetlb-diffuse ${A} "${diffuse_base};${args_a}"
    ${B} "${diffuse_base};${args_b}" "${expected}")
endfunction()
diffuse_mismatch_test(topology 2 "--topology;ring" 2 "--topology;line"
  "--topology differs between ranks: \"ring\" on ranks 0-1, \"line\" on ranks 2-3")
diffuse_mismatch_test(app_items 1 "--app-items" 2 "" "--app-items differs between ranks: \"true\" on rank 0, \"false\" on ranks 1-2")
diffuse_mismatch_test(initial 1 "--initial;random" 1 "" "--initial differs between ranks: \"random\" on rank 0, \"single\" on rank 1")
diffuse_mismatch_test(item_bytes 2 "--item-bytes;64" 1 "--item-bytes;128" "--item-bytes differs between ranks: \"64\" on ranks 0-1, \"128\" on rank 2")
diffuse_mismatch_test(kernel 1 "--kernel;seismic" 1 "--kernel;synthetic" "--kernel differs between ranks")
diffuse_mismatch_test(iterations 1 "--iterations;5" 3 "--iterations;6" "--iterations differs between ranks: \"5\" on rank 0, \"6\" on ranks 1-3")
diffuse_mismatch_test(load_per_node 1 "--load-per-node;10" 1 "--load-per-node;20" "--load-per-node differs between ranks")
diffuse_mismatch_test(strategy 1 "--strategy;simple" 1 "--strategy;besteffort" "--strategy differs between ranks")
diffuse_mismatch_test(integer 1 "" 1 "--integer" "--integer differs between ranks: \"false\" on rank 0, \"true\" on rank 1")
diffuse_mismatch_test(speed_source 1 "--speed-source;measured" 2 "--speed-source;host"
  "--speed-source differs between ranks: \"measured\" on rank 0, \"host\" on ranks 1-2")
diffuse_mismatch_test(k 1 "--k;2" 1 "--k;1" "--k differs between ranks: \"2\" on rank 0, \"1\" on rank 1")
# A command line that one rank cannot read: the others stop too (they waited in the check forever).
diffuse_mismatch_test(unreadable 1 "" 1 "--k;abc" "some ranks could not read their command line")
# Several differ: the first is named with its values, the others listed.
diffuse_mismatch_test(several 1 "--seed;3;--ratio;0.002;--virtual-load" 1 ""
  "--virtual-load differs between ranks: .* \\(also differing: --seed, --ratio\\)")

# Under SMPI: the same program on the simulator's cluster (`hetlb diffusion-platform`, bandwidths
# scaled so that an item of 125 bytes costs the simulator's load unit), against `hetlb simulate
# diffusion` on the unscaled cluster (whose load unit is 125,000 bytes). Three configurations must agree
# within 20% on the last convergence date and the data transfer amount. MPI_Iprobe costs SMPI's constant
# 0.1 ms (smpi/grow-injected-times:no): SMPI's default makes every failed probe cost more than the last
# and stretched the computation of a polling rank 7-fold (docs/validation.md).
# Item costs (--costs FILE, one per id): every 4th item costs 10; the run must converge on the sums of
# costs with every item checked. Bad files: one line, exit 2, on every rank.
set(diffuse_costs "")
foreach(id RANGE 159)
  math(EXPR r "${id} % 4")
  if(r EQUAL 0)
    string(APPEND diffuse_costs "10\n")
  else()
    string(APPEND diffuse_costs "1\n")
  endif()
endforeach()
file(WRITE ${diffuse_data}/costs-160.txt "${diffuse_costs}")
file(WRITE ${diffuse_data}/costs-3.txt "1 2 3\n")
file(WRITE ${diffuse_data}/costs-zero.json "[1, 0, 1, 1, 1, 1, 1, 1]\n")
diffuse_test(diffuse_np4_bsp_costs 4 --mode bsp --costs ${diffuse_data}/costs-160.txt)
diffuse_test(diffuse_np4_async_costs_app_items 4 --app-items --costs ${diffuse_data}/costs-160.txt)
diffuse_error_test(diffuse_error_costs_count 2 "--costs .*costs-3.txt: 3 costs for 80 items: expected one per item"
  --costs ${diffuse_data}/costs-3.txt --load-per-node 40 --topology line)
diffuse_error_test(diffuse_error_costs_zero 2 "--costs .*costs-zero.json: item 1: cost 0: expected a finite cost > 0"
  --costs ${diffuse_data}/costs-zero.json --load-per-node 4 --topology line)
diffuse_error_test(diffuse_error_costs_missing 2 "--costs: .*no-such-costs.txt" --costs ${diffuse_data}/no-such-costs.txt
  --topology line)

if(HETLB_DIFFUSE_SMPI AND TARGET hetlb)
  set(smpi_dir ${CMAKE_CURRENT_BINARY_DIR}/smpi)
  set(smpi_cfg --cfg=smpi/simulate-computation:no --cfg=network/model:LV08 --cfg=smpi/grow-injected-times:no
    --log=root.thresh:error
    --log=xbt_cfg.thresh:error --log=smpi.thresh:error)
  foreach(N 16 64 256)
    add_test(NAME smpi_diffuse_platform_${N} COMMAND $<TARGET_FILE:hetlb> diffusion-platform cluster --nodes ${N}
      --unit-bytes 125 -o ${smpi_dir}/cluster-${N}.xml --hostfile ${smpi_dir}/cluster-${N}.hosts)
    set_tests_properties(smpi_diffuse_platform_${N} PROPERTIES FIXTURES_SETUP smpi_diffuse_${N} TIMEOUT 30
      LABELS "smpi;diffusion")
  endforeach()
  # The study's Grid'5000 subset, scaled the same way.
  add_test(NAME smpi_diffuse_platform_grid_16 COMMAND $<TARGET_FILE:hetlb> diffusion-platform grid --nodes 16
    --unit-bytes 125 -o ${smpi_dir}/grid-16.xml --hostfile ${smpi_dir}/grid-16.hosts)
  set_tests_properties(smpi_diffuse_platform_grid_16 PROPERTIES FIXTURES_SETUP smpi_diffuse_grid_16 TIMEOUT 30
    LABELS "smpi;diffusion")
  file(MAKE_DIRECTORY ${smpi_dir})
  # An SMPI run (conservation, ids, payloads) at N ranks.
  function(diffuse_smpi_test name N)
    string(REPLACE ";" "|" command "${HETLB_DIFFUSE_SMPIRUN};-np;${N};-platform;${smpi_dir}/cluster-${N}.xml;-hostfile;${smpi_dir}/cluster-${N}.hosts;${smpi_cfg};$<TARGET_FILE:hetlb-diffuse-smpi>;--item-bytes;117;--ratio;1;--format;json;--time-limit;0;${ARGN}")
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run.cmake)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED smpi_diffuse_${N} TIMEOUT 300 LABELS "smpi;diffusion")
  endfunction()
  diffuse_smpi_test(smpi_diffuse_np64_torus_random 64 --topology torus --initial random --load-per-node 100 --iterations 20)
  # 256 ranks to convergence: about 8 s here (hours while the termination waves were SMPI's all-to-all
  # MPI_Iallreduce; src/mpi/diffusion/tree_sum.hpp).
  diffuse_smpi_test(smpi_diffuse_np256_torus_random 256 --topology torus --initial random --load-per-node 100 --iterations 20)

  # Simulator vs SMPI, 16 ranks, on the cluster and on the Grid'5000 subset.
  function(diffuse_validation_test name platform N topology strategy initial)
    set(common --topology;${topology};--strategy;${strategy};--initial;${initial};--iterations;30;--ratio;1;--seed;1;--format;json;--balance;load;${ARGN})
    # The simulator with staggered balancing phases: the ranks' balancing spreads over the period.
    string(REPLACE ";" "|" sim "$<TARGET_FILE:hetlb>;simulate;diffusion;--platform;${platform};--nodes;${N};--lb-phase;staggered;${common}")
    string(REPLACE ";" "|" mpi "${HETLB_DIFFUSE_SMPIRUN};-np;${N};-platform;${smpi_dir}/${platform}-${N}.xml;-hostfile;${smpi_dir}/${platform}-${N}.hosts;${smpi_cfg};$<TARGET_FILE:hetlb-diffuse-smpi>;--item-bytes;117;--load-per-node;1000;--time-limit;0;${common}")
    set(fixture smpi_diffuse_${N})
    if(NOT platform STREQUAL "cluster")
      set(fixture smpi_diffuse_${platform}_${N})
    endif()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DSIM=${sim}" "-DMPI=${mpi}" -DTOLERANCE=0.2
      -P ${CMAKE_CURRENT_SOURCE_DIR}/compare_sim.cmake)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED ${fixture} TIMEOUT 120 LABELS "smpi;diffusion")
  endfunction()
  diffuse_validation_test(smpi_diffuse_vs_simulator_torus_besteffort cluster 16 torus besteffort single)
  diffuse_validation_test(smpi_diffuse_vs_simulator_hypercube_makhoul cluster 16 hypercube makhoul random)
  diffuse_validation_test(smpi_diffuse_vs_simulator_torus_virtual cluster 16 torus besteffort random --virtual-load)
  diffuse_validation_test(smpi_diffuse_vs_simulator_grid_torus_besteffort grid 16 torus besteffort random)

  # Balancing by time on the real Grid'5000 subset (its hosts' speeds, 4.7 to 27.4 Gflop/s at 16 nodes):
  # hetlb-diffuse --balance time against `hetlb simulate diffusion --platform grid-real --balance time`
  # (staggered phases), two of the 14 configurations of programs/hetlb-diffuse/validate_time.sh within 20% on the
  # last convergence date and the data moved. SOURCE host: each rank is told its simulated host's speed;
  # measured: the runtime estimates it from the kernel's seconds (at ratio 0.1 the time between
  # iteration_done() calls, polls included, kept it from converging).
  add_test(NAME smpi_diffuse_platform_grid_real_16 COMMAND $<TARGET_FILE:hetlb> diffusion-platform grid-real --nodes 16
    --unit-bytes 125 -o ${smpi_dir}/grid-real-16.xml --hostfile ${smpi_dir}/grid-real-16.hosts)
  set_tests_properties(smpi_diffuse_platform_grid_real_16 PROPERTIES FIXTURES_SETUP smpi_diffuse_grid_real_16 TIMEOUT 30
    LABELS "smpi;diffusion")
  function(diffuse_time_validation_test name source topology strategy initial ratio)
    set(common --topology;${topology};--strategy;${strategy};--k;1;--initial;${initial};--iterations;30;--ratio;${ratio};--seed;1;--balance;time;--format;json)
    string(REPLACE ";" "|" sim "$<TARGET_FILE:hetlb>;simulate;diffusion;--platform;grid-real;--nodes;16;--lb-phase;staggered;${common}")
    string(REPLACE ";" "|" mpi "${HETLB_DIFFUSE_SMPIRUN};-np;16;-platform;${smpi_dir}/grid-real-16.xml;-hostfile;${smpi_dir}/grid-real-16.hosts;${smpi_cfg};$<TARGET_FILE:hetlb-diffuse-smpi>;--item-bytes;117;--load-per-node;1000;--time-limit;0;--speed-source;${source};${common}")
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DSIM=${sim}" "-DMPI=${mpi}" -DTOLERANCE=0.2
      -P ${CMAKE_CURRENT_SOURCE_DIR}/compare_sim.cmake)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED smpi_diffuse_grid_real_16 TIMEOUT 120 LABELS "smpi;diffusion")
  endfunction()
  diffuse_time_validation_test(smpi_diffuse_time_vs_simulator_torus_besteffort host torus besteffort random 1)
  diffuse_time_validation_test(smpi_diffuse_time_vs_simulator_torus_makhoul host torus makhoul random 10)
  diffuse_time_validation_test(smpi_diffuse_time_measured_vs_simulator_hypercube measured hypercube besteffort random 0.1)
  # Whole items on unlike hosts, speeds measured, the default balancer: after the global steps every
  # rank is within its band (within the items' granularity of its share: a 1% band around a share of 7
  # items cannot be met by whole items), so the run converges and the agreements back off. Every rank
  # then within the margin of its share, diffusion announces nothing: the 128 control messages are the
  # load reports the balancer global sends too (the hybrid sent 200 when it still decided there).
  string(REPLACE ";" "|" command "${HETLB_DIFFUSE_SMPIRUN};-np;16;-platform;${smpi_dir}/grid-real-16.xml;-hostfile;${smpi_dir}/grid-real-16.hosts;${smpi_cfg};$<TARGET_FILE:hetlb-diffuse-smpi>;--item-bytes;1024;--ratio;1000;--format;json;--time-limit;0;--balance;time;--load-per-node;20;--work;40;--initial;random")
  add_test(NAME smpi_diffuse_work_hybrid_grid_real_16 COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" -DCONVERGED=true
    -DWORK=ON -DGLOBAL_STEPS=some -DMAX_CTRL_MESSAGES=128 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run.cmake)
  set_tests_properties(smpi_diffuse_work_hybrid_grid_real_16 PROPERTIES FIXTURES_REQUIRED smpi_diffuse_grid_real_16
    TIMEOUT 120 LABELS "smpi;diffusion")
  # Open MPI's collective algorithms (smpi/coll-selector:ompi, as bench/smpi/balancers.sh uses its
  # all-gather), diffusion alone on 16 ranks: no global step, so no all-reduce of zero steps at the end
  # (SimGrid 3.32's Open MPI all-reduce, a segmented ring from 16 to 63 ranks for a few bytes, divides
  # by the count: the run died of SIGFPE in the metrics).
  string(REPLACE ";" "|" command "${HETLB_DIFFUSE_SMPIRUN};-np;16;-platform;${smpi_dir}/grid-real-16.xml;-hostfile;${smpi_dir}/grid-real-16.hosts;${smpi_cfg};--cfg=smpi/coll-selector:ompi;$<TARGET_FILE:hetlb-diffuse-smpi>;--item-bytes;1024;--ratio;1000;--format;json;--time-limit;0;--balance;time;--load-per-node;5;--work;10;--initial;random;--balancer;diffusion")
  add_test(NAME smpi_diffuse_work_diffusion_ompi_collectives COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}"
    -DCONVERGED=any -DWORK=ON -DGLOBAL_STEPS=none -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run.cmake)
  set_tests_properties(smpi_diffuse_work_diffusion_ompi_collectives PROPERTIES
    FIXTURES_REQUIRED smpi_diffuse_grid_real_16 TIMEOUT 60 LABELS "smpi;diffusion")
  # The hosts' speeds or emulated ones, not both: one line from every rank's agreed error, no hang.
  string(REPLACE ";" "|" command "${HETLB_DIFFUSE_SMPIRUN};-np;4;-platform;${smpi_dir}/grid-real-16.xml;-hostfile;${smpi_dir}/grid-real-16.hosts;${smpi_cfg};$<TARGET_FILE:hetlb-diffuse-smpi>;--balance;time;--speed-source;host;--speeds;1,1,2,4")
  add_test(NAME smpi_diffuse_error_speed_source_host_with_speeds COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}"
    "-DEXPECTED=--speed-source host with --speeds: expected one of them" -DPREFIX=hetlb-diffuse:
    -P ${PROJECT_SOURCE_DIR}/tests/expect_error.cmake)
  set_tests_properties(smpi_diffuse_error_speed_source_host_with_speeds PROPERTIES FIXTURES_REQUIRED smpi_diffuse_grid_real_16
    TIMEOUT 60 LABELS "smpi;diffusion")
endif()
# A device or a number a double cannot hold: one line at once (no endless read of /dev/zero, no
# "not a number" for 1e-308).
diffuse_error_test(diffuse_error_speeds_device 2 "--speeds /dev/zero: is not a regular file" --speeds /dev/zero)
diffuse_error_test(diffuse_error_speeds_subnormal 2 "--speeds 1e-308,1: 1e-308 is out of a double's range"
  --speeds 1e-308,1)
# Items are whole: a fractional load per node says so (it named an --integer nobody gave).
diffuse_error_test(diffuse_error_load_fraction 2 "load per node 0.25: expected a whole number \\(the load counts whole units"
  --load-per-node 0.25)
