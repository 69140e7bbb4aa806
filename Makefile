# keysim — set-up, build, run, test and benchmark on a Debian machine with the Swift toolchain.
SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libzstd-dev pkg-config
SCENARIO ?= scenarios/default.json5

.PHONY: run test bench build deps clean fuzz golden

# Installs the system libraries through apt-get when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists sqlite3 libzstd 2>/dev/null; then \
		echo "installing $(APT_PACKAGES)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES); \
	fi

build: deps
	$(SWIFT) build

run: build
	$(SWIFT) run --skip-build keysim run $(SCENARIO)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

# Rewrites Tests/Golden/report-digests.txt from a fresh run of every bundled scenario and policy,
# and the --json documents in Tests/Golden/json.
# Only when numbers move on purpose: the commit carries the new digests and says why.
golden: deps
	$(SWIFT) build --build-tests
	KEYSIM_UPDATE_GOLDEN=1 $(SWIFT) test --skip-build --disable-swift-testing --filter 'GoldenDigestTests|JSONOutputTests'

bench: deps
	$(SWIFT) build -c release --product KeysimBench
	$(SWIFT) build -c release --product keysim
	.build/release/KeysimBench

# libFuzzer targets (Fuzz/), FUZZ_SECONDS each (default 30); not part of `make test`.
fuzz: deps
	SWIFT=$(SWIFT) Fuzz/run.sh

clean:
	rm -rf .build
