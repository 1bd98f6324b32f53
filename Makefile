# quire's build, test and benchmark entry points. Every target works on a
# fresh machine with Go installed; scripts/setup installs the rest.

GO        ?= go
PKGS      := ./...
STATICCHECK_VERSION := v0.7.0
GOBIN     := $(shell $(GO) env GOPATH)/bin
BENCHTIME ?= 1s

.PHONY: all build test test-short test-long lint fuzz bench bench-render bench-markdown bench-layout bench-store bench-app bench-sse bench-e2e bench-peers setup clean

all: build

build:
	$(GO) build -o quire ./cmd/quire

# The whole suite: vet, then every test under the race detector (the
# engine, app, store and term packages run goroutines; the rest are cheap
# enough that one invocation is simpler than a list that drifts).
test: setup
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 20m $(PKGS)
	$(GO) test -count=1 -timeout 10m -run '^TestStream' ./markdown/

# markdown's equivalence sweeps sample their cases under -race (they run
# on one goroutine and the detector slows them ~7x), so `test` runs them a
# second time, whole, without it. test-long widens them (minutes).
test-long:
	$(GO) test -count=1 -timeout 60m -run '^TestStream' ./markdown/ -args -long

test-short:
	$(GO) test -short -count=1 $(PKGS)

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet $(PKGS)
	@test -x $(GOBIN)/staticcheck || $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	$(GOBIN)/staticcheck $(PKGS)

# Slow suites live here, not in `test`.
FUZZTIME ?= 30s
fuzz:
	scripts/fuzz $(FUZZTIME)

setup:
	@scripts/setup

bench: bench-render bench-markdown bench-layout bench-store bench-app bench-sse bench-e2e

bench-render:
	$(GO) run ./bench/cmd/benchtable -suite render -benchtime $(BENCHTIME)

# The markdown targets are ratios of two timings, some of a few
# milliseconds; each timing is the median of three runs, so that a run
# the machine's other load slowed does not move a ratio.
bench-markdown:
	$(GO) run ./bench/cmd/benchtable -suite markdown -benchtime $(BENCHTIME) -count 3

bench-layout:
	$(GO) run ./bench/cmd/benchtable -suite layout -benchtime $(BENCHTIME)

bench-store:
	$(GO) run ./bench/cmd/benchtable -suite store -benchtime $(BENCHTIME)

bench-app:
	$(GO) run ./bench/cmd/benchtable -suite app -benchtime $(BENCHTIME)

# The SSE reader is unexported: its benchmarks live beside it in engine/llm.
bench-sse:
	$(GO) run ./bench/cmd/benchtable -suite sse -benchtime $(BENCHTIME)

# The real binary in a pty against the scripted model (bench/e2e); one
# op is three interleaved runs of each mode, so the benchtime is fixed.
bench-e2e:
	$(GO) run ./bench/cmd/benchtable -suite e2e -benchtime 1x

# bench-e2e beside the peer agent UIs that scripts/install-peers could
# install; not part of `bench` or `test` (it downloads the peers).
bench-peers:
	scripts/install-peers
	E2E_PEERS=1 $(GO) run ./bench/cmd/benchtable -suite e2e -benchtime 1x

clean:
	rm -f quire
