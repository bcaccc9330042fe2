package java

import (
	"context"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// linesWanted reports whether a method ("pkg.Class.method") is named in
// the record's lines, by its whole name or a dotted tail of it
// ("Class.method", "method").
func (r *recorder) linesWanted(fn string) bool {
	for _, l := range r.lines {
		if fn == l || strings.HasSuffix(fn, "."+l) {
			return true
		}
	}
	return false
}

// Method modifiers of methods without bytecode.
const (
	accNative   = 0x0100
	accAbstract = 0x0400
)

// watchClass plants, in a newly prepared class of the user's, a
// breakpoint on each method's first instruction (a call) and, for the
// methods lines names, on the start of each line. The class's thread is
// suspended until they are set: none of its code has run yet.
func (r *recorder) watchClass(ctx context.Context, tag byte, t jdwp.ReferenceTypeID) {
	class := r.types.className(ctx, t)
	methods, err := r.types.methodsOf(ctx, t)
	if err != nil {
		return
	}
	for _, m := range methods {
		if m.ModBits&(accNative|accAbstract) != 0 {
			continue
		}
		key := methodKey{t, m.ID}
		lt, err := r.types.lineTable(ctx, t, m.ID)
		start := lt.Start
		if r.setBreakpoint(ctx, jdwp.Location{TypeTag: tag, Class: t, Method: m.ID, Index: start}) {
			r.entries[key] = start
		}
		if err != nil || !r.linesWanted(class+"."+m.Name) {
			continue
		}
		r.lineBPs[key] = true
		// Every entry of the line table starts a line's code: a loop's
		// header has one for its start and one where each turn goes
		// back to it.
		for _, e := range lt.Lines {
			if e.Index != start {
				r.setBreakpoint(ctx, jdwp.Location{TypeTag: tag, Class: t, Method: m.ID, Index: e.Index})
			}
		}
	}
}

// setBreakpoint sets a breakpoint that suspends its thread.
func (r *recorder) setBreakpoint(ctx context.Context, loc jdwp.Location) bool {
	_, err := r.vm.SetEvent(ctx, jdwp.EventBreakpoint, jdwp.SuspendThread, jdwp.LocationOnly(loc))
	return err == nil
}

// lineReached writes the locals the previous line changed (set events
// name that line) and the line about to run.
func (r *recorder) lineReached(ctx context.Context, e jdwp.Event) {
	stack := r.stacks[e.Thread]
	if len(stack) == 0 {
		return
	}
	c := stack[len(stack)-1]
	if !c.watched || c.method != e.Location.Method {
		return
	}
	if c.line != 0 {
		r.changedLocals(ctx, e.Thread, e.Location, c)
	}
	c.line = r.types.lineOf(ctx, e.Location)
	r.log.add(recEvent{K: "line", ID: c.id, Line: c.line})
}

// changedLocals compares the live locals with what the call last had.
func (r *recorder) changedLocals(ctx context.Context, thread jdwp.ObjectID, loc jdwp.Location, c *recCall) {
	vt, err := r.types.variableTable(ctx, loc.Class, loc.Method)
	if err != nil {
		return
	}
	var live []jdwp.Variable
	for _, v := range vt.Variables {
		if v.Name != "this" && v.CodeIndex <= loc.Index && loc.Index < v.CodeIndex+uint64(v.Length) {
			live = append(live, v)
		}
	}
	if len(live) == 0 {
		return
	}
	slices.SortFunc(live, func(a, b jdwp.Variable) int { return int(a.Slot - b.Slot) })
	frames, err := r.vm.Frames(ctx, thread, 0, 1)
	if err != nil || len(frames) == 0 {
		return
	}
	req := make([]jdwp.SlotRequest, len(live))
	for i, v := range live {
		req[i] = jdwp.SlotRequest{Slot: v.Slot, Tag: v.Signature[0]}
	}
	vals, err := r.vm.FrameValues(ctx, thread, frames[0].ID, req)
	if err != nil {
		return
	}
	for i, v := range vals {
		text := r.values.render(ctx, v, 0)
		if old, ok := c.locals[live[i].Name]; ok && old == text {
			continue
		}
		c.locals[live[i].Name] = text
		r.log.add(recEvent{K: "set", ID: c.id, Line: c.line, N: live[i].Name, V: &text})
	}
}
