package server

import (
	"context"
	"fmt"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type dataBreakpointArgs struct {
	SessionID  string `json:"sessionId"`
	Expression string `json:"expression" jsonschema:"the variable to watch, e.g. total or it.count"`
	AccessType string `json:"accessType,omitempty" jsonschema:"write (default), read or readWrite, as the adapter allows"`
	FrameID    *Int   `json:"frameId,omitempty" jsonschema:"frame whose variable it is (default: the current stop's frame)"`
}

type dataBreakpointResult struct {
	Success         bool                     `json:"success"`
	BreakpointID    int                      `json:"breakpointId"`
	Description     string                   `json:"description,omitempty"`
	Message         string                   `json:"message"`
	DataBreakpoints []session.DataBreakpoint `json:"dataBreakpoints"`
}

type disassembleArgs struct {
	SessionID string `json:"sessionId"`
	Address   string `json:"address,omitempty" jsonschema:"start here (e.g. 0x401136); default: around the current instruction"`
	FrameID   *Int   `json:"frameId,omitempty" jsonschema:"frame whose current instruction to show (default: the stop's frame)"`
	Count     Int    `json:"count,omitempty" jsonschema:"number of instructions (default 20, max 400)"`
}

type disassembleResult struct {
	Success      bool                  `json:"success"`
	Instructions []session.Instruction `json:"instructions"`
	Count        int                   `json:"count"`
}

type readMemoryArgs struct {
	SessionID  string `json:"sessionId"`
	Address    string `json:"address,omitempty" jsonschema:"where to read (e.g. 0x7ffd5000, or a memoryReference from the debugger)"`
	Expression string `json:"expression,omitempty" jsonschema:"instead of address: read where this pointer or array points, e.g. &total"`
	Offset     Int    `json:"offset,omitempty" jsonschema:"bytes to skip from the address"`
	Count      Int    `json:"count,omitempty" jsonschema:"bytes to read (default 64, max 4096)"`
}

type readMemoryResult struct {
	Success bool `json:"success"`
	session.Memory
}

func (s *Server) addMemoryTools() {
	addTool(s, "set_data_breakpoint",
		"Stop when a variable is written (or read): a hardware watchpoint for this run, set while paused. Where those do not fire, use break_on_change.",
		s.setDataBreakpoint)
	addTool(s, "disassemble",
		"Disassemble machine instructions around the current instruction (marked current) or at an address.",
		s.disassemble)
	addTool(s, "read_memory",
		"Read the program's memory at an address or where an expression points, as hex and ASCII.",
		s.readMemory)
}

func (s *Server) setDataBreakpoint(ctx context.Context, a *dataBreakpointArgs) (*dataBreakpointResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	bp, all, err := sess.SetDataBreakpoint(ctx, a.Expression, sess.FrameArg(ctx, a.FrameID.Ptr()), a.AccessType)
	if err != nil {
		return nil, err
	}
	return &dataBreakpointResult{
		Success:         true,
		BreakpointID:    bp.ID,
		Description:     bp.Description,
		Message:         fmt.Sprintf("Watching %s for %s access; continue_execution stops where it happens.", bp.Expression, bp.AccessType),
		DataBreakpoints: all,
	}, nil
}

func (s *Server) disassemble(ctx context.Context, a *disassembleArgs) (*disassembleResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	ins, err := sess.Disassemble(ctx, a.Address, sess.FrameArg(ctx, a.FrameID.Ptr()), int(a.Count))
	if err != nil {
		return nil, err
	}
	return &disassembleResult{Success: true, Instructions: ins, Count: len(ins)}, nil
}

func (s *Server) readMemory(ctx context.Context, a *readMemoryArgs) (*readMemoryResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	mem, err := sess.ReadMemory(ctx, a.Address, a.Expression, int(a.Offset), int(a.Count))
	if err != nil {
		return nil, err
	}
	return &readMemoryResult{Success: true, Memory: *mem}, nil
}
