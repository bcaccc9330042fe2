//go:build !linux

package adapter

import "net"

// QuickAck returns nil: TCP_QUICKACK is Linux's alone. Elsewhere the
// delayed ACK of a peer's second message stays (macOS delays ACKs too,
// Windows up to 200 ms by default); our own side's sends are not delayed,
// Go making every TCP connection TCP_NODELAY.
func QuickAck(net.Conn) func() { return nil }
