package dapserver

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Workers runs the goroutines one request fans out to and waits for them.
// A panic in one of them would end the whole process (the built-in
// adapters run inside the server), out of reach of the request's
// recovery, which covers only the request's own goroutine: so Wait
// re-raises it there, with the worker's stack, and the recovery turns it
// into that request's error. The zero value is ready to use.
type Workers struct {
	wg       sync.WaitGroup
	mu       sync.Mutex
	panicked any
	stack    []byte
}

// Go runs f on a goroutine of its own.
func (w *Workers) Go(f func()) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				w.mu.Lock()
				if w.panicked == nil {
					w.panicked, w.stack = r, debug.Stack()
				}
				w.mu.Unlock()
			}
		}()
		f()
	}()
}

// Wait waits for every goroutine started by Go, then panics on the
// caller's goroutine if one of them panicked.
func (w *Workers) Wait() {
	w.wg.Wait()
	if w.panicked != nil {
		panic(fmt.Sprintf("%v (in a worker goroutine)\n%s", w.panicked, w.stack))
	}
}
