package main

import "testing"

// TestTransfers hangs with every goroutine blocked; go test's timeout
// timer keeps Go's runtime from calling it a deadlock.
func TestTransfers(t *testing.T) {
	savings, checking := &account{balance: 100}, &account{balance: 50}
	startTransfers(savings, checking).Wait()
	if savings.balance+checking.balance != 150 {
		t.Fatalf("money appeared or vanished: %d", savings.balance+checking.balance)
	}
}
