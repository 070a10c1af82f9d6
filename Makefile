# Thin wrapper around CMake. The two commands of the README:
#   make demo    install what is missing, build, run the suite on the simulated cluster
#   make check   install what is missing, build with -Werror, run every test tier
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build build-asan check check-style check-unit demo format \
	man install deb clean

all: build

deps:
	scripts/install-deps

build:
	cmake -S . -B $(BUILD) -DIBPROOF_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

build-asan:
	cmake -S . -B $(ASAN_BUILD) -DIBPROOF_WERROR=ON -DIBPROOF_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Formatting, the ban list, the layers and the names docs/design.md cites
# (docs/testing.md, docs/design.md).
# STYLE_FLAGS=--bans-only skips clang-format (a quick local run).
STYLE_FLAGS ?=
check-style:
	scripts/check-style $(STYLE_FLAGS)
	scripts/check-layers
	scripts/check-doc-names

# Every tier, strictly: in CI (CI set) or with STRICT=1 a skipped test fails.
# The build has the libFuzzer targets (IBPROOF_FUZZ, clang): label fuzz.
# The style, layer and doc-name gates run first and fail the check; after the build,
# no circle of calls between two source files, nor of header-level
# dependencies among the round-loop files of burnin/ (scripts/call-cycles).
check: deps
	@start=$$(date +%s); rc=0; \
	scripts/check-style $(STYLE_FLAGS) || exit $$?; \
	scripts/check-layers || exit $$?; \
	scripts/check-doc-names || exit $$?; \
	$(MAKE) --no-print-directory build \
		CMAKE_FLAGS="$(CMAKE_FLAGS) -DIBPROOF_FUZZ=ON" || exit $$?; \
	$(MAKE) --no-print-directory build-asan || exit $$?; \
	scripts/call-cycles --headers round-loop $(BUILD) || rc=1; \
	scripts/run-tests $(ASAN_BUILD) -L unit || rc=1; \
	scripts/run-tests $(BUILD) || rc=1; \
	echo "make check: $$(( $$(date +%s) - start )) s wall time, exit $$rc"; \
	exit $$rc

check-unit: build
	scripts/run-tests $(BUILD) -L unit

demo: deps build
	scripts/demo $(BUILD)

# The binary and what `ibproof demo` runs (share/ibproof, libexec/ibproof):
#   make install [PREFIX=/usr/local] [DESTDIR=/tmp/stage]
PREFIX ?= /usr/local
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# Man pages and the bash completion, made from the same option tables as
# --help (scripts/gen-docs): $(BUILD)/man, $(BUILD)/bash-completion.
man: build
	scripts/gen-docs $(BUILD)/ibproof $(BUILD)
	@echo "man pages in $(BUILD)/man: man -l $(BUILD)/man/ibproof-burnin.1"

# The Debian package (debian/, debhelper 13), built in a scratch copy of the
# tree, then lintian: $(DEB_OUT)/ibproof_VERSION_ARCH.deb (scripts/build-deb).
DEB_OUT ?= build-deb
deb: deps
	scripts/build-deb $(DEB_OUT)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
