package java

import (
	"context"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// thrown writes what an exception does to the user's calls on its
// thread: the frames it unwinds (exc, then unwind) and the frame that
// catches it (exc, then catch). JDWP sends no method exit for a frame an
// exception pops, so the unwound calls leave the stack here.
// docs/adapter-quirks.md, jvm-5.
func (r *recorder) thrown(ctx context.Context, e jdwp.Event) {
	stack := r.stacks[e.Thread]
	if len(stack) == 0 {
		return
	}
	frames, err := r.vm.Frames(ctx, e.Thread, 0, -1)
	if err != nil {
		return
	}
	catchAt := len(frames)
	if e.CatchLocation.Class != 0 {
		for i, f := range frames {
			if f.Location.Class == e.CatchLocation.Class && f.Location.Method == e.CatchLocation.Method {
				catchAt = i
				break
			}
		}
	}
	unwound := 0
	for _, f := range frames[:catchAt] {
		if r.isUserClass(ctx, f.Location.Class) {
			unwound++
		}
	}
	unwound = min(unwound, len(stack))
	exc := r.exception(ctx, e.Exception)
	raised := r.isUserClass(ctx, e.Location.Class)
	userFrames := r.userFrames(ctx, frames)
	for i := range unwound {
		c := stack[len(stack)-1-i]
		line := r.types.lineOf(ctx, userFrames[i].Location)
		r.log.add(recEvent{K: "exc", ID: c.id, Type: exc.typ, Msg: exc.msg, Line: line, Raised: &raised})
		r.log.add(recEvent{K: "unwind", ID: c.id, Type: exc.typ, Line: line})
		raised = false
	}
	r.stacks[e.Thread] = stack[:len(stack)-unwound]
	if unwound == len(stack) {
		r.unwatchExits(ctx, e.Thread)
	}
	if catchAt < len(frames) && r.isUserClass(ctx, frames[catchAt].Location.Class) && unwound < len(stack) {
		c := stack[len(stack)-1-unwound]
		line := r.types.lineOf(ctx, frames[catchAt].Location)
		r.log.add(recEvent{K: "exc", ID: c.id, Type: exc.typ, Msg: exc.msg, Line: line, Raised: &raised})
		r.log.add(recEvent{K: "catch", ID: c.id, Type: exc.typ, Line: r.types.lineOf(ctx, e.CatchLocation)})
		return
	}
	if unwound == len(stack) && r.threadName(ctx, e.Thread) == "" {
		r.escaped = &exc
	}
}

// userFrames are the frames of the user's classes, innermost first.
func (r *recorder) userFrames(ctx context.Context, frames []jdwp.Frame) []jdwp.Frame {
	var out []jdwp.Frame
	for _, f := range frames {
		if r.isUserClass(ctx, f.Location.Class) {
			out = append(out, f)
		}
	}
	return out
}

// isUserClass reports whether a class is one the recording follows.
func (r *recorder) isUserClass(ctx context.Context, t jdwp.ReferenceTypeID) bool {
	name := r.types.className(ctx, t)
	for _, p := range r.patterns {
		if classPatternMatches(p, name) {
			return true
		}
	}
	return false
}

// classPatternMatches matches a class name as JDWP's ClassMatch does: a
// pattern is a name, or a prefix followed by "*".
func classPatternMatches(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == name
}

// exception reads an exception's class and message field (Throwable's
// detailMessage), never calling getMessage.
func (r *recorder) exception(ctx context.Context, v jdwp.Value) recException {
	_, class, err := r.vm.ReferenceType(ctx, v.Object)
	if err != nil {
		return recException{typ: "?"}
	}
	out := recException{typ: r.types.className(ctx, class)}
	if _, f, ok := r.types.findField(ctx, class, "detailMessage"); ok {
		if vals, err := r.vm.FieldValues(ctx, v.Object, []jdwp.FieldID{f.ID}); err == nil && len(vals) == 1 && vals[0].Object != 0 {
			if msg, err := r.vm.StringValue(ctx, vals[0].Object); err == nil {
				msg = cutString(msg)
				out.msg = &msg
			}
		}
	}
	return out
}
