package session

// C++ exceptions in a recording through lldb-dap. With its cpp_throw and
// cpp_catch exception breakpoints the program stops where an exception is
// thrown (__cxa_throw) and where a handler takes it (__cxa_begin_catch):
// the throw is held until the catch says where it went — a handler in the
// user's code ends the calls it left (unwind) and handles it there
// (catch); a handler in a library, taking an exception the library threw
// itself, leaves nothing in the recording. An exception no handler takes
// ends the program (std::terminate, SIGABRT), which exception records.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-dap"
	"github.com/ianlancetaylor/demangle"
)

// cppThrow, cppCatch are lldb-dap's C++ exception breakpoint filters, and
// the exceptionId of the stops they make.
const (
	cppThrow = "cpp_throw"
	cppCatch = "cpp_catch"
)

// cppExceptionType names a C++ exception whose type could not be read
// (lldb-dap's exceptionInfo for a throw says only "C++ Throw";
// thrownType reads it from the runtime's arguments).
const cppExceptionType = "C++ exception"

// thrownException is a throw not yet caught: the recorded call it was
// thrown in (or into, from a library).
type thrownException struct {
	call      *activeCall
	kind, msg string
	// lines are where each recorded call of the thread was at the throw
	// (by the time of the catch, the frames the exception left are gone).
	lines map[*activeCall]int
	// inUserCode: the throw statement is the user's (the frame under
	// __cxa_throw is a recorded function's).
	inUserCode bool
}

// watchCppExceptions asks lldb-dap to stop at every C++ throw and catch,
// where it offers both filters; it reports whether it did.
func watchCppExceptions(ctx context.Context, r *connection) bool {
	offered := func(id string) bool {
		return slices.ContainsFunc(r.caps.ExceptionBreakpointFilters, func(f dap.ExceptionBreakpointsFilter) bool { return f.Filter == id })
	}
	if !offered(cppThrow) || !offered(cppCatch) {
		return false
	}
	return r.call(ctx, "setExceptionBreakpoints", map[string]any{"filters": []string{cppThrow, cppCatch}}, nil) == nil
}

// cppException answers a stop at a C++ throw or catch; it reports false
// for any other exception stop, which it leaves alone.
func (rec *bpRecorder) cppException(ctx context.Context, r *connection, st *Stop) bool {
	if !rec.cppExceptions || st.Reason != "exception" {
		return false
	}
	var info dap.ExceptionInfoResponseBody
	if err := r.call(ctx, "exceptionInfo", map[string]any{"threadId": st.ThreadID}, &info); err != nil {
		return false
	}
	switch info.ExceptionId {
	case cppThrow:
		rec.thrown(ctx, r, st.ThreadID, info)
	case cppCatch:
		rec.caught(ctx, r, st.ThreadID)
	default:
		return false
	}
	return true
}

// thrown holds a throw until its catch, and lets the program go on to it.
func (rec *bpRecorder) thrown(ctx context.Context, r *connection, threadID int, info dap.ExceptionInfoResponseBody) {
	tc := rec.thread(threadID)
	kind, msg := cppExceptionType, ""
	if info.Details != nil {
		kind, msg = cmp.Or(info.Details.TypeName, kind), info.Details.Message
	}
	tc.thrown = rec.held(ctx, r, threadID, kind, msg)
	if x := tc.thrown; x != nil {
		frames, _ := recordedStack(ctx, r, threadID, 0, 2)
		x.inUserCode = len(frames) > 1 && frames[1].Name == x.call.fn
		if x.kind == cppExceptionType && len(frames) > 0 {
			x.kind = cmp.Or(thrownType(ctx, r, frames[0].Id), x.kind)
		}
	}
	rec.continueHolding(ctx, r, threadID)
}

// maxTypeName bounds the mangled type name read at a throw.
const maxTypeName = 512

// thrownType is the type a thread stopped at the entry of __cxa_throw
// throws, as C++ writes it (std::invalid_argument); "" when it cannot be
// read. By the Itanium C++ ABI the throw's second argument is the type's
// std::type_info, whose mangled name is pointed to by its second word.
// The C++ runtime has no debug information, so the argument is read from
// its register ($arg2) and the rest with readMemory: lldb-dap answered a
// cast expression on it (an evaluation needing the expression compiler)
// not at all.
func thrownType(ctx context.Context, r *connection, frameID int) string {
	var arg dap.EvaluateResponseBody
	if err := r.call(ctx, "evaluate", map[string]any{"expression": "$arg2", "frameId": frameID, "context": "watch"}, &arg); err != nil {
		return ""
	}
	typeInfo, err := strconv.ParseUint(strings.TrimPrefix(arg.Result, "0x"), 16, 64)
	// lldb writes a register's value with all its digits: two per byte.
	wordSize := (len(arg.Result) - len("0x")) / 2
	if err != nil || wordSize != 4 && wordSize != 8 {
		return ""
	}
	word, err := readTarget(ctx, r, typeInfo+uint64(wordSize), wordSize)
	if err != nil || len(word) != wordSize {
		return ""
	}
	// Little-endian: x86-64 and arm64, where lldb-dap and the Itanium
	// ABI meet.
	namePtr := uint64(binary.LittleEndian.Uint32(word))
	if wordSize == 8 {
		// libc++ on arm64 Apple marks a type_info whose name is not
		// unique with the pointer's top bit.
		namePtr = binary.LittleEndian.Uint64(word) &^ (1 << 63)
	}
	text, err := readTarget(ctx, r, namePtr, maxTypeName)
	end := bytes.IndexByte(text, 0)
	if err != nil || end <= 0 {
		return ""
	}
	// A mangled type, without the _Z of a symbol (GCC marks a type local
	// to a file with a leading *): demangled as the symbol of the type's
	// name string.
	mangled := strings.TrimPrefix(string(text[:end]), "*")
	name, err := demangle.ToString("_ZTS"+mangled, demangle.NoClones)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(name, "typeinfo name for ")
}

// readTarget reads up to n bytes of the program's memory at address.
func readTarget(ctx context.Context, r *connection, address uint64, n int) ([]byte, error) {
	var body dap.ReadMemoryResponseBody
	if err := r.call(ctx, "readMemory", map[string]any{"memoryReference": fmt.Sprintf("0x%x", address), "count": n}, &body); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(body.Data)
}

// continueHolding lets a thread stopped where an exception or a panic is
// raised go on to where it is handled, or to the program's end. A step
// under way (the step out of a call) cannot end normally once the
// exception unwinds its frame: it is dropped.
func (rec *bpRecorder) continueHolding(ctx context.Context, r *connection, threadID int) {
	if hook := r.conn.Quirks.BeforeContinue; hook != nil && rec.thread(threadID).step != stepNone {
		_ = hook(ctx, r.call, threadID)
	}
	rec.resume(ctx, r, threadID, stepNone)
}

// caught records where a held throw was handled: the calls between the
// throw and the handler's call unwound, the handler's call caught it.
// The thread then goes on towards the innermost call left.
func (rec *bpRecorder) caught(ctx context.Context, r *connection, threadID int) {
	tc := rec.thread(threadID)
	x := tc.thrown
	tc.thrown = nil
	frames, _ := recordedStack(ctx, r, threadID, 0, prefetchFrames)
	handler, line := rec.handlerCall(tc, frames)
	if x == nil || handler < 0 || !x.inUserCode && tc.stack[handler] == x.call && !rec.isUserFrame(frames, 1) {
		// A library caught what it threw itself, or nothing of the
		// user's is under the handler.
		rec.resume(ctx, r, threadID, tc.step)
		return
	}
	rec.handled(tc, x, handler, line)
	if len(frames) > 0 {
		rec.towardsInnermost(ctx, r, threadID, tc, frames[0])
		return
	}
	rec.resume(ctx, r, threadID, stepNone)
}

// handled records a held exception's way from where it was raised to the
// call at index handler of the thread's recorded calls, which handled it
// at line: raised, propagated into each call on the way and ending it,
// caught by the handler's call. The calls it ended leave the stack.
func (rec *bpRecorder) handled(tc *threadCalls, x *thrownException, handler, line int) {
	rec.propagate(tc, x, handler)
	c := tc.stack[handler]
	rec.out.add(recordEvent{kind: "catch", call: c.id, fields: []field{{"id", c.id}, {"type", x.kind}, {"line", line}}})
	tc.stack = tc.stack[:handler+1]
}

// propagate records a held exception raised in its call and passing
// into each of the thread's recorded calls down to index handler, ending
// each call above it (every one, for a handler of -1: nothing handles
// it).
func (rec *bpRecorder) propagate(tc *threadCalls, x *thrownException, handler int) {
	for i := len(tc.stack) - 1; i >= max(handler, 0); i-- {
		c := tc.stack[i]
		rec.passed(c, x.kind, x.msg, x.lines[c], c == x.call, i > handler)
	}
}

// held is a thrownException for the innermost recorded call of a thread
// stopped where it raises, with each call's line now.
func (rec *bpRecorder) held(ctx context.Context, r *connection, threadID int, kind, msg string) *thrownException {
	tc := rec.thread(threadID)
	n := len(tc.stack)
	if n == 0 {
		return nil
	}
	x := &thrownException{call: tc.stack[n-1], kind: kind, msg: msg, lines: map[*activeCall]int{}}
	for i, line := range callLines(ctx, r, threadID, tc.stack) {
		x.lines[tc.stack[i]] = line
	}
	return x
}

// handlerCall is the index in the thread's recorded calls of the call
// whose handler took the exception — the innermost whose function has a
// frame under the catch — and that frame's line; -1 when none has.
func (rec *bpRecorder) handlerCall(tc *threadCalls, frames []dap.StackFrame) (int, int) {
	for _, f := range frames {
		for i := len(tc.stack) - 1; i >= 0; i-- {
			if tc.stack[i].fn == f.Name {
				return i, f.Line
			}
		}
	}
	return -1, 0
}

// isUserFrame reports whether frame i of frames is one of the user's
// functions.
func (rec *bpRecorder) isUserFrame(frames []dap.StackFrame, i int) bool {
	if i >= len(frames) {
		return false
	}
	_, user := rec.funcs[frames[i].Name]
	return user
}
