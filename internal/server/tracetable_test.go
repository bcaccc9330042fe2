package server

import (
	"encoding/json"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// A page can start with a return whose call came in the page before, and a
// traced function can run on several threads: the rows still line up under
// their columns, and say which thread.
func TestTraceTablesReturnsAcrossPagesAndThreads(t *testing.T) {
	entries := []session.TraceEntry{
		{Seq: 7, Kind: session.TraceReturn, BreakpointID: 2, Function: "weigh", Call: 5, Return: &session.TraceValue{Name: "~r0", Value: "6"}},
		{Seq: 8, Kind: session.TraceCall, BreakpointID: 2, Function: "weigh", File: "/p/w.go", Line: 14, ThreadID: 1, Values: []session.TraceValue{{Name: "item", Value: "3"}}},
		{Seq: 9, Kind: session.TraceCall, BreakpointID: 2, Function: "weigh", File: "/p/w.go", Line: 14, ThreadID: 4, Values: []session.TraceValue{{Name: "item", Value: "4"}}},
		{Seq: 10, Kind: session.TraceReturn, BreakpointID: 2, Function: "weigh", Call: 9, Note: "the debugger shows no return value after stepping out"},
		{Seq: 11, Kind: session.TraceNote, BreakpointID: 2, Function: "weigh", Note: "trace of weigh reached maxCalls and was removed"},
	}
	tables := traceTables(entries, false)
	got, _ := json.Marshal(tables)
	want := `[{"breakpointId":2,"kind":"function","file":"/p/w.go","line":14,"function":"weigh","columns":["thread","item","return"],` +
		`"rows":[[0,null,"6"],[1,"3",null],[4,"4",{"error":"the debugger shows no return value after stepping out"}]],` +
		`"notes":["trace of weigh reached maxCalls and was removed"]}]`
	if string(got) != want {
		t.Errorf("tables:\n got %s\nwant %s", got, want)
	}
}
