package server

import (
	"cmp"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Data breakpoints, disassembly and memory reads, on real lldb-dap with
// testdata/native/c/loop.c (its README lists the lines).

// hostWatchpoints is what the hardware watchpoint probe says of this host.
// Whether watchpoints fire is the host's CPU or hypervisor, not a missing
// install, so tests of the real path check whichever answer the probe
// gives (see wantWatchpointsRefused); a probe that could not decide is a
// failure under CI, where the debuggers are installed.
func hostWatchpoints(t *testing.T) adapter.WatchpointStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := adapter.Watchpoints(ctx)
	if !st.Usable && !st.Probed && os.Getenv(adapter.WatchpointsEnv) == "" && os.Getenv("CI") == "true" {
		t.Fatalf("the hardware watchpoint probe could not decide: %s", st.Reason)
	}
	return st
}

// wantWatchpointsRefused checks, on a host whose watchpoints do not fire
// (the probe said so, nothing forced), what the agent gets instead of a
// data breakpoint that would never stop: set_data_breakpoint refused with
// the probe's reason, and break_on_change finding the change by steps and
// saying why. The program must be paused where total is 0, before
// total += weigh(i, 3) makes it 3 at line.
func wantWatchpointsRefused(t *testing.T, h *harness, id string, st adapter.WatchpointStatus, line int) {
	t.Helper()
	t.Logf("hardware watchpoints do not fire on this host; checking the refusal: %s", st.Reason)
	refused := h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, st.Reason)
	if !strings.Contains(refused.str("hint"), "break_on_change") {
		t.Errorf("the refusal should say what to use instead: %v", refused)
	}
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	if found["changed"] != true || found.str("from") != "0" || found.str("to") != "3" || found.obj("changedBy").num("line") != line {
		t.Errorf("break_on_change should find 0 -> 3 at line %d: %v", line, found)
	}
	if found.str("method") != "single steps" || !strings.Contains(found.str("methodReason"), st.Reason) {
		t.Errorf("break_on_change should say it stepped because of the probe: method %q, methodReason %q", found.str("method"), found.str("methodReason"))
	}
}

// pausedBeforeTotalChanges starts a session of language on program (src
// holding the line, when not the program itself) paused at line, where
// total is 0 and the next line's total += weigh(i, 3) writes it, with no
// breakpoint left to interfere.
func (h *harness) pausedBeforeTotalChanges(language, src, program string, line int) string {
	h.t.Helper()
	if program == "" {
		program = src
	}
	id := h.sessionFor(language)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	wantStop(h.t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program}), "breakpoint", line)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	return id
}

// stepsWithoutWatchpoints checks a break_on_change answer found by single
// steps because data breakpoints are off.
func stepsWithoutWatchpoints(t *testing.T, found result, from, to string, line int) {
	t.Helper()
	if found["changed"] != true || found.str("from") != from || found.str("to") != to || found.obj("changedBy").num("line") != line {
		t.Errorf("break_on_change should find %s -> %s at line %d: %v", from, to, line, found)
	}
	if found.str("method") != "single steps" || !strings.Contains(found.str("methodReason"), adapter.WatchpointsEnv+"=off") || found.num("steps") == 0 {
		t.Errorf("break_on_change should say it stepped, and why: method %q, methodReason %q, steps %d", found.str("method"), found.str("methodReason"), found.num("steps"))
	}
}

// TestNativeDataBreakpointsOffWithoutWatchpoints: where data breakpoints
// are off (forced here, as on a host whose watchpoints do not fire),
// set_data_breakpoint says why and what to use, and break_on_change finds
// the change by stepping.
func TestNativeDataBreakpointsOffWithoutWatchpoints(t *testing.T) {
	t.Setenv(adapter.WatchpointsEnv, "off")
	h := newHarness(t)
	id := h.pausedBeforeTotalChanges("c", nativeProgram(t, "c", "loop.c"), "", 40)

	refused := h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, adapter.WatchpointsEnv+"=off")
	if msg := refused.str("error"); !strings.Contains(msg, "break_on_change") || !strings.Contains(refused.str("hint"), "break_on_change") {
		t.Errorf("the refusal should say what to use instead: %v", refused)
	}
	// total += weigh(i, 3) writes 0 on the first pass and 3 on the second.
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	stepsWithoutWatchpoints(t, found, "0", "3", 40)
	// changedBy leaves out the function it shares with the stop's location.
	if cmp.Or(found.obj("changedBy").str("function"), found.obj("location").str("function")) != "main" || found.str("state") != "paused" || found.vars("locals")["total"] != "3" {
		t.Errorf("the program stays paused just after the change, in main: %v", found)
	}
}

// TestNativeBreakOnChangeByDataBreakpoint: where hardware watchpoints
// fire, break_on_change uses a data breakpoint and names the writing line
// (elsewhere the agent is told why not). The watchpoint stops the program
// after the store, on line 41's first instruction: changedBy must still
// say 40, `total += weigh(i, 3)`, as the stepping fallback does.
func TestNativeBreakOnChangeByDataBreakpoint(t *testing.T) {
	h := newHarness(t)
	id := h.pausedBeforeTotalChanges("c", nativeProgram(t, "c", "loop.c"), "", 40)
	if st := hostWatchpoints(t); !st.Usable {
		wantWatchpointsRefused(t, h, id, st, 40)
		t.Skip("hardware watchpoints do not fire on this host (the probe's reason above): the refusal and the stepping fallback were checked, the data breakpoint's changedBy cannot be; TestNativeDataBreakpointsOffWithoutWatchpoints and session's TestWritingLocationIsTheStoresLine check the line here")
	}
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	// changedBy leaves out the file and function it shares with the
	// stop's location.
	fn := cmp.Or(found.obj("changedBy").str("function"), found.obj("location").str("function"))
	if found["changed"] != true || found.str("from") != "0" || found.str("to") != "3" || fn != "main" || found.obj("changedBy").num("line") != 40 {
		t.Errorf("break_on_change should find total 0 -> 3 at line 40, in main: %v", found)
	}
	if found.str("method") != "data breakpoint" || found.str("methodReason") != "" {
		t.Errorf("where watchpoints fire, break_on_change uses one: %v", found)
	}
}

func TestNativeDataBreakpointStopsOnWrite(t *testing.T) {
	h := newHarness(t)
	id := h.pausedBeforeTotalChanges("c", nativeProgram(t, "c", "loop.c"), "", 40)
	if st := hostWatchpoints(t); !st.Usable {
		wantWatchpointsRefused(t, h, id, st, 40)
		return
	}

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

	if lldbDAPMajor(t) <= 19 {
		// lldb-dap 19.1.7 has no readMemory (its initialize answer lacks
		// supportsReadMemoryRequest; 22.1.8 has it): the tool says so.
		h.fail("read_memory", map[string]any{"sessionId": id, "expression": "&factor", "count": 4}, "read_memory is not supported by the c debug adapter")
		return
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
