SHELL := /bin/bash
# ferridriver: build, test, demo, bench. Every target installs what it needs
# (npm oracles, Chromium, the Playwright driver) idempotently.

GO        ?= go
BIN       := bin/ferridriver
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
ORACLES   := tools/oracles
FUZZTIME  ?= 10s

.PHONY: all build test unit e2e vet race fuzz oracles browser demo bench clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ferridriver

# The official Cucumber tools the tests compare against, pinned by
# tools/oracles/package-lock.json; reinstalled only when the lock changes.
oracles: $(ORACLES)/node_modules/.installed
$(ORACLES)/node_modules/.installed: $(ORACLES)/package.json $(ORACLES)/package-lock.json
	cd $(ORACLES) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Chromium (apt, when root on Debian) and the Playwright driver.
browser: build
	scripts/setup-browser.sh $(BIN)

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...

# Packages whose state is shared between goroutines run under the race detector.
race:
	$(GO) test -race -count=1 ./jsbridge/... ./runner/... ./formatters/... ./messages/...

# Each fuzz target for a short while: no panic on any input.
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzParseFeature -fuzztime=$(FUZZTIME) ./runner/
	$(GO) test -run='^$$' -fuzz=FuzzTagExpression -fuzztime=$(FUZZTIME) ./runner/
	$(GO) test -run='^$$' -fuzz=FuzzCucumberExpression -fuzztime=$(FUZZTIME) ./runner/

unit: oracles
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /e2e)

e2e: oracles browser
	$(GO) test -count=1 -v -run 'TestCCK' ./e2e/ 2>&1 | grep -E '^(CCK:|--- FAIL|FAIL|ok)' ; \
	  exit $${PIPESTATUS[0]}
	$(GO) test -count=1 ./e2e/

test: vet oracles browser unit race e2e fuzz

# Build, install what is missing, run the example features against the
# embedded demo app.
demo: browser
	$(BIN) bdd

bench: build oracles browser
	bench/run.sh

clean:
	rm -rf bin $(ORACLES)/node_modules
