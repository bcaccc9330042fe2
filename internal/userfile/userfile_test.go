//go:build unix

package userfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv/hostilefile"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// Each of these once took the server down or held a call forever: a
// device read without end, a 2 GB file read whole, a FIFO waiting for a
// writer. Each is refused at once, saying what it is and what to do.
func TestReadRefusesWhatIsNotASmallRegularFile(t *testing.T) {
	fifo, sparse := hostilefile.Make(t, ".py")
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "is a device"},
		{"/dev/urandom", "is a device"},
		{fifo, "is a FIFO"},
		{sparse, "is 2048.0 MiB, over the 16 MiB"},
		{filepath.Dir(fifo), "is a directory"},
	} {
		start := time.Now()
		_, err := userfile.Read(c.path)
		var refused *userfile.Error
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), c.want) || refused.Hint == "" {
			t.Errorf("Read(%s) = %v, want a refusal saying %q with a hint", c.path, err, c.want)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("Read(%s) took %v", c.path, took)
		}
	}
}

func TestReadGivesASmallRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ok.py")
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := userfile.Read(path); err != nil || string(b) != "x = 1\n" {
		t.Fatalf("Read = %q, %v", b, err)
	}
}
