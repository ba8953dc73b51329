# Thin front for CMake. `make test` and `make run` install what is missing.
BUILD ?= build
DEPS = cmake g++ catch2 libgmp-dev libreadline-dev libgoogle-perftools-dev \
       google-perftools libboost-context-dev libgc-dev libsodium-dev
JOBS ?= $(shell nproc)

.PHONY: all deps configure test run sanitize clean format

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

run: deps all
	$(BUILD)/arcana

clean:
	rm -rf $(BUILD)

format:
	clang-format -i gc/*.cpp gc/*.h vm/*.cpp vm/*.h vm/builtins/*.cpp compiler/*.cpp compiler/*.h repl/*.cpp tests/unit/*.cpp
