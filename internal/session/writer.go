package session

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/google/go-dap"
)

// writerTimeout bounds the one disassemble request that finds the line of
// a write: the answer is a stop's, and it must not wait on a slow adapter.
const writerTimeout = 5 * time.Second

// writingLocation is the line whose instruction wrote the value a data
// breakpoint watched, for a stop where that write has already changed the
// value. A hardware watchpoint traps after the storing instruction (on
// x86 a data breakpoint is a trap), so the stop's pc, and the line the
// adapter reports, is the next instruction's: `total += weigh(i, 3)` on
// line 40 is reported at line 41's printf when the store is its line's
// last instruction (docs/adapter-quirks.md, lldb-26, delve-22). The value
// having changed says the store has run, so the writer is the instruction
// before the pc (a store does not branch); where the adapter already
// reports the writing line, that instruction is on it too, and the answer
// is the same. Its line comes from the adapter's own disassembly and line
// table, never from a guess. When the adapter cannot disassemble there,
// or that instruction has no line in the frame's file, the stop's own
// location stands.
func (s *Session) writingLocation(ctx context.Context, r *connection, st *Stop) *Location {
	at := locationOf(st)
	if at == nil || !r.caps.SupportsDisassembleRequest || !r.conn.Quirks.Supports("disassemble") {
		return at
	}
	frame := st.frames[st.top]
	if frame.InstructionPointerReference == "" {
		return at
	}
	ctx, cancel := context.WithTimeout(ctx, writerTimeout)
	defer cancel()
	prev, err := previousInstruction(ctx, r, frame.InstructionPointerReference)
	if err != nil {
		s.log.Debug("the line of a watched write: the stop's own", "err", err)
		return at
	}
	if line, ok := writerLine(prev, frame); ok {
		return &Location{File: at.File, Line: line, Column: prev.Column, Function: at.Function}
	}
	return at
}

// previousInstruction returns the instruction just before the one at pc.
// The request asks for it and the one at pc: an adapter that disassembles
// backwards from a bare address can land in the middle of an instruction
// on x86, whose instructions vary in length, so the answer must end at pc
// for the first one to be the instruction before it. It comes first in the
// answer because lldb-dap and Delve name a location only on the first of a
// run of instructions with the same line (docs/adapter-quirks.md, lldb-27,
// delve-23).
func previousInstruction(ctx context.Context, r *connection, pc string) (dap.DisassembledInstruction, error) {
	var body dap.DisassembleResponseBody
	args := map[string]any{"memoryReference": pc, "instructionOffset": -1, "instructionCount": 2, "resolveSymbols": true}
	if err := r.call(ctx, "disassemble", args, &body); err != nil {
		return dap.DisassembledInstruction{}, fmt.Errorf("disassemble before %s: %w", pc, err)
	}
	ins := body.Instructions
	if len(ins) != 2 || !sameAddress(ins[1].Address, pc) || sameAddress(ins[0].Address, pc) {
		return dap.DisassembledInstruction{}, fmt.Errorf("disassemble before %s: the answer does not end at that instruction (%d instructions)", pc, len(ins))
	}
	return ins[0], nil
}

// writerLine is the line of the writing instruction in, when the adapter
// gave it one in the frame's file. The file is compared by its name: the
// disassembly's location is not a source the session maps between a
// remote program's paths and local ones, the frame's is.
func writerLine(in dap.DisassembledInstruction, frame dap.StackFrame) (int, bool) {
	if in.Line <= 0 {
		// Code without a line (line 0: compiler-made) tells nothing.
		return 0, false
	}
	if in.Location == nil || in.Location.Path == "" || frame.Source == nil || frame.Source.Path == "" {
		return in.Line, true
	}
	if in.Location.Path == frame.Source.Path || filepath.Base(in.Location.Path) == filepath.Base(frame.Source.Path) {
		return in.Line, true
	}
	return 0, false
}
