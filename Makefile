# hetlb: the commands the README tells people to run.
#   make deps   install the Debian packages the project needs (when missing)
#   make build  deps + build the product (the command line is build/bin/hetlb) and the tests make test runs there
#   make test   deps + the whole test suite, each test once: the sanitized build (ASan+UBSan) runs every test it
#               can, the Release build the rest (SMPI, Python, Fortran, install, study checks); a short fuzz run
#   make demo   the command line alone (its own packages and build-demo/) + the three capabilities on embedded
#               defaults, with figures in build/demo/
#   make bench  deps + build + the benchmarks (tables for the README), the perturbed runs and the soak of the
#               diffusion runtime (tests/perturb/)
#   make abi-baseline  record the C ABI of a new release line (tests/abi/), after a version bump
#   make study  deps + build + the diffusion study in the background, in resumable pieces (study/)
#   make study-smoke  the study in miniature (seconds), summary and figures in build/study-smoke
#   make compare-peers  deps + build + the static and dynamic comparisons with Zoltan, resumable (bench/peers/, docs/peers/)
#   make compare-peers-dynamic  the dynamic comparison alone (nice; bench/peers/compare_dynamic.sh)

JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN  ?= build-asan
DEMO_BUILD ?= build-demo
DEMO  ?= $(BUILD)/demo
FUZZ_SECONDS ?= 20
# Ninja when installed (make deps installs it; looked up when a recipe runs, after deps): both cores
# stay busy across targets.
GENERATOR = $(if $(shell command -v ninja 2>/dev/null),-G Ninja,)
# The sanitized build at -O1 with line tables only (the sanitizers' advice; stack traces keep file:line),
# cheaper to compile than -O2 -g.
ASAN_FLAGS := "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
# Unity builds of the targets that allow them (cmake/hetlb_helpers.cmake, hetlb_unity).
UNITY := -DHETLB_UNITY=ON

DEMO_PACKAGES := cmake make ninja-build g++ pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev libglpk-dev \
  libsimgrid-dev libopenmpi-dev openmpi-bin gnuplot-nox
# The study's cluster path on a real scheduler (tests/slurm): a single-machine Slurm that the test starts
# and stops itself, with its own configuration, state and munge key in a temporary directory. 6 packages,
# about 20 s to install; of their services only munge's starts (slurmctld and slurmd wait for an
# /etc/slurm/slurm.conf). Without them the test is skipped.
SLURM_PACKAGES := slurmctld slurmd slurm-client munge
DEB_PACKAGES := cmake make ninja-build g++ clang libclang-rt-14-dev pkg-config \
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev \
  libcli11-dev nlohmann-json3-dev libfmt-dev libglpk-dev \
  libsimgrid-dev libopenmpi-dev openmpi-bin gnuplot-nox gfortran python3 \
  libtrilinos-zoltan-dev abigail-tools \
  python3-pandas \
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-mpi4py python3-pytest \
  $(SLURM_PACKAGES)

.PHONY: abi-baseline deps demo-deps build test test-main test-asan fuzz demo bench study study-smoke compare-peers compare-peers-dynamic compare-balancers-smpi clean

# Installs the missing packages of a list (as root, or through sudo).
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make $(2): installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "make $(2): all Debian packages present"; fi
endef

deps:
	$(call install_missing,$(DEB_PACKAGES),deps)

# The demo's own packages and build: the command line alone (no tests, benchmarks, Zoltan, Python,
# sanitizers), so that a bare machine shows the three capabilities in minutes.
demo-deps:
	$(call install_missing,$(DEMO_PACKAGES),demo)

$(BUILD)/CMakeCache.txt: | deps
	cmake $(GENERATOR) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(UNITY) -DHETLB_UNIT_TESTS_SANITIZED_ONLY=ON -DHETLB_TEST_PCH=OFF

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The sanitized suite first: the Release suite is what it could not run (tests/ci/tests_not_sanitized.sh).
test: deps test-asan build test-main fuzz

test-main:
	sh tests/ci/tests_not_sanitized.sh $(BUILD) $(ASAN) $(BUILD)/tests-not-sanitized.txt
	if [ -s $(BUILD)/tests-not-sanitized.txt ]; then \
	  cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -I tests-not-sanitized.txt; fi

$(ASAN)/CMakeCache.txt: | deps
	CC=clang CXX=clang++ cmake $(GENERATOR) -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(UNITY) $(ASAN_FLAGS) \
	  -DHETLB_SANITIZE=ON -DHETLB_FUZZ=ON -DHETLB_BUILD_BENCH=OFF -DHETLB_BUILD_PEERS=OFF

test-asan: $(ASAN)/CMakeCache.txt
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE no-sanitizer

fuzz: $(ASAN)/CMakeCache.txt
	cmake --build $(ASAN) -j $(JOBS) --target fuzz_platform_json fuzz_ring_json fuzz_diffusion_files fuzz_campaign_spec fuzz_results_file fuzz_ring_schedule
	mkdir -p $(ASAN)/fuzz-corpus/platform $(ASAN)/fuzz-corpus/ring $(ASAN)/fuzz-corpus/diffusion
	cp examples/grid1999.json $(ASAN)/fuzz-corpus/platform/ && cp examples/ring-*.json $(ASAN)/fuzz-corpus/ring/
	$(ASAN)/bin/fuzz_platform_json -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=4096 \
	  $(ASAN)/fuzz-corpus/platform fuzz/corpus/platform_json
	$(ASAN)/bin/fuzz_ring_json -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=2048 \
	  $(ASAN)/fuzz-corpus/ring fuzz/corpus/ring_json
	$(ASAN)/bin/fuzz_diffusion_files -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=1024 \
	  $(ASAN)/fuzz-corpus/diffusion fuzz/corpus/diffusion
	mkdir -p $(ASAN)/fuzz-corpus/campaign
	$(ASAN)/bin/fuzz_campaign_spec -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=2048 \
	  $(ASAN)/fuzz-corpus/campaign fuzz/corpus/campaign_spec
	mkdir -p $(ASAN)/fuzz-corpus/results $(ASAN)/fuzz-corpus/schedule
	$(ASAN)/bin/fuzz_results_file -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=8192 \
	  $(ASAN)/fuzz-corpus/results fuzz/corpus/results_file
	$(ASAN)/bin/fuzz_ring_schedule -max_total_time=$(FUZZ_SECONDS) -seed=1 -max_len=2048 \
	  $(ASAN)/fuzz-corpus/schedule fuzz/corpus/ring_schedule

# A new release line (the version in include/hetlb/version.h) records the C ABI its releases keep
# (tests/abi/, checked by the abi_check test); commit the two files it writes.
abi-baseline: build
	sh tests/abi/abi_record.sh $(BUILD)/lib/libhetlb_mpi.so tests/abi include/hetlb

# The demo builds the command line alone and shows the three capabilities, each with its figure.
$(DEMO_BUILD)/CMakeCache.txt: | demo-deps
	cmake $(GENERATOR) -S . -B $(DEMO_BUILD) -DCMAKE_BUILD_TYPE=Release $(UNITY) -DHETLB_BUILD_TESTS=OFF \
	  -DHETLB_BUILD_BENCH=OFF -DHETLB_BUILD_PEERS=OFF

demo: $(DEMO_BUILD)/CMakeCache.txt
	cmake --build $(DEMO_BUILD) -j $(JOBS) --target hetlb
	@mkdir -p $(DEMO)
	@echo "== 1. Static load-balanced scatter (RR-4770): Table 1's 16 processors, every planner"
	$(DEMO_BUILD)/bin/hetlb compare examples/grid1999.json
	$(DEMO_BUILD)/bin/hetlb scatter examples/grid1999.json --algorithm uniform --gantt $(DEMO)/grid1999-uniform.png > /dev/null
	$(DEMO_BUILD)/bin/hetlb scatter examples/grid1999.json --algorithm lp --order bandwidth --gantt $(DEMO)/grid1999-balanced-decreasing-bandwidth.png > /dev/null
	$(DEMO_BUILD)/bin/hetlb scatter examples/grid1999.json --algorithm lp --order reverse-bandwidth --gantt $(DEMO)/grid1999-balanced-increasing-bandwidth.png > /dev/null
	@echo "== 2. Data redistribution on a heterogeneous bidirectional ring (Renard, Robert, Vivien)"
	$(DEMO_BUILD)/bin/hetlb ring examples/ring-heterogeneous.json --bidirectional --verify --gantt $(DEMO)/ring-heterogeneous.png
	@echo "== 3. Asynchronous iterative load balancing (Couturier, Giersch), simulated on SimGrid: 16-node torus"
	$(DEMO_BUILD)/bin/hetlb simulate diffusion --nodes 16 --topology torus --iterations 50 --seed 1 --plot $(DEMO)/diffusion-torus-16.png
	@echo "Figures written to $(DEMO)/: scatter Gantt charts (grid1999-*.png), the ring plan (ring-heterogeneous.png),"
	@echo "the simulated loads over time (diffusion-torus-16.png)"

# The last two lines: the diffusion runtime's protocols under seeded schedule perturbation (300 runs, about
# 8 minutes), then the soak (2 busy cores, 10,000 iterations in both modes, a rank killed; 2 to 5 minutes):
# docs/runtime.md, "Perturbed runs and the soak".
bench: deps build
	$(BUILD)/bin/hetlb-bench --benchmark_counters_tabular=true
	mpirun --allow-run-as-root --oversubscribe -np 2 $(BUILD)/bin/hetlb-mpi-scatter-bench
	mpirun --allow-run-as-root --oversubscribe -np 2 $(BUILD)/bin/hetlb-mpi-diffusion-bench
	DIFFUSE=$(BUILD)/bin/hetlb-diffuse bench/termination_latency.sh 5
	bench/matvec_makespan.sh $(BUILD)
	python3 examples/ring-iterations/check_target.py $(BUILD)/bin/hetlb --full
	PYTHONPATH=$(BUILD)/python /usr/bin/python3 python/bench/plan_overhead.py examples/grid1999.json
	PYTHONPATH=$(BUILD)/python mpirun --allow-run-as-root --oversubscribe -np 2 /usr/bin/python3 python/bench/scatterv_vs_mpi4py.py
	/usr/bin/python3 tests/perturb/perturbed_runs.py $(BUILD) 300
	sh tests/perturb/soak.sh $(BUILD)

# The study runs for hours: in the background, in pieces of PIECE_SECONDS; `make study` again resumes it.
# Every summary is rewritten after every piece (study/summaries.sh), ready to commit with the rows.
study: deps build
	@mkdir -p docs/study
	@if [ -f $(BUILD)/study.pid ] && kill -0 $$(cat $(BUILD)/study.pid) 2>/dev/null; then \
	  echo "make study: already running (pid $$(cat $(BUILD)/study.pid)), log in $(BUILD)/study.log"; \
	else \
	  HETLB=$(BUILD)/bin/hetlb JOBS=$(JOBS) AFTER_PIECE='sh study/summaries.sh' \
	    setsid nohup sh study/run.sh >> $(BUILD)/study.log 2>&1 & \
	  echo $$! > $(BUILD)/study.pid; \
	  echo "make study: running in the background (pid $$(cat $(BUILD)/study.pid)); follow: tail -f $(BUILD)/study.log;" \
	    "stop: kill $$(cat $(BUILD)/study.pid) (then make study resumes)"; \
	fi

study-smoke: deps build
	@mkdir -p $(BUILD)/study-smoke
	$(BUILD)/bin/hetlb campaign study/smoke.json -j $(JOBS) --results $(BUILD)/study-smoke/smoke.csv \
	  --ranks $(BUILD)/study-smoke/ranks.csv --plot $(BUILD)/study-smoke/smoke.svg | tee $(BUILD)/study-smoke/smoke.md

# The comparison with Zoltan: its programs are built when libtrilinos-zoltan-dev was there at configure time.
compare-peers: deps build
	BUILD=$(BUILD) sh bench/peers/compare.sh
	BUILD=$(BUILD) nice sh bench/peers/compare_dynamic.sh

compare-peers-dynamic: deps build
	BUILD=$(BUILD) nice sh bench/peers/compare_dynamic.sh

# The runtime's balancers under SMPI at 16, 64 and 256 ranks (hours at 256; resumable, one row per run).
compare-balancers-smpi: deps build
	BUILD=$(BUILD) nice sh bench/smpi/balancers.sh

clean:
	rm -rf $(BUILD) $(ASAN) $(DEMO_BUILD)
