# Thin front for CMake. `make test` and `make run` install what is missing.
BUILD ?= build
DEPS = cmake g++ catch2 libgmp-dev libreadline-dev libgoogle-perftools-dev \
       google-perftools libboost-context-dev libgc-dev libsodium-dev
JOBS ?= $(shell nproc)

.PHONY: all deps configure test run clean format

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

run: deps all
	$(BUILD)/arcana

clean:
	rm -rf $(BUILD)

format:
	clang-format -i gc/*.cpp gc/*.h vm/*.cpp vm/*.h vm/builtins/*.cpp compiler/*.cpp compiler/*.h repl/*.cpp tests/unit/*.cpp
