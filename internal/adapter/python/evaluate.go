package python

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// evaluationLimiter bounds the evaluations of one debugpy connection.
//
// debugpy quirk: DAP's evaluate runs on the paused thread itself, and an
// expression that never ends holds that thread, and with it every later
// request for the thread, for good; neither pause nor cancel reaches it.
// pydevd (debugpy 1.6.3) can interrupt its own evaluations: past
// pydevd_constants.PYDEVD_INTERRUPT_THREAD_TIMEOUT seconds it raises
// KeyboardInterrupt in the evaluating thread (SIGINT for the main thread,
// PyThreadState_SetAsyncExc for others), and the evaluate answers with that
// error while the thread stays paused. The constant is read at each
// evaluation, so setting it in the program before an evaluation bounds that
// one; it is set again only when the limit changes.
// docs/adapter-quirks.md: debugpy-4.
type evaluationLimiter struct {
	mu  sync.Mutex
	set time.Duration
}

// interruptTimeoutExpression sets pydevd's interrupt timeout to seconds.
const interruptTimeoutExpression = "setattr(__import__('_pydevd_bundle.pydevd_constants', fromlist=['_']), 'PYDEVD_INTERRUPT_THREAD_TIMEOUT', %s)"

// limit is adapter.Quirks.LimitEvaluation for debugpy.
func (l *evaluationLimiter) limit(ctx context.Context, call adapter.CallFunc, frameID int, limit time.Duration) (map[string]any, error) {
	// Rounded, so that a deadline counted down from the same timeout
	// needs no new setting.
	limit = max(limit.Round(100*time.Millisecond), 100*time.Millisecond)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.set == limit || frameID == 0 {
		return nil, nil
	}
	seconds := strconv.FormatFloat(limit.Seconds(), 'f', 3, 64)
	args := map[string]any{"expression": fmt.Sprintf(interruptTimeoutExpression, seconds), "context": "watch", "frameId": frameID}
	if err := call(ctx, "evaluate", args, nil); err != nil {
		return nil, fmt.Errorf("set pydevd's evaluation timeout: %w", err)
	}
	l.set = limit
	return nil, nil
}
