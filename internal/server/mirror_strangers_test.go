package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"testing"
	"time"
)

// A stranger's connection to a mirror is cut off after a few KiB sent
// without the token, and only a few such connections are kept: 16
// strangers each sending a 64 MiB message made the mirror hold 1.7 GiB.
// The IDE with the token still attaches.
func TestMirrorBoundsStrangersBeforeItsToken(t *testing.T) {
	h := newHarness(t)
	_, ex := exposedAtAStop(t, h, nil)
	addr := fmt.Sprintf("127.0.0.1:%d", ex.num("port"))

	const strangers, perStranger = 16, 8 << 20
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	conns := make([]net.Conn, 0, strangers)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	chunk := make([]byte, 64<<10)
	for i := range strangers {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		sent := 0
		_, err = fmt.Fprintf(c, "Content-Length: %d\r\n\r\n", 64<<20)
		for err == nil && sent < perStranger {
			_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			var n int
			n, err = c.Write(chunk)
			sent += n
		}
		if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("stranger %d sent %d bytes without the token and the mirror kept reading (%v)", i, sent, err)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("heap in use grew %d KiB while %d strangers sent up to %d MiB each", grown>>10, strangers, perStranger>>20)
	if grown > 32<<20 {
		t.Fatalf("the heap grew %d MiB for %d strangers without the token", grown>>20, strangers)
	}

	// Silent strangers: past a few, the oldest is closed.
	var silent []net.Conn
	for range 20 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		silent = append(silent, c)
	}
	_ = silent[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := silent[0].Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the oldest of 20 silent strangers' connections was kept open")
	}
	attachIDE(t, ex).event("stopped")
}
