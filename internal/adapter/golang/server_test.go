package golang

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOldDelveRunsAndWarns: dlv is started with --check-go-version=false,
// so that a Delve older than the Go toolchain debugs rather than refusing,
// and the warning Delve then writes on stderr reaches the agent as console
// output, with how to upgrade. The fake dlv answers like Delve 1.25.2 under
// Go 1.26.8 (measured).
func TestOldDelveRunsAndWarns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
			_, _ = c.Read(make([]byte, 1))
		}
	}()
	dir := t.TempDir()
	dlv := filepath.Join(dir, "dlv")
	script := `#!/bin/sh
for a in "$@"; do [ "$a" = --check-go-version=false ] && unchecked=1; done
[ -n "$unchecked" ] || { echo 'Version of Delve is too old for Go version go1.26.8 (maximum supported version 1.25, suppress this error with --check-go-version=false)' >&2; exit 1; }
echo 'DAP server listening at: ` + ln.Addr().String() + `'
echo 'WARNING: undefined behavior - version of Delve is too old for Go version go1.26.8 (maximum supported version 1.25)' >&2
exec sleep 60
`
	if err := os.WriteFile(dlv, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv, err := startDAPServer(context.Background(), dapCommand(dlv), dir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	out := srv.output()
	if len(out) != 1 || out[0].Category != "console" {
		t.Fatalf("output streams: %+v", out)
	}
	line, err := bufio.NewReader(out[0].Reader).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(line, "dlv: WARNING: undefined behavior - version of Delve is too old") || !strings.Contains(line, installHint) {
		t.Errorf("warning passed on as %q", line)
	}
}
