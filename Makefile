# Front door. `make` builds release; `make test` builds release and asan and runs ctest on both (the
# Python package's pytest suite is the release configuration's ctest PythonPackage).
# Builds take a machine-wide lock so that two builds never share the 2 cores at once.
JOBS ?= $(shell nproc)
LOCK := $(shell command -v flock >/dev/null 2>&1 && echo "flock /tmp/quiver-build.lock")
CTEST_ARGS ?=

.PHONY: all deps release debug asan fuzz python cli test test-release test-asan demo bench bench-report clean

all: release

deps:
	@bash scripts/deps.sh

build/%/build.ninja:
	cmake --preset $*

release debug asan fuzz: %: deps build/%/build.ninja
	$(LOCK) cmake --build --preset $* -j $(JOBS)

# The library and the `quiver` program alone (build/release/quiver): what `make demo` runs, without
# the tests, benchmarks and fuzz replays of the full configuration.
cli: deps build/release/build.ninja
	$(LOCK) cmake --build --preset release -j $(JOBS) --target quiver_cli

# The Python package's extension and files in build/release/python (PYTHONPATH=build/release/python);
# `pip install ./python` builds its own copy.
python: deps build/release/build.ninja
	$(LOCK) cmake --build --preset release -j $(JOBS) --target python

test: test-release test-asan

test-release: release
	cd build/release && ctest -j $(JOBS) --output-on-failure $(CTEST_ARGS)

test-asan: asan
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -j $(JOBS) --output-on-failure $(CTEST_ARGS)

demo: cli
	@bash scripts/demo.sh build/release/quiver

bench: release
	@bash scripts/bench.sh

# The benchmark page (bench/report/index.md and its plots): quiver, DuckDB and Polars on lineitem.
bench-report: deps
	@bash bench/report.sh

clean:
	rm -rf build demo
