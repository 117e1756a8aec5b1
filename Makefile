SHELL := /bin/bash
# ferridriver: build, test, demo, bench. Every target installs what it needs
# (npm oracles, Chromium, the Playwright driver) idempotently.

GO        ?= go
BIN       := bin/ferridriver
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
ORACLES   := tools/oracles
# Fuzzing budgets are execution counts, not durations: with a duration, Go
# 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" at the deadline on a busy machine (golang/go#75804, fixed in 1.27).
# Every new interesting input is minimized, by default for up to a minute
# each: from an empty fuzz cache (as in CI) that made FuzzCucumberExpression
# take 72-195 s instead of 12; a crasher is still reported, less minimized.
FUZZTIME  ?= 20000x
FUZZMIN   ?= 1000x

.PHONY: all build test unit other e2e vet race fuzz oracles polyfills npm-packages browser demo bench docs clean

all: build

build: polyfills
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ferridriver

# The npm polyfills of Node built-ins (streams, events, util...) and
# cucumber-js's formatter API, pinned by tools/polyfills/package-lock.json,
# packed into the file jsbridge embeds.
# Every target that compiles depends on it; it is rebuilt only when its
# inputs change. A plain `go build` without it still compiles (those
# modules then say to build with make).
POLYFILLS    := tools/polyfills
POLYFILLS_JS := jsbridge/polyfills/polyfills.pack
polyfills: $(POLYFILLS_JS)
$(POLYFILLS)/node_modules/.installed: $(POLYFILLS)/package.json $(POLYFILLS)/package-lock.json
	cd $(POLYFILLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@
$(POLYFILLS_JS): $(POLYFILLS)/node_modules/.installed $(POLYFILLS)/entry.js $(POLYFILLS)/cucumber.js $(wildcard $(POLYFILLS)/shims/*.js) $(POLYFILLS)/gen.go $(wildcard internal/gojacompat/*.go) internal/jspack/jspack.go
	$(GO) run $(POLYFILLS)/gen.go -src $(POLYFILLS) -out $@
	rm -f jsbridge/polyfills/polyfills.js # the bundle of earlier builds, embedded if left
	touch $@

# The npm packages test project of e2e/npmpackages_test.go.
NPM_PACKAGES := e2e/testdata/npm-packages
npm-packages: $(NPM_PACKAGES)/node_modules/.installed
$(NPM_PACKAGES)/node_modules/.installed: $(NPM_PACKAGES)/package.json $(NPM_PACKAGES)/package-lock.json
	cd $(NPM_PACKAGES) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The official Cucumber tools the tests compare against, pinned by
# tools/oracles/package-lock.json; reinstalled only when the lock changes.
# cucumber-js 11 (tools/oracles/cucumber11) is the oracle of the options
# cucumber-js 12 dropped.
oracles: $(ORACLES)/node_modules/.installed $(ORACLES)/cucumber11/node_modules/.installed
$(ORACLES)/node_modules/.installed: $(ORACLES)/package.json $(ORACLES)/package-lock.json
	cd $(ORACLES) && npm ci --no-audit --no-fund --loglevel=error
	touch $@
$(ORACLES)/cucumber11/node_modules/.installed: $(ORACLES)/cucumber11/package.json $(ORACLES)/cucumber11/package-lock.json
	cd $(ORACLES)/cucumber11 && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Chromium (apt, when root on Debian) and the Playwright driver.
browser: build
	scripts/setup-browser.sh $(BIN)

vet: polyfills
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...

# Packages whose state is shared between goroutines run under the race
# detector; `make test` runs the others without it.
RACE_PKGS := ./jsbridge/... ./runner/... ./formatters/... ./messages/... ./mcp/... ./world/... ./demoapp/... ./godogworld/... ./examples/...
race: polyfills oracles browser
	$(GO) test -race -count=1 -timeout 30m $(RACE_PKGS)

other: polyfills oracles
	$(GO) test -count=1 $$($(GO) list ./... | grep -v -E '/(e2e|jsbridge|runner|formatters|messages|mcp|world|demoapp|godogworld|examples)(/|$$)')

# Each fuzz target for a short while: no panic on any input.
fuzz: polyfills
	$(GO) test -run='^$$' -fuzz=FuzzParseFeature -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMIN) ./runner/
	$(GO) test -run='^$$' -fuzz=FuzzTagExpression -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMIN) ./runner/
	$(GO) test -run='^$$' -fuzz=FuzzCucumberExpression -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMIN) ./runner/

unit: polyfills oracles
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /e2e)

# go test's default 10-minute limit per package is too close to the e2e
# package's run time on a busy 2-core runner (9.5 min measured): the limit
# is the CI budget's, not go test's.
# The CCK run prints "CCK: N/46 samples passed" and the npm packages run
# "npm compatibility: N/M packages"; the other end-to-end tests follow.
e2e: polyfills oracles npm-packages browser
	@set -o pipefail; $(GO) test -count=1 -v -run 'TestCCK|TestNpmPackages' ./e2e/ 2>&1 | tee .cck.log | grep -E '^(CCK:|npm compatibility:|\s*--- FAIL|FAIL|ok|panic)' || { cat .cck.log; exit 1; }
	@rm -f .cck.log
	$(GO) test -count=1 -timeout 30m -skip 'TestCCK|TestNpmPackages' ./e2e/

test: vet oracles browser race other e2e fuzz

# Build, install what is missing (Chromium, the driver), run the example
# suite (features/, its steps in features/support/, ferridriver.toml) against the embedded demo app,
# which its [[webServer]] starts: progress, then the summary.
demo: browser
	$(BIN) bdd
	@echo "reports: reports/junit.xml reports/report.html"

# Generated documentation: the built-in step reference in docs/steps.md
# (between its generated markers; a test fails when it is stale).
docs: build
	$(BIN) steps --builtin --md -o docs/steps.md

# Benchmarks against cucumber-js (docs/benchmarks.md); e.g.
# make bench BENCH_ARGS='-only browser -runs 3'
BENCH_ARGS ?=
bench: build oracles browser
	bench/run.sh $(BENCH_ARGS)

clean:
	rm -rf bin $(ORACLES)/node_modules $(POLYFILLS)/node_modules $(POLYFILLS_JS) $(NPM_PACKAGES)/node_modules
