// Command lockorder hangs: two goroutines take the same two locks in
// opposite orders, each holding the lock the other waits for. main stays
// awake on a timer, so Go's runtime never reports the deadlock.
package main

import (
	"fmt"
	"sync"
	"time"
)

// account is a balance guarded by its own lock.
type account struct {
	mu      sync.Mutex
	balance int
}

// transfer moves amount between two accounts, locking from before to,
// which is the bug: a transfer the other way locks them in the other order.
func transfer(from, to *account, amount int, started *sync.WaitGroup) {
	from.mu.Lock()
	defer from.mu.Unlock()
	started.Done()
	started.Wait() // both transfers hold their first lock now
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// startTransfers starts a transfer each way at once; the WaitGroup it
// returns is done when both are.
func startTransfers(savings, checking *account) *sync.WaitGroup {
	var started, done sync.WaitGroup
	started.Add(2)
	done.Add(2)
	go func() { defer done.Done(); transfer(savings, checking, 10, &started) }()
	go func() { defer done.Done(); transfer(checking, savings, 20, &started) }()
	return &done
}

func main() {
	savings, checking := &account{balance: 100}, &account{balance: 50}
	fmt.Println("transferring")
	done := startTransfers(savings, checking)
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	for {
		select {
		case <-finished:
			fmt.Println("done", savings.balance, checking.balance)
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}
