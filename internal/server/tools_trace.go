package server

import (
	"context"
	"fmt"
)

type getTraceArgs struct {
	SessionID string `json:"sessionId"`
	Since     Int    `json:"since,omitempty" jsonschema:"return entries after this seq (pass the previous nextSince; 0: from the start)"`
	Limit     Int    `json:"limit,omitempty" jsonschema:"at most this many entries (default 100)"`
	Wait      Int    `json:"wait,omitempty" jsonschema:"ms to wait for a first entry when there is none (max 30000)"`
	Times     bool   `json:"times,omitempty" jsonschema:"add a time column (HH:MM:SS.mmm) to every row"`
}

type getTraceResult struct {
	Success bool         `json:"success"`
	Tables  []traceTable `json:"tables"`
	// Count is how many trace entries (hits, calls, returns, notes) the
	// tables hold.
	Count     int    `json:"count"`
	NextSince uint64 `json:"nextSince"`
	More      bool   `json:"more,omitempty"`
	Dropped   uint64 `json:"dropped,omitempty"`
	Message   string `json:"message"`
}

// defaultTraceLimit keeps a get_trace answer within a few KB.
const defaultTraceLimit = 100

func (s *Server) addTraceTools() {
	addTool(s, "get_trace",
		"Read the trace buffer: tracepoint hits (collect, print probes) and traced calls, a table each: columns once, a row per hit.",
		s.getTrace)
}

func (s *Server) getTrace(ctx context.Context, a *getTraceArgs) (*getTraceResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Since < 0 || a.Limit < 0 || a.Wait < 0 {
		return nil, userError("since, limit and wait are counts: 0 or more", "negative argument")
	}
	limit := int(a.Limit)
	if limit == 0 {
		limit = defaultTraceLimit
	}
	if a.Wait > 0 {
		// Capped as get_output's wait is: {wait: 1e18} held the call
		// until the client gave up.
		sess.Trace().Wait(ctx, uint64(a.Since), millis(min(a.Wait, 30000)))
	}
	page := sess.Trace().Since(uint64(a.Since), limit)
	msg := fmt.Sprintf("%d trace entries.", len(page.Entries))
	if page.More {
		msg += fmt.Sprintf(" More follow: call get_trace with since=%d.", page.NextSince)
	}
	if page.Dropped > 0 {
		msg += fmt.Sprintf(" %d older entries were dropped from the buffer.", page.Dropped)
	}
	tables := traceTables(page.Entries, a.Times)
	return &getTraceResult{Success: true, Tables: tables, Count: len(page.Entries), NextSince: page.NextSince, More: page.More, Dropped: page.Dropped, Message: msg}, nil
}

type traceFunctionArgs struct {
	SessionID string `json:"sessionId"`
	Function  string `json:"function" jsonschema:"function to trace, named as for a function breakpoint (e.g. discount, main.weigh)"`
	MaxCalls  Int    `json:"maxCalls,omitempty" jsonschema:"stop tracing after this many calls (default: no limit)"`
}

type traceFunctionResult struct {
	Success      bool   `json:"success"`
	BreakpointID int    `json:"breakpointId"`
	Function     string `json:"function"`
	Verified     bool   `json:"verified"`
	Message      string `json:"message"`
}

func (s *Server) addTraceFunctionTool() {
	addTool(s, "trace_function",
		"Record every call of a function (arguments, return value) into get_trace, without stopping; remove_breakpoint with its breakpointId ends it.",
		s.traceFunction)
}

func (s *Server) traceFunction(ctx context.Context, a *traceFunctionArgs) (*traceFunctionResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.MaxCalls < 0 {
		return nil, userError("pass maxCalls as a positive count, or leave it out", "maxCalls is negative")
	}
	fb, err := sess.TraceFunction(ctx, a.Function, int(a.MaxCalls))
	if err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("Tracing %s (breakpoint %d): calls and returns go to get_trace.", fb.FunctionName, fb.ID)
	if fb.Message != "" {
		msg += " " + fb.Message
	}
	return &traceFunctionResult{Success: true, BreakpointID: fb.ID, Function: fb.FunctionName, Verified: fb.Verified, Message: msg}, nil
}
