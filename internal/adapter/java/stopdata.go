package java

import (
	"context"
	"errors"
	"runtime/debug"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// Every stop is followed by the same questions (the stack, the top
// frame's scopes and locals), so the adapter starts reading the answers
// when it sends the stopped event, while the event travels to the client
// and the client's stackTrace travels back. What it read is kept for the
// rest of the stop: the stopped thread's frames (their ids are read again
// after a method invocation, which invalidates them; their locations stay
// true) and the locals of each frame asked for (a suspended frame's
// locals cannot change: invocations run new frames above it).

// stopData is what is known of the stopped thread during one stop.
type stopData struct {
	s      *server
	thread jdwp.ObjectID

	// The mutexes are held while loading, so that a request arriving
	// during the prefetch waits for its answer instead of asking again;
	// two of them, so that the stack is answered while locals are read.
	framesMu sync.Mutex
	frames   []jdwp.Frame
	gen      uint64 // invokeGen the frame ids belong to
	loaded   bool
	localsMu sync.Mutex
	locals   map[int]*frameLocalsEntry // by depth
}

// frameLocalsEntry is one frame's locals, for the location read at.
type frameLocalsEntry struct {
	loc  jdwp.Location
	vars []localVar
	err  error
}

func newStopData(s *server, thread jdwp.ObjectID) *stopData {
	return &stopData{s: s, thread: thread, locals: map[int]*frameLocalsEntry{}}
}

// allFrames returns the thread's whole stack, read once per stop (and
// again after an invocation). One Frames command with length -1 replaces
// FrameCount and Frames.
func (d *stopData) allFrames(ctx context.Context) ([]jdwp.Frame, uint64, error) {
	d.framesMu.Lock()
	defer d.framesMu.Unlock()
	gen := d.s.invokeGen.Load()
	if d.loaded && d.gen == gen {
		return d.frames, d.gen, nil
	}
	frames, err := d.s.vm.Frames(ctx, d.thread, 0, -1)
	if err != nil {
		return nil, 0, err
	}
	d.frames, d.gen, d.loaded = frames, gen, true
	return frames, gen, nil
}

// localsAt returns a frame's locals, read by load on the first request.
// An answer that may change (a failed read) is not kept; "no debug
// information" is.
func (d *stopData) localsAt(depth int, loc jdwp.Location, load func() ([]localVar, error)) ([]localVar, error) {
	d.localsMu.Lock()
	defer d.localsMu.Unlock()
	if e := d.locals[depth]; e != nil && e.loc == loc {
		return e.vars, e.err
	}
	vars, err := load()
	if err == nil || errors.Is(err, errNoDebugInfo) {
		d.locals[depth] = &frameLocalsEntry{loc: loc, vars: vars, err: err}
	}
	return vars, err
}

// stopDataFor is the current stop's data when it is a stop of thread.
func (s *server) stopDataFor(thread jdwp.ObjectID) *stopData {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || s.cur.thread != thread || s.cur.data == nil {
		return nil
	}
	return s.cur.data
}

// prefetchFrames is how many frames a stop's prefetch describes: as many
// as a client's first stackTrace asks for.
const prefetchFrames = 20

// prefetch reads, on a goroutine the server waits for at shutdown, the
// stack and top frame's locals of a stop being shown, and what rendering
// those locals needs.
func (s *server) prefetch(st *stop) {
	d := st.data
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		// Only a head start for the requests that follow: a panic here
		// must not end the server with it; the requests then read what
		// they need themselves (and fail alone, in Handle, if they panic
		// too).
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("java adapter: prefetch panicked", "panic", r, "stack", string(debug.Stack()))
			}
		}()
		ctx, cancel := context.WithTimeout(s.ctx, requestTimeout)
		defer cancel()
		frames, gen, err := d.allFrames(ctx)
		if err != nil || len(frames) == 0 {
			return
		}
		// The classes of the frames a stackTrace shows, while the top
		// frame's locals are read.
		var described dapserver.Workers
		described.Go(func() {
			s.describeFrames(ctx, nil, frames[:min(len(frames), prefetchFrames)])
		})
		top := frames[0]
		vars, _ := d.localsAt(0, top.Location, func() ([]localVar, error) {
			return s.frameLocals(ctx, d.thread, s.frameIDAt(ctx, d.thread, 0, top.ID, gen), top.Location)
		})
		vals := make([]jdwp.Value, len(vars))
		for i, v := range vars {
			vals[i] = v.value
		}
		s.warm(ctx, vals)
		described.Wait()
	}()
}

// frameIDAt is frameID for callers that report a failure through the
// read that uses the id: an invalid id makes that read fail.
func (s *server) frameIDAt(ctx context.Context, thread jdwp.ObjectID, depth int, id jdwp.FrameID, gen uint64) jdwp.FrameID {
	if f, err := s.frameID(ctx, thread, depth, id, gen); err == nil {
		return f
	}
	return id
}

// localsAt reads a frame's locals, through the current stop's data when
// the frame is of the stopped thread. frame is asked for only when the
// locals are read.
func (s *server) localsAt(ctx context.Context, thread jdwp.ObjectID, depth int, loc jdwp.Location, frame func() (jdwp.FrameID, error)) ([]localVar, error) {
	load := func() ([]localVar, error) {
		id, err := frame()
		if err != nil {
			return nil, err
		}
		return s.frameLocals(ctx, thread, id, loc)
	}
	if d := s.stopDataFor(thread); d != nil {
		return d.localsAt(depth, loc, load)
	}
	return load()
}
