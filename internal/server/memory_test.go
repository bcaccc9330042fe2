package server

import (
	"strings"
	"testing"
)

// Data breakpoints, disassembly and memory reads, on real lldb-dap with
// testdata/native/c/loop.c (its README lists the lines).

func TestNativeDataBreakpointStopsOnWrite(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 40})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 40)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})

	set := h.ok("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"})
	if set.num("breakpointId") == 0 || len(set.list("dataBreakpoints")) != 1 {
		t.Fatalf("set_data_breakpoint: %v", set)
	}
	hit := h.ok("continue_execution", map[string]any{"sessionId": id})
	if hit.str("state") != "paused" || hit.str("stopReason") != "data breakpoint" {
		t.Fatalf("writing total should stop the program: %v", hit)
	}
	if hit.obj("location").str("function") != "main" {
		t.Errorf("the write happens in main: %v", hit["location"])
	}
	if got := hit.vars("locals")["total"]; got != "0" && got != "3" {
		t.Errorf("total after the first write: %q", got)
	}
	h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total", "accessType": "sometimes"}, "accessType")
}

func TestNativeDisassembleAndReadMemory(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 13)

	dis := h.ok("disassemble", map[string]any{"sessionId": id, "count": 10})
	ins := dis.list("instructions")
	current := 0
	for _, in := range ins {
		if in["current"] == true {
			current++
			if in.str("instruction") == "" || !strings.HasPrefix(in.str("address"), "0x") {
				t.Errorf("current instruction: %v", in)
			}
		}
	}
	if len(ins) < 5 || current != 1 {
		t.Fatalf("disassembly around the current instruction should mark exactly one: %v", dis)
	}

	// item is 0 on the first call; read &factor: the int 3.
	mem := h.ok("read_memory", map[string]any{"sessionId": id, "expression": "&factor", "count": 4})
	if mem.str("hex") != "03000000" || mem.num("count") != 4 || !strings.Contains(mem.str("dump"), "03 00 00 00") {
		t.Errorf("read_memory &factor: %v", mem)
	}
	again := h.ok("read_memory", map[string]any{"sessionId": id, "address": mem.str("address"), "count": 4})
	if again.str("hex") != "03000000" {
		t.Errorf("read_memory by address: %v", again)
	}
	h.fail("read_memory", map[string]any{"sessionId": id}, "needs an address or an expression")
	h.fail("read_memory", map[string]any{"sessionId": id, "address": mem.str("address"), "count": 100000}, "too large")
}

func TestMemoryToolsSayWhenUnsupported(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "basic.mock"), "stopOnEntry": true})
	h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, "not supported by the mock debug adapter")
	h.fail("disassemble", map[string]any{"sessionId": id}, "not supported by the mock debug adapter")
	h.fail("read_memory", map[string]any{"sessionId": id, "address": "0x1000"}, "not supported by the mock debug adapter")
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "1 + 1"}); ev.str("result") != "2" {
		t.Errorf("the session stays usable: %v", ev)
	}
}
