package session

// The connection type: one debug adapter connection of a session, from
// the handshake to its cleanup. Run control (continue, steps, pause) is in
// run.go; the events a connection reads are handled in events.go.

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// connection is one connection to a debug adapter, from start to end.
type connection struct {
	s      *Session
	client *dapc.Client
	conn   *adapter.Connection
	// mark is the proc.MarkVar value of a launched program's processes;
	// empty for an attach, whose program is not ours to end.
	mark string
	// paths translates between the agent's and the program's source
	// roots; nil without path mappings.
	paths       *pathMap
	remote      remoteSources // the adapter's copies of remote files
	caps        dap.Capabilities
	initialized chan struct{}
	done        chan struct{} // closed when the event loop has ended
	initOnce    sync.Once
	// closing is set when we end the connection ourselves, so that its end
	// is not taken for a crash.
	closing atomic.Bool
	// resuming is the run-control request that set the program running
	// (guarded by the session's mutex), and stepInterrupted records that
	// a step ended on something other than its own completion since the
	// last continue: what Quirks.BeforeContinue exists to clean up.
	resuming        string
	stepInterrupted bool
	// stepFrom is where the step under way began, when the program is
	// stepping (guarded by the session's mutex; see steprepeat.go).
	stepFrom *stepOrigin
	// passes are where each thread last stopped at a breakpoint of
	// several locations (guarded by the session's mutex; see
	// samepass.go).
	passes map[int]passMark
	// returns are the traced calls being stepped out of, innermost last
	// (guarded by the session's mutex; see tracefn.go).
	returns []pendingReturn
	// stackOnly makes stops fetch only the stack, while the session steps
	// on its own (break_on_change) and no agent reads the stops between;
	// guarded by the session's mutex.
	stackOnly bool
	// hits are the breakpoints (our ids) that stopped or traced in this
	// run, for the end's neverHit; guarded by the session's mutex.
	hits map[int]bool

	mu        sync.Mutex
	terminals []*proc.Process // programs started through runInTerminal
	// debuggee watches the program's process once its pid is known (see
	// debuggee.go); cleanedUp refuses a watch that would start too late.
	debuggee    *proc.Watcher
	cleanedUp   bool
	cleanupOnce sync.Once
}

func (r *connection) ended() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// cleanup kills what the adapter started; safe to call more than once.
func (r *connection) cleanup() {
	r.cleanupOnce.Do(func() {
		r.client.Close()
		r.stopWatchingDebuggee()
		r.mu.Lock()
		terms := r.terminals
		r.mu.Unlock()
		for _, p := range terms {
			p.Kill()
		}
		if r.conn.Cleanup != nil {
			r.conn.Cleanup()
		}
		// What the adapter's cleanup cannot reach: the program's children
		// outside its process group, and a program whose adapter died
		// before it could end it.
		if r.mark != "" {
			if killed := proc.KillMarked(r.mark); len(killed) > 0 {
				r.s.log.Info("killed the rest of the program's processes", "pids", killed)
			}
		}
	})
}

// shutdown says goodbye to the adapter (bounded), then cleans up.
func (r *connection) shutdown(terminate bool) {
	r.closing.Store(true)
	if !r.ended() && r.s.quirks().Supports("disconnect") {
		ctx, cancel := context.WithTimeout(context.Background(), disconnectTimeout)
		args := map[string]any{"terminateDebuggee": terminate, "restart": false}
		if err := r.client.Call(ctx, "disconnect", args, nil); err != nil {
			r.s.log.Debug("disconnect", "err", err)
		}
		cancel()
	}
	r.cleanup()
	<-r.done
}

// call sends one request on the run's connection, unless the adapter's
// quirks forbid it: some adapters (rdbg, 1.4 to 1.6 at least) drop the connection on a
// request they do not know, so refusing here keeps the session alive and
// tells the agent why. Every request a tool causes goes through it.
func (r *connection) call(ctx context.Context, command string, args, body any) error {
	if q := r.conn.Quirks; !q.Supports(command) {
		return errorf("this adapter cannot do it; the session is still usable", "%s is not supported by %s", command, r.adapterName())
	}
	return r.client.Call(ctx, command, args, body)
}

// adapterName names the adapter in "not supported" errors.
func (r *connection) adapterName() string {
	if w := r.conn.Quirks.UnsupportedWhy; w != "" {
		return w
	}
	return "the " + r.s.Language.ID + " debug adapter"
}
