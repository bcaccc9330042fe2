# mcp-debugger: `make demo` runs a scripted agent session; `make test` runs every test.
# Both install what they need (Go modules, debug adapters) on a fresh machine.

export PATH := $(PATH):/usr/local/go/bin:$(HOME)/go/bin
GO ?= go
BIN := bin/mcp-debugger

.PHONY: build cross release demo test soak attack test-matrix adapters lint bench fuzz clean

# The platforms a release is built for. Linux is tested on real machines;
# macOS and Windows are built, vetted and unit-tested here only.
CROSS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/mcp-debugger

# Builds and vets (tests included) for every release platform: what only
# compiles on Linux fails here, not on a user's Mac.
cross:
	@for t in $(CROSS); do \
		echo "cross: $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build ./... && \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet ./... || exit 1; \
	done
	@# staticcheck too, for the code only other systems compile (lint covers Linux).
	GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 bin/staticcheck ./...
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 bin/staticcheck ./...

# Archives for every platform in $(CROSS) into dist/, with SHA256SUMS;
# VERSION=v1.2.3 names the version (default: git describe).
release:
	TARGETS="$(CROSS)" GO=$(GO) scripts/release.sh

adapters:
	scripts/install-adapters.sh

demo: build
	scripts/install-adapters.sh python
	$(GO) run ./examples/demo -server $(BIN)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: $$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

test: adapters lint cross
	$(GO) test -race -count=1 -timeout 35m ./...
	$(MAKE) soak
	$(MAKE) attack

# The attack suite (about 2 minutes): the server as a hostile environment
# meets it. Hostile files and huge numbers in every argument of every tool
# (generated from tools/list), idle and slow connections, another local
# user (created when root), another client on every session tool (with
# the same bearer token, with and without an MCP session or a key),
# duplicate and case-variant keys, control bytes in output, a full
# temporary disk. Each asserts a refusal or a bounded answer, the server
# still up, nothing left behind.
ATTACK_SERVER := ^(TestSourceToolsRefuseDevicesFIFOsAndHugeFiles|TestSourceContextIsBoundedAndSaysItWasCut|TestBreakpointTextsAreCappedAndTheirEchoesCut|TestProgramControlBytesReachNoAnswer|TestLaunchRefusesTheServersProcessMark|TestRecordOnAFullDiskSaysSo|TestDeepStackIsPagedWithATotal)$$
ATTACK_HTTP := ^(TestEveryToolRefusesAmbiguousSessionIDs|TestTwoClientsOwnSessions|TestRecordingsBelongToTheirSessionsOwner|TestForeignOutputResourceIsRefused|TestUnsubscribeEndsOnlyTheCallersOwnSubscription|TestPageDataOwnedLikeTools|TestBodyCap|TestReconnectKeyIsTheOnlyWayIn|TestSessionIDNeedsItsCreatorsCredential)$$
attack:
	$(GO) test -count=1 -timeout 10m -run '^TestAttack' ./cmd/mcp-debugger/
	$(GO) test -count=1 -timeout 10m -run '$(ATTACK_SERVER)' ./internal/server/
	$(GO) test -count=1 -timeout 10m -run '$(ATTACK_HTTP)' ./internal/httpserver/

# Churns a race-built server for $(SOAK): concurrent sessions in six
# languages, programs and adapters SIGKILLed mid-call, clients that vanish,
# garbage on stdin; fails on a hang, a session that does not say it ended,
# a process or temporary directory left behind, or growing descriptors.
SOAK ?= 2m
soak:
	MCP_DEBUGGER_SOAK=$(SOAK) $(GO) test -count=1 -run '^TestSoak$$' -v -timeout 20m ./cmd/mcp-debugger/

# Each adapter's integration tests against every version of it this
# machine can install (lldb-dap 19 and 22, two Delves, Node 20 and 22, ...);
# writes docs/test-matrix.md. Takes minutes, so not part of `make test`.
test-matrix:
	scripts/test-matrix.sh

bench: adapters build
	$(GO) test -run '^$$' -bench . -benchtime 20x ./internal/bench/
	$(GO) test -run '^$$' -bench AgentCost -benchtime 1x ./internal/server/
	$(GO) test -run '^$$' -bench TracepointCost -benchtime 10x ./internal/server/

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReadFrame -fuzztime 60s ./internal/dap/
	$(GO) test -run '^$$' -fuzz FuzzDecodePacket -fuzztime 60s ./internal/jdwp/
	$(GO) test -run '^$$' -fuzz FuzzLineFraming -fuzztime 60s ./internal/stdio/
	$(GO) test -run '^$$' -fuzz FuzzToolArguments -fuzztime 60s ./internal/server/

clean:
	rm -rf bin dist
