package java

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// recorder turns the JVM's events into recording events. It runs on one
// goroutine (run); every event that suspended its thread is answered by
// resuming that thread once the event is written.
type recorder struct {
	vm       *jdwp.Conn
	types    *typeCache
	values   *valueRenderer
	source   *sourceMap
	log      *eventLog
	patterns []string
	lines    []string

	stacks  map[jdwp.ObjectID][]*recCall
	threads map[jdwp.ObjectID]string
	lastID  int
	// escaped is the exception that left the main thread's last user
	// frame, for the end event.
	escaped *recException
	// entries holds the code index where each of the user's methods
	// starts: a breakpoint there is a call.
	entries map[methodKey]uint64
	// lineBPs marks the methods whose lines are watched.
	lineBPs map[methodKey]bool
	// exitReqs are the method exit requests of each thread that has a
	// user call running.
	exitReqs map[jdwp.ObjectID][]int32
}

// recCall is a call of the user's code still running.
type recCall struct {
	id     int
	class  jdwp.ReferenceTypeID
	method jdwp.MethodID
	// depth is the thread's frame count in the call: a jump back to the
	// method's first instruction (a loop at its start) is no new call.
	depth int
	// watched calls (a method named in lines) keep the rendered value of
	// each local and the line last reported, to say which line set what.
	watched bool
	locals  map[string]string
	line    int
}

// recException is an exception's type and message.
type recException struct {
	typ string
	msg *string
}

func newRecorder(vm *jdwp.Conn, lc *launchConfig, patterns, lines []string, log *eventLog) *recorder {
	types := newTypeCache(vm)
	return &recorder{
		vm: vm, types: types, values: newValueRenderer(vm, types), source: newSourceMap(lc), log: log,
		patterns: patterns, lines: lines,
		stacks: map[jdwp.ObjectID][]*recCall{}, threads: map[jdwp.ObjectID]string{},
		entries: map[methodKey]uint64{}, lineBPs: map[methodKey]bool{}, exitReqs: map[jdwp.ObjectID][]int32{},
	}
}

// request asks the VM for the loads of the user's classes, where the
// recorder plants its breakpoints (watchClass), and for exceptions.
//
// Calls are breakpoints on each method's first instruction rather than
// JDWP method entry events: those are posted for every method the VM
// runs, the JDK's too, and filtered by class name in the agent, which
// made a JUnit run of two tests take a minute. Returns are method exit
// events (they carry the value), asked for per thread only while the
// thread runs user code (watchExits). Every event suspends its thread:
// arguments are read from the frame, which JDWP gives only for a
// suspended thread, and a returned object's fields are read as they were
// when it was returned.
func (r *recorder) request(ctx context.Context) error {
	for _, p := range r.patterns {
		if _, err := r.vm.SetEvent(ctx, jdwp.EventClassPrepare, jdwp.SuspendThread, jdwp.ClassMatch(p)); err != nil {
			return fmt.Errorf("ask for the class loads of %s: %w", p, err)
		}
	}
	// Exceptions thrown in the JDK count too (Integer.parseInt's): the
	// throw's location may be anywhere, so no class filter applies.
	if _, err := r.vm.SetEvent(ctx, jdwp.EventException, jdwp.SuspendThread, jdwp.ExceptionOnly(0, true, true)); err != nil {
		return fmt.Errorf("ask for exception events: %w", err)
	}
	return nil
}

// watchExits asks for the method exits of the user's classes on a thread
// whose first user call began.
func (r *recorder) watchExits(ctx context.Context, thread jdwp.ObjectID) {
	for _, p := range r.patterns {
		id, err := r.vm.SetEvent(ctx, jdwp.EventMethodExitRV, jdwp.SuspendThread, jdwp.ThreadOnly(thread), jdwp.ClassMatch(p))
		if err == nil {
			r.exitReqs[thread] = append(r.exitReqs[thread], id)
		}
	}
}

// unwatchExits drops a thread's exit requests once it runs no user
// code: method exit events slow every method the thread runs.
func (r *recorder) unwatchExits(ctx context.Context, thread jdwp.ObjectID) {
	for _, id := range r.exitReqs[thread] {
		_ = r.vm.ClearEvent(ctx, jdwp.EventMethodExitRV, id)
	}
	delete(r.exitReqs, thread)
}

// run handles events until the VM has ended.
func (r *recorder) run(ctx context.Context) {
	for {
		select {
		case set, ok := <-r.vm.Events():
			if !ok {
				return
			}
			r.handle(ctx, set)
		case <-ctx.Done():
			return
		}
	}
}

// eventRank orders the events of one set as they happen: a class is
// prepared before its code runs, and a line runs before its method
// returns.
func eventRank(kind byte) int {
	switch kind {
	case jdwp.EventClassPrepare:
		return 0
	case jdwp.EventBreakpoint:
		return 1
	case jdwp.EventException:
		return 2
	}
	return 3
}

// handle records one event set and resumes what it suspended.
func (r *recorder) handle(ctx context.Context, set *jdwp.EventSet) {
	events := slices.Clone(set.Events)
	slices.SortStableFunc(events, func(a, b jdwp.Event) int { return eventRank(a.Kind) - eventRank(b.Kind) })
	var thread jdwp.ObjectID
	for _, e := range events {
		thread = e.Thread
		switch e.Kind {
		case jdwp.EventClassPrepare:
			r.watchClass(ctx, e.RefTypeTag, e.TypeID)
		case jdwp.EventBreakpoint:
			if start, ok := r.entries[methodKey{e.Location.Class, e.Location.Method}]; ok && start == e.Location.Index {
				r.entered(ctx, e)
			}
			r.lineReached(ctx, e)
		case jdwp.EventException:
			r.thrown(ctx, e)
		case jdwp.EventMethodExitRV:
			r.returned(ctx, e)
		}
	}
	switch {
	case set.SuspendPolicy == jdwp.SuspendThread && thread != 0:
		_ = r.vm.ResumeThread(ctx, thread)
	case set.SuspendPolicy == jdwp.SuspendAll:
		_ = r.vm.Resume(ctx)
	}
}

// entered writes a call with its arguments, read from the new frame,
// unless the breakpoint is a loop going back to the start of the call
// already running.
func (r *recorder) entered(ctx context.Context, e jdwp.Event) {
	class := r.types.className(ctx, e.Location.Class)
	m, _ := r.types.method(ctx, e.Location.Class, e.Location.Method)
	slots := argumentSlots(m)
	depth, top, err := r.frameDepth(ctx, e.Thread, len(slots) > 0)
	if err != nil {
		return
	}
	stack := r.stacks[e.Thread]
	parent := 0
	if n := len(stack); n > 0 {
		last := stack[n-1]
		if last.method == e.Location.Method && last.class == e.Location.Class && last.depth == depth {
			return
		}
		parent = last.id
	} else {
		r.watchExits(ctx, e.Thread)
	}
	r.lastID++
	c := &recCall{id: r.lastID, class: e.Location.Class, method: e.Location.Method, depth: depth}
	r.stacks[e.Thread] = append(stack, c)
	fn := class + "." + m.Name
	c.watched = r.lineBPs[methodKey{c.class, c.method}]
	args := r.arguments(ctx, e.Thread, e.Location, top, slots)
	if c.watched {
		c.locals = map[string]string{}
		for _, a := range args {
			c.locals[a[0]] = a[1]
		}
	}
	src, _ := r.types.sourceFile(ctx, c.class)
	file := r.source.find(class, src)
	if file == "" {
		file = src
	}
	r.log.add(recEvent{K: "call", ID: c.id, P: &parent, Th: r.threadName(ctx, e.Thread), Fn: fn, File: file, Line: r.types.lineOf(ctx, e.Location), Args: args})
}

// frameDepth is the number of frames on a suspended thread and, when
// withTop, the top frame's id, in one round trip either way.
func (r *recorder) frameDepth(ctx context.Context, thread jdwp.ObjectID, withTop bool) (int, jdwp.FrameID, error) {
	if !withTop {
		n, err := r.vm.FrameCount(ctx, thread)
		return n, 0, err
	}
	frames, err := r.vm.Frames(ctx, thread, 0, -1)
	if err != nil || len(frames) == 0 {
		return 0, 0, fmt.Errorf("frames of the recorded thread: %w", err)
	}
	return len(frames), frames[0].ID, nil
}

// arguments reads a method's arguments at its entry, in declaration
// order; without a local variable table they are named arg0, arg1, ….
func (r *recorder) arguments(ctx context.Context, thread jdwp.ObjectID, loc jdwp.Location, frame jdwp.FrameID, slots []argSlot) [][]string {
	if len(slots) == 0 {
		return nil
	}
	if vt, err := r.types.variableTable(ctx, loc.Class, loc.Method); err == nil {
		names := map[int32]string{}
		for _, v := range vt.Variables {
			if v.CodeIndex == loc.Index {
				names[v.Slot] = v.Name
			}
		}
		for i := range slots {
			if n, ok := names[slots[i].Slot]; ok {
				slots[i].name = n
			}
		}
	}
	req := make([]jdwp.SlotRequest, len(slots))
	for i, s := range slots {
		req[i] = s.SlotRequest
	}
	vals, err := r.vm.FrameValues(ctx, thread, frame, req)
	if err != nil {
		return nil
	}
	out := make([][]string, 0, len(vals))
	for i, v := range vals {
		out = append(out, []string{slots[i].name, r.values.render(ctx, v, 0)})
	}
	return out
}

// argSlot is where an argument lives in its method's frame.
type argSlot struct {
	jdwp.SlotRequest
	name string
}

// argumentSlots lays a method's parameters out in frame slots from its
// signature: `this` first in an instance method, two slots for a long or
// double.
func argumentSlots(m jdwp.MethodInfo) []argSlot {
	var out []argSlot
	slot := int32(0)
	if !m.Static() {
		slot = 1
	}
	sig := m.Signature
	for i := 1; i < len(sig) && sig[i] != ')'; i++ {
		tag := sig[i]
		for sig[i] == '[' {
			i++
		}
		if sig[i] == 'L' {
			i += strings.IndexByte(sig[i:], ';')
		}
		out = append(out, argSlot{jdwp.SlotRequest{Slot: slot, Tag: tag}, fmt.Sprintf("arg%d", len(out))})
		slot++
		if tag == 'J' || tag == 'D' {
			slot++
		}
	}
	return out
}

// returned writes a call's return value and the line it returned from.
func (r *recorder) returned(ctx context.Context, e jdwp.Event) {
	c := r.pop(e.Thread, e.Location)
	if c == nil {
		return
	}
	v := r.values.render(ctx, e.ReturnValue, 0)
	r.log.add(recEvent{K: "ret", ID: c.id, V: &v, Line: r.types.lineOf(ctx, e.Location)})
	if len(r.stacks[e.Thread]) == 0 {
		r.unwatchExits(ctx, e.Thread)
	}
}

// pop takes the call a method exit ends off its thread's stack.
func (r *recorder) pop(thread jdwp.ObjectID, loc jdwp.Location) *recCall {
	stack := r.stacks[thread]
	n := len(stack)
	if n == 0 {
		return nil
	}
	c := stack[n-1]
	r.stacks[thread] = stack[:n-1]
	if c.class != loc.Class || c.method != loc.Method {
		return nil
	}
	return c
}

// threadName is "" for the main thread, else the thread's name.
func (r *recorder) threadName(ctx context.Context, t jdwp.ObjectID) string {
	name, ok := r.threads[t]
	if !ok {
		name, _ = r.vm.ThreadName(ctx, t)
		if name == "main" {
			name = ""
		}
		r.threads[t] = name
	}
	return name
}

// end writes the end event: the exit code, and the exception that ended
// the main thread when one did.
func (r *recorder) end(code int) {
	e := recEvent{K: "end", Exit: &code}
	if r.escaped != nil {
		e.Type, e.Msg = r.escaped.typ, r.escaped.msg
	}
	r.log.always(e)
}
