# RiderKit — the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift

.PHONY: help demo test install static-rider front-texts deps build build-tests check docs test-swift test-keepassxc race-check bench-smoke bench fuzz fuzz-smoke stress examples clean

help:
	@echo "make demo   install what is missing, build, run the whole flow against a local reference server"
	@echo "make test   install what is missing, build, run every check and test"
	@echo "make build  debug build of the library, the rider CLI and rider-server"
	@echo "make clean  remove build products"
	@echo "make install  install rider (statically linked), its manual page and shell completions under PREFIX (default /usr/local)"
	@echo "make front-texts  regenerate the help, completions and version the rider front prints itself (after changing a command)"
	@echo "make test-keepassxc  the Secret Service vault tests with KeePassXC as the provider (part of make test)"
	@echo "make race-check  the session engine, vaults, file locks and SQLite cache under ThreadSanitizer (part of make test)"
	@echo "make bench  release build, then every benchmark next to its floor, one table (docs/performance.md)"
	@echo "make bench-smoke  every benchmark at tiny sizes, and the 1,000-waiter refresh storm (part of make test)"
	@echo "make fuzz   every decoder of outside data under libFuzzer + ASan, FUZZ_SECONDS (default 60) each"
	@echo "make fuzz-smoke  the same, 20 s each (part of make test)"
	@echo "make stress  16 tasks share one session against a 2 s access token for STRESS_SECONDS (default 120)"
	@echo "make examples  build Examples/EmbeddingApp and Examples/GeneratedClient (packages embedding RiderKit) and run their tests (part of make test)"
	@echo "make docs  DocC archives of RiderKit, RiderDomain, RiderApplication, RiderKitOpenAPI and RiderKitMCP in .build/plugins/Swift-DocC/outputs/; any warning fails (part of make test)"

demo: deps build
	scripts/demo.sh "$$($(SWIFT) build --show-bin-path)"

test: deps build-tests check docs test-swift test-keepassxc race-check bench-smoke fuzz-smoke examples

deps:
	scripts/install-deps.sh

build:
	$(SWIFT) build

build-tests:
	$(SWIFT) build --build-tests

check:
	scripts/manual.sh --check
	scripts/check-layers.sh
	scripts/check-api.sh
	scripts/check-readme-example.sh
	scripts/check-contract.sh
	scripts/check-server-contract.sh "$$($(SWIFT) build --show-bin-path)"

# DocC (swift-docc-plugin): the three library modules an embedding program reads, with their
# catalogs (*.docc: landing pages and the articles in Interfaces/RiderKit/RiderKit.docc). Any
# warning — a symbol link that does not resolve, an undocumented parameter — fails. The archives
# land in .build/plugins/Swift-DocC/outputs/<Module>.doccarchive, never in the source tree.
docs:
	$(SWIFT) package --disable-sandbox generate-documentation \
	  --target RiderKit --target RiderDomain --target RiderApplication --target RiderKitOpenAPI \
	  --target RiderKitMCP --warnings-as-errors

# Every test runs inside a private D-Bus session with a real, unlocked gnome-keyring, so the
# Secret Service vault tests run instead of being skipped (and fail if the keyring is missing).
# At most 8 tests at once (Swift Testing's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH): all
# 1,300 at once on two cores starved loopback servers, Chromium and child processes past the
# timeouts that detect hangs, one test at a time here and there; 8 runs the whole suite in the same
# 3.5 minutes without a miss (measured on this machine kind).
test-swift:
	RIDER_BIN_DIR="$$($(SWIFT) build --show-bin-path)" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 \
	  scripts/with-keyring.sh $(SWIFT) test --skip-build

# The Secret Service vault suites once more with KeePassXC (Debian's keepassxc, headless) as the
# provider instead of gnome-keyring: the vault against the real daemon, and login → three
# refreshes → whoami → logout through rider with secret-tool reading the item in between. A
# missing keepassxc fails here (scripts/with-keepassxc.sh), it is never skipped.
# One test at a time: KeePassXC 2.7.4 once segfaulted with several Secret Service clients
# talking to it at once (the tests are about what it stores, not about its concurrency). Should it
# die anyway, scripts/with-keepassxc.sh says so and fails at once, and it gives the tests 15
# minutes in all (scripts/check-keepassxc-crash.sh checks the first).
KEEPASSXC_TESTS := SecretServiceTokenVaultTests|SecretServiceProviderTests|SecretServicePlainReadTests|KeyringProviderFlowTests|VaultCommandTests/keyringAndMigration
# scripts/run-filtered-tests.sh fails unless every test the filter selects ran (SwiftPM passes a
# filter that matches nothing).
test-keepassxc:
	RIDER_BIN_DIR="$$($(SWIFT) build --show-bin-path)" SWIFT=$(SWIFT) RIDER_KEEPASSXC_TIMEOUT=900 \
	  scripts/run-filtered-tests.sh '$(KEEPASSXC_TESTS)' --wrap scripts/with-keepassxc.sh --no-parallel

# Under ThreadSanitizer (Sanitizers/: Domain, Application and Infrastructure with GRDB, swift-crypto
# and swift-log, in Sanitizers/.build): the session engine's concurrency scenarios (1,000
# concurrent 401s, proactive refresh, logout racing a refresh) and concurrent stress on the real
# vaults, file locks and SQLite user cache. Any data race stops it (halt_on_error=1). Inside a
# private keyring session, so the Secret Service vault runs against gnome-keyring; a missing
# keyring fails.
race-check:
	cd Sanitizers && $(SWIFT) build --sanitize=thread
	cd Sanitizers && TSAN_OPTIONS=halt_on_error=1 ../scripts/with-keyring.sh ./.build/debug/rider-race-check

# The benchmarks at tiny sizes, so they cannot rot, on the test build; the refresh storm keeps its
# full 1,000 concurrent requests against an out-of-process rider-server and fails unless the
# server counts exactly one refresh and every request succeeds.
bench-smoke:
	scripts/with-keyring.sh "$$($(SWIFT) build --show-bin-path)/rider-bench" --smoke

# Release build, then every scenario next to its floor, inside a private keyring session so the
# Secret Service rows are measured too. `rider-bench --help` lists the scenarios and sizes.
# The `rider` measured is the statically linked one `make install` installs (RIDER_CLI).
bench: deps static-rider
	$(SWIFT) build -c release --product rider-bench
	$(SWIFT) build -c release --product rider-server
	$(SWIFT) build -c release --product rider
	$(SWIFT) build -c release --product rider-core
	RIDER_CLI=$(STATIC_BUILD)/release/rider scripts/with-keyring.sh "$$($(SWIFT) build -c release --show-bin-path)/rider-bench"
	# The peer rows (#20): a generated OpenAPI client with a bearer middleware, with RiderKit's
	# middleware, and RiderKit's own API, each against the bare transport.
	[ ! -f Package.resolved ] || cp Package.resolved Examples/GeneratedClient/Package.resolved
	cd Examples/GeneratedClient && $(SWIFT) build -c release --scratch-path ../../.build --product generated-client-bench
	.build/release/generated-client-bench

# libFuzzer targets for the token response, token errors, problem JSON, user/rider JSON, HTTP dates
# and Retry-After, the vault file header and the stored session (Fuzz/, seeds in Fuzz/Corpus/).
# A crash or broken invariant fails the run; the input is left in Fuzz/.build/findings/.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

fuzz-smoke:
	FUZZ_SECONDS=20 scripts/fuzz.sh

# A soak (not part of make test): 16 tasks read and write through one session while access tokens
# live 2 s; no unexpected error, one refresh per expiry, no refresh token spent twice.
STRESS_SECONDS ?= 120
stress: deps build-tests
	RIDER_STRESS_SECONDS=$(STRESS_SECONDS) $(SWIFT) test --skip-build --filter StressTests

# Examples/EmbeddingApp: a package of its own that depends on this one by path, as an app does,
# and tests its logic through RiderKitTesting only. It builds in this package's .build from
# this package's resolved versions, so it compiles its own three modules and reuses everything
# else (GRDB, swift-crypto, RiderKit…) instead of building it a second time: about a minute
# instead of about twelve from clean. Neither package's build invalidates the other's.
#
# Examples/GeneratedClient: a client Apple's swift-openapi-generator made from docs/openapi.yaml
# (committed; scripts/check-generated-client.sh fails when the contract changed since), calling
# the reference server with RiderKit's session through RiderKitOpenAPI.
#
# Examples/MCPClient: an MCP client on Linux (the MCP Swift SDK's Client over RiderKitMCP), run
# against the MCP Python SDK's server behind Glewlwyd, both started for it.
examples:
	scripts/check-generated-client.sh
	for example in EmbeddingApp GeneratedClient; do \
	  [ ! -f Package.resolved ] || cp Package.resolved Examples/$$example/Package.resolved; \
	  (cd Examples/$$example && $(SWIFT) build --build-tests --scratch-path ../../.build \
	    && $(SWIFT) test --skip-build --scratch-path ../../.build) || exit 1; \
	done
	# The peer benchmark at a tiny size, so it cannot rot (its figures come from make bench).
	.build/debug/generated-client-bench --smoke
	# Examples/MCPClient: the MCP Swift SDK's Client through RiderKitMCP, signed in by RiderKit,
	# against a real OAuth-protected MCP server (the MCP Python SDK behind Glewlwyd), listing its
	# tools and calling one (scripts/mcp-client-example.sh).
	[ ! -f Package.resolved ] || cp Package.resolved Examples/MCPClient/Package.resolved
	$(SWIFT) build --product rider
	$(SWIFT) build --product rider-core
	cd Examples/MCPClient && $(SWIFT) build --scratch-path ../../.build --product mcp-client
	scripts/with-mcp-server.sh scripts/mcp-client-example.sh "$$($(SWIFT) build --show-bin-path)"

# `rider` for people: a release build linked statically against the Swift runtime and Foundation
# (no libswift*.so to load and bind at start: `rider --help` 13.5 → 9.4 ms, docs/performance.md), stripped,
# with the manual page (docs/man/rider.1, kept in step by `make test`) and completions for bash,
# zsh and fish. DESTDIR is honoured for packaging.
# `rider` is the front (a static executable with no dependency but the C library, which
# answers help, completions and --version); the whole CLI is $(PREFIX)/libexec/rider/rider-core,
# which the front executes for every other command (docs/architecture.md).
PREFIX ?= /usr/local
STATIC_BUILD := .build-static
install: static-rider
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/rider $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -s -m 0755 $(STATIC_BUILD)/release/rider $(DESTDIR)$(PREFIX)/bin/rider
	install -s -m 0755 $(STATIC_BUILD)/release/rider-core $(DESTDIR)$(PREFIX)/libexec/rider/rider-core
	install -m 0644 docs/man/rider.1 $(DESTDIR)$(PREFIX)/share/man/man1/rider.1
	$(STATIC_BUILD)/release/rider --generate-completion-script bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rider
	$(STATIC_BUILD)/release/rider --generate-completion-script zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_rider
	$(STATIC_BUILD)/release/rider --generate-completion-script fish >$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/rider.fish
	@echo "installed rider, its manual page (man rider) and completions under $(DESTDIR)$(PREFIX)"

# The `rider` make install installs and make bench measures: the front and rider-core.
static-rider: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(STATIC_BUILD) --product rider-core
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(STATIC_BUILD) --product rider

# The front's texts (Interfaces/CLIFront/FrontTexts.swift, committed) from rider-core's commands,
# after changing a command or its help; FrontTests fails until they are regenerated.
front-texts:
	$(SWIFT) build --product rider-core
	scripts/front-texts.py "$$($(SWIFT) build --show-bin-path)/rider-core"
	$(SWIFT) build --product rider

clean:
	rm -rf .build $(STATIC_BUILD) .venv .venv-peer Sanitizers/.build Fuzz/.build Examples/EmbeddingApp/.build Examples/GeneratedClient/.build Examples/MCPClient/.build .venv-mcp
