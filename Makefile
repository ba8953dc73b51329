# Thin front for CMake. `make test` and `make run` install what is missing.
# CMAKE_ARGS go to every configure step (each build directory's first, and
# again whenever they are given), e.g. `make test CMAKE_ARGS=-DARCANA_WERROR=ON`
# as CI does (.ci/run). The build options (CMakeLists.txt):
#   ARCANA_WERROR    warnings are errors (CI; off for developers' newer compilers)
#   ARCANA_CHECKED   ARCANA_CHECKED=1 everywhere: the internal checks too slow
#                    for the default build, e.g. the VM stack accounting on
#                    every push (on in `make sanitize`)
#   ARCANA_SWITCH_DISPATCH   the interpreter dispatches through a switch,
#                    not computed gotos
#   ARCANA_SANITIZE, ARCANA_TSAN, ARCANA_FUZZ   see sanitize, tsan, fuzz below
#   ARCANA_E2E       register the browser test with CTest (see e2e below)
#   ARCANA_STATIC_LIBS   link the libraries from their archives (on; off in
#                    the sanitizer and fuzz builds)
#   ARCANA_STATIC_EXE    link the arcana binary wholly statically, libc too
#                    (on: a faster start); ARCANA_PIE makes it -static-pie
BUILD ?= build
CMAKE_ARGS ?=
DEPS = cmake g++ catch2 libgmp-dev libreadline-dev libgoogle-perftools-dev \
       google-perftools libboost-context-dev libgc-dev libsodium-dev \
       libhttp-parser-dev libsqlite3-dev zlib1g-dev python3
JOBS ?= $(shell nproc)

.PHONY: all deps configure test run repl sanitize tsan fuzz clean format format-check

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
	@[ -f $(BUILD)/CMakeCache.txt ] && [ -z "$(CMAKE_ARGS)" ] || cmake -S . -B $(BUILD) $(CMAKE_ARGS)

test: deps all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# AddressSanitizer and UBSan (CMakeLists.txt, ARCANA_SANITIZE) in their own
# build directory, over the whole suite; any report fails its test. It is
# also the checked build (ARCANA_CHECKED). Configured every time, so that a
# directory made before an option was added gets it. allocator_may_return_null:
# an allocation too big for ASan's allocator returns null, as malloc does
# without it, and the VM turns that into Arc's out-of-memory error.
SANITIZE_BUILD ?= build-asan
sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) -DARCANA_SANITIZE=ON -DARCANA_CHECKED=ON $(CMAKE_ARGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && \
	  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:check_initialization_order=1:allocator_may_return_null=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -E '^(web-sqlite|arc-stw-stress|arc-boehm|arc-marksweep)/'

# (Left out above: web-sqlite/*, the news site's HTTP tests run again over
# the SQLite store. They run the same C++ as web/* does, which is under
# the sanitizers here, and web/news_sqlite runs the SQLite builtins
# themselves; the rerun would add minutes to CI for no code of its own.
# And arc-stw-stress/*, the Arc suite under gen-stw with stress: gen's code
# but for the concurrent mark, which arc-stress/* runs here, and whose
# major collection's mark and sweep (the same as a full collection's, which
# gen makes too) are here in gc_tests' gen-stw cases. And the Arc suite
# under boehm and marksweep: the VM's C++ is the same as arc/*'s, which is
# here with gen, whose old generation is marksweep's page space; boehm's
# glue and marksweep have their cases in gc_tests, here too; together they
# were some three of this target's minutes.)

# ThreadSanitizer (CMakeLists.txt, ARCANA_TSAN) in its own build directory,
# over the tests of the concurrent collectors (vcgc's unit cases in
# gc_tests and unit_tests, the Arc suite under --gc=vcgc with stress, and
# without it the files of TSAN_VCGC_ARC; and gen's, below); any report
# fails its test.
# CI runs it (.ci/run). It builds only the executables those tests run
# (TSAN_TARGETS), not the benchmarks. tests/tsan.supp lists what TSan
# cannot see (see there).
# Why only those: TSan checks memory shared between OS threads, and vcgc's
# collector and gen's marker are the threads that share the heap with the
# interpreter. (gc/pages.cpp's filler, which maps regions ahead for every
# collector and is stopped before a fork, shares only its list of regions,
# under a mutex: its gc_tests case, map_space cuts from regions..., is here.)
# (The only other threads, the pool that hashes passwords in
# io/crypto.cpp, share a job queue under a mutex; tests/arc/app.arc
# hashes, so arc-vcgc/app checks them too.) The other collectors stop the
# world on the interpreter's thread, and green threads, fibers and the
# scheduler all run on that one thread, switching stacks (annotated for
# TSan, vm/context.cpp): under gen-stw they give TSan no second thread
# to compare. --workers forks processes, which share no memory. Where those
# parts do meet a second thread, the collector's, are the vcgc runs of
# threads.arc, fibers.arc and sockets.arc, which are in the set. Without
# stress, vcgc runs only threads.arc, sockets.arc and app.arc under TSan:
# the rest of its unstressed Arc suite (some five of this target's
# minutes) meets the collector thread as the stressed runs do, which
# hand over at every safe point.
# Left out: arc-vcgc/fibers, whose 100,000 fibers alive at once are each a
# TSan fiber, past TSan's limit of 8,128 threads (arc-vcgc-stress/fibers
# runs the same file with 2,000); and arc-vcgc/deep and arc-vcgc-stress/deep,
# whose input nested a million deep takes the stacks to their ends: under
# TSan (its shadow memory, its record of every frame) the process grows
# until the kernel's out-of-memory killer ends it. deep.arc checks depth,
# which arc/deep and make sanitize cover, not threads.
# gen (whose old generation a thread marks while the interpreter runs)
# shares the heap with its marker the same way: its unit cases in
# gc_tests, its whole Arc suite without stress (arc/NAME: some 80 s here;
# the files that allocate past the first trigger, lib_core.arc,
# lib_iteration.arc and fields.arc among them, mark concurrently, and
# every file that takes a second region runs the filler, gc/pages.cpp,
# beside the interpreter), but arc/deep and arc/fibers for the reasons
# vcgc's are left out (below), and under stress the Arc files that run
# fibers and sockets (its whole Arc suite under stress runs in the plain
# build; under TSan the other files, continuations.arc and
# lib_iteration.arc above all, cost many minutes for the same code paths;
# and threads.arc's work-meter case, under TSan with stress on a loaded
# machine, outran the file's one-minute wait for a thread, so vcgc's run
# of it stands for both here).
TSAN_GEN_ARC = fibers|sockets
TSAN_VCGC_ARC = threads|sockets|app
TSAN_BUILD ?= build-tsan
TSAN_TARGETS = gc_tests unit_tests arc_test
tsan: deps
	@[ -f $(TSAN_BUILD)/CMakeCache.txt ] && [ -z "$(CMAKE_ARGS)" ] || \
	  cmake -S . -B $(TSAN_BUILD) -DARCANA_TSAN=ON $(CMAKE_ARGS)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(TSAN_TARGETS)
	cd $(TSAN_BUILD) && \
	  TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  ctest --output-on-failure -j $(JOBS) \
	    -R '^vcgc: |concurrent collectors|^map_space cuts from regions|^prepare_regions |^arc-vcgc-stress/|^arc-vcgc/($(TSAN_VCGC_ARC))$$|^concurrent mark: |^arc-stress/($(TSAN_GEN_ARC))$$|^arc/' \
	    -E '^arc-vcgc-stress/deep$$|^arc/(deep|fibers)$$'

# libFuzzer (CMakeLists.txt, ARCANA_FUZZ) in its own build directory, with
# clang: tests/fuzz/fuzz_http.cpp for FUZZ_TIME seconds under ASan and
# UBSan, over a copy of the seed corpus tests/fuzz/corpus/http (new inputs
# go to the copy; the repository's corpus changes only on purpose). Leaks
# are checked at the end of the run, then input by input over the grown
# corpus (checking each input while fuzzing runs LeakSanitizer over the
# whole heap whenever the collector grows, and fuzzes many times slower). A
# crash, a leak or a sanitizer report fails, its input left in
# $(FUZZ_BUILD)/ (crash-<sha1>, leak-<sha1>).
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_DEPS = clang libfuzzer-14-dev
FUZZ_ENV = ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_FLAGS = -max_len=4096 -timeout=10 -dict=tests/fuzz/http.dict -artifact_prefix=$(FUZZ_BUILD)/
fuzz: deps
	@$(MAKE) --no-print-directory deps DEPS="$(FUZZ_DEPS)"
	@[ -f $(FUZZ_BUILD)/CMakeCache.txt ] && [ -z "$(CMAKE_ARGS)" ] || \
	  CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DARCANA_FUZZ=ON $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_http
	rm -rf $(FUZZ_BUILD)/corpus-http && cp -r tests/fuzz/corpus/http $(FUZZ_BUILD)/corpus-http
	$(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_http -max_total_time=$(FUZZ_TIME) -detect_leaks=0 \
	  $(FUZZ_FLAGS) -print_final_stats=1 $(FUZZ_BUILD)/corpus-http
	$(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_http -runs=0 -detect_leaks=1 $(FUZZ_FLAGS) $(FUZZ_BUILD)/corpus-http

# The news site (apps/news/) on http://$(HOST):$(PORT)/, its data in
# $(NEWS_DATA) (outside $(BUILD), so make clean keeps it); an empty one is
# seeded with demo data and an admin account whose password is printed once.
PORT ?= 8080
HOST ?= 127.0.0.1
NEWS_DATA ?= news-data/
run: deps all
	$(BUILD)/arcana apps/news/news.arc --port $(PORT) --host $(HOST) --data $(NEWS_DATA)

# The Arc REPL.
repl: deps all
	$(BUILD)/arcana

# The browser test of the news site (tests/e2e/news.test.mjs): Debian's
# Chromium (never a downloaded browser) driven by playwright-core from npm,
# installed into tests/e2e/node_modules from its lock file. Installs what
# is missing, builds, runs; screenshots in $(BUILD)/e2e-screenshots/.
# npm comes with Node.js (nodejs); Debian's npm package only if it did not.
E2E_DEPS = chromium nodejs
.PHONY: e2e
e2e: deps all
	@$(MAKE) --no-print-directory deps DEPS="$(E2E_DEPS)"
	@command -v npm >/dev/null || $(MAKE) --no-print-directory deps DEPS=npm
	@[ tests/e2e/node_modules/.e2e-installed -nt tests/e2e/package-lock.json ] || \
	  (cd tests/e2e && npm ci --no-audit --no-fund && touch node_modules/.e2e-installed)
	BUILD_DIR=$(abspath $(BUILD)) node tests/e2e/news.test.mjs

clean:
	rm -rf $(BUILD)

# The repository's C++ (.cpp and .h, not vm/opcodes.def's table) formatted
# with .clang-format: `make format` rewrites the files, `make format-check`
# (CI) fails if any differs, naming each with its first difference. Build
# directories (any with a CMakeCache.txt), .git and node_modules are left
# out. clang-format is Debian's version 14, named so, since another version
# formats some constructs differently.
CLANG_FORMAT ?= clang-format-14
FORMAT_DEPS = clang-format-14
FORMAT_FILES = $(shell find . -type d \( -name .git -o -name node_modules \
                 -o -exec test -f {}/CMakeCache.txt \; \) -prune \
                 -o -type f \( -name '*.cpp' -o -name '*.h' \) -print | sort)
format:
	@$(MAKE) --no-print-directory deps DEPS="$(FORMAT_DEPS)"
	@echo "$(CLANG_FORMAT) -i: $(words $(FORMAT_FILES)) files"
	@$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	@$(MAKE) --no-print-directory deps DEPS="$(FORMAT_DEPS)"
	@echo "$(CLANG_FORMAT) --dry-run -Werror: $(words $(FORMAT_FILES)) files"
	@$(CLANG_FORMAT) --dry-run -Werror --ferror-limit=1 $(FORMAT_FILES)
