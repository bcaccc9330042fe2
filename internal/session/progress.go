package session

import (
	"context"
	"time"
)

// ProgressFunc is told, while a call waits for the program to stop, how
// long it has waited and how long it may wait in all.
type ProgressFunc func(waited, limit time.Duration)

type progressKey struct{}

// WithProgress returns a context under which waits for a stop report their
// progress to f about once a progressInterval.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressInterval is how often a waiting call reports.
const progressInterval = time.Second

// progressTicker returns a channel that ticks every progressInterval when
// ctx carries a ProgressFunc (nil otherwise: it never fires), the func, and
// a stop for the ticker.
func progressTicker(ctx context.Context) (<-chan time.Time, ProgressFunc, func()) {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	if f == nil {
		return nil, nil, func() {}
	}
	t := time.NewTicker(progressInterval)
	return t.C, f, t.Stop
}
