# mcp-debugger: `make demo` runs a scripted agent session; `make test` runs every test.
# Both install what they need (Go modules, debug adapters) on a fresh machine.

export PATH := $(PATH):/usr/local/go/bin:$(HOME)/go/bin
GO ?= go
BIN := bin/mcp-debugger

.PHONY: build demo test test-matrix adapters lint bench fuzz clean

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/mcp-debugger

adapters:
	scripts/install-adapters.sh

demo: build
	scripts/install-adapters.sh python
	$(GO) run ./examples/demo -server $(BIN)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: $$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

test: adapters lint
	$(GO) test -race -count=1 -timeout 20m ./...

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
	rm -rf bin
