package adapter

import (
	"net"
	"syscall"
)

// tcpQuickAck is Linux's TCP_QUICKACK (not in package syscall).
const tcpQuickAck = 12

// QuickAck returns a function that re-arms TCP_QUICKACK on conn, for
// dap.Options.AfterRead. Run after every read, it makes the kernel ACK at
// once instead of up to 40 ms later, which releases a peer that writes two
// messages back to back with Nagle on (docs/adapter-quirks.md: rdbg-2,
// node-1, debugpy-2, jvm-1). Linux clears the flag by itself, hence
// re-arming after each read. It returns nil when conn is not TCP.
func QuickAck(conn net.Conn) func() {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return nil
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	return func() {
		_ = raw.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpQuickAck, 1)
		})
	}
}
