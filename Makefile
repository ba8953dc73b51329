# Thin front for CMake. `make test` and `make run` install what is missing.
BUILD ?= build
DEPS = cmake g++ catch2 libgmp-dev libreadline-dev libgoogle-perftools-dev \
       google-perftools libboost-context-dev libgc-dev libsodium-dev
JOBS ?= $(shell nproc)

.PHONY: all deps configure test run sanitize tsan clean format

all: configure
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@missing=$$(for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  SUDO=$$([ $$(id -u) -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

configure:
	@[ -f $(BUILD)/CMakeCache.txt ] || cmake -S . -B $(BUILD)

test: deps all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# AddressSanitizer and UBSan (CMakeLists.txt, ARCANA_SANITIZE) in their own
# build directory, over the whole suite; any report fails its test.
SANITIZE_BUILD ?= build-asan
sanitize: deps
	@[ -f $(SANITIZE_BUILD)/CMakeCache.txt ] || cmake -S . -B $(SANITIZE_BUILD) -DARCANA_SANITIZE=ON
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && \
	  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:check_initialization_order=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# ThreadSanitizer (CMakeLists.txt, ARCANA_TSAN) in its own build directory,
# over the tests of the concurrent collector (ctest -R vcgc: its unit cases
# and the Arc suite under --gc=vcgc, with and without stress); any report
# fails its test. tests/tsan.supp lists what TSan cannot see (see there).
# Left out: arc-vcgc/fibers, whose 100,000 fibers alive at once are each a
# TSan fiber, past TSan's limit of 8,128 threads; arc-vcgc-stress/fibers
# runs the same file with 2,000.
TSAN_BUILD ?= build-tsan
tsan: deps
	@[ -f $(TSAN_BUILD)/CMakeCache.txt ] || cmake -S . -B $(TSAN_BUILD) -DARCANA_TSAN=ON
	cmake --build $(TSAN_BUILD) -j $(JOBS)
	cd $(TSAN_BUILD) && \
	  TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  ctest --output-on-failure -j $(JOBS) -R vcgc -E '^arc-vcgc/fibers$$'

run: deps all
	$(BUILD)/arcana

clean:
	rm -rf $(BUILD)

format:
	clang-format -i gc/*.cpp gc/*.h vm/*.cpp vm/*.h vm/builtins/*.cpp compiler/*.cpp compiler/*.h repl/*.cpp tests/unit/*.cpp
