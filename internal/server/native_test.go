package server

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on real lldb-dap and real C, C++ and
// Rust programs (testdata/native, whose README lists the lines used here).

func nativeProgram(t *testing.T, parts ...string) string {
	return filepath.Join(append([]string{repoRoot(t), "testdata", "native"}, parts...)...)
}

// expand returns the children of a variable of the snapshot or locals list.
func (h *harness) expand(id string, vars []result, name string) map[string]string {
	h.t.Helper()
	for _, v := range vars {
		if v.str("name") == name {
			return h.ok("get_variables", map[string]any{"sessionId": id, "scope": v.num("variablesReference")}).vars("variables")
		}
	}
	h.t.Fatalf("no variable %s in %v", name, vars)
	return nil
}

func TestNativeCBreakpointStepsAndEvaluate(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 40})

	began := time.Now()
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	t.Logf("first stop (C, including a cached or fresh compile): %v", time.Since(began))
	wantStop(t, snap, "breakpoint", 40)
	if l := snap.vars("locals"); l["i"] != "0" || l["total"] != "0" || l["label"] != `"total"` {
		t.Fatalf("locals at the first hit: %v", l)
	}
	if tid := snap.num("threadId"); tid <= 1 {
		t.Errorf("lldb-dap reports OS thread ids: %v", snap["threadId"])
	}
	if out := snap.outputText("output"); strings.Contains(out, "debug console") || strings.Contains(out, "Attached to process") {
		t.Errorf("lldb-dap's banner is not program output: %q", out)
	}
	locals := h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables")
	if it := h.expand(id, locals, "it"); !strings.Contains(it["name"], `"widget"`) || it["count"] != "3" {
		t.Errorf("struct it: %v", it)
	}
	if v := h.expand(id, locals, "values"); v["[0]"] != "10" || v["[2]"] != "30" {
		t.Errorf("array values: %v", v)
	}
	// Registers are a scope of their own, never taken for locals.
	for _, v := range locals {
		if strings.HasPrefix(v.str("name"), "rip") || v.str("name") == "General Purpose Registers" {
			t.Errorf("registers among locals: %v", v)
		}
	}

	in := h.ok("step_into", map[string]any{"sessionId": id})
	if loc := in.obj("location"); loc.str("function") != "weigh" || loc.num("line") != 13 {
		t.Fatalf("step_into should enter weigh: %v", in["location"])
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 14)
	if l := over.localsAfter(in); l["scaled"] != "0" {
		t.Errorf("scaled after the step: %v", l)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.obj("location").str("function") != "main" {
		t.Errorf("step_out should return to main: %v", out["location"])
	}
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 40)
	if l := next.vars("locals"); l["i"] != "1" {
		t.Errorf("locals at the second hit: %v", l)
	}
	// A plain value, not lldb's print form "(int) $0 = 13".
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "i * 10 + values[0] / 10 + 2"}); ev.str("result") != "13" {
		t.Errorf("evaluate: %v", ev)
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "no_such_name"}, "no_such_name")
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(stack) != 1 || stack[0].str("name") != "main" {
		t.Errorf("libc's start-up frames should be hidden: %v", stack)
	}
	if all := h.ok("get_stack_trace", map[string]any{"sessionId": id, "includeInternals": true}).list("stackFrames"); len(all) <= 1 {
		t.Errorf("includeInternals shows libc's frames: %v", all)
	}

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Errorf("the program should end with exit code 3: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "weighing 4\ntotal 30 widget 3 30\n") || strings.Contains(all, "\r") {
		t.Errorf("program output, \\r\\n normalised: %q", all)
	}
	if strings.Contains(all, "lldb.llvm.org") || strings.Contains(all, "exited with status") {
		t.Errorf("lldb-dap's chatter in program output: %q", all)
	}
}

func TestNativeCFunctionAndConditionalBreakpoints(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	h := newHarness(t)
	src := nativeProgram(t, "c", "loop.c")
	id := h.sessionFor("c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "weigh"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if loc := snap.obj("location"); snap.str("state") != "paused" || loc.str("function") != "weigh" || loc.num("line") != 13 {
		t.Fatalf("function breakpoint weigh: %v", snap)
	}

	id = h.sessionFor("c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13, "condition": "item == 2"})
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 13)
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * factor"}); ev.str("result") != "6" {
		t.Errorf("evaluate item * factor: %v", ev)
	}
}

// TestNativeStaleStepPlan: a step over weigh(2, 3) is interrupted by the
// breakpoint inside weigh; LLDB keeps that step-over, and without the
// adapter's fix the next continue finishes it in main (reason "step") instead
// of stopping at the breakpoint's next hit (docs/adapter-quirks.md, lldb-2).
func TestNativeStaleStepPlan(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	for _, stepAfter := range []bool{false, true} {
		h := newHarness(t)
		id := h.sessionFor("c")
		src := nativeProgram(t, "c", "loop.c")
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 40})
		wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 40)
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13, "condition": "item >= 2"})
		var snap result
		for steps := 0; ; steps++ {
			if steps > 20 {
				t.Fatalf("the steps never ran into the breakpoint: %v", snap)
			}
			snap = h.ok("step_over", map[string]any{"sessionId": id})
			if snap.str("stopReason") == "breakpoint" {
				break
			}
		}
		wantStop(t, snap, "breakpoint", 13)
		if snap.vars("locals")["item"] != "2" {
			t.Fatalf("interrupted at item 2: %v", snap.vars("locals"))
		}
		if stepAfter {
			wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 14)
		}
		began := time.Now()
		next := h.ok("continue_execution", map[string]any{"sessionId": id})
		t.Logf("continue after the interrupted step: %v", time.Since(began))
		wantStop(t, next, "breakpoint", 13)
		if next.vars("locals")["item"] != "3" {
			t.Errorf("the continue should stop at the next hit (item 3): %v", next.vars("locals"))
		}
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		if end := h.ok("continue_execution", map[string]any{"sessionId": id}); end.str("state") != "stopped" {
			t.Errorf("then run to the end: %v", end)
		}
	}
}

func TestNativeSegfaultStops(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	h := newHarness(t)
	id := h.sessionFor("c")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "c", "loop.c"), "args": []string{"crash"}})
	t.Logf("segfault: %v", snap)
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" {
		t.Fatalf("segfault stop: %v", snap)
	}
	if loc := snap.obj("location"); loc.str("function") != "crash" || loc.num("line") != 20 {
		t.Errorf("segfault location: %v", loc)
	}
	if d := snap.str("description") + snap.obj("exception").str("description"); !strings.Contains(d, "SIGSEGV") {
		t.Errorf("segfault description: %q", d)
	}
}

func TestNativeCompileErrorVerbatim(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	h := newHarness(t)
	id := h.sessionFor("c")
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "c", "bad.c")}, "bad.c:4:16: error: ‘undefined_name’ undeclared")
	t.Logf("compile error: %v", out["error"])
}

func TestNativeCppValues(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y g++", "c++")
	h := newHarness(t)
	id := h.sessionFor("c++")
	src := nativeProgram(t, "cpp", "shapes.cpp")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 13)
	if s := h.expand(id, snap.list("locals"), "s"); s["name"] != `"triangle"` || s["sides"] != "3" {
		t.Errorf("struct reference s: %v", s)
	}
	up := h.ok("step_out", map[string]any{"sessionId": id})
	if up.obj("location").str("function") != "main" {
		t.Fatalf("step_out: %v", up["location"])
	}
	locals := h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables")
	l := map[string]string{}
	for _, v := range locals {
		l[v.str("name")] = v.str("value")
	}
	if l["title"] != `"shapes"` || !strings.Contains(l["sizes"], "size=3") {
		t.Errorf("std::string and std::vector: %v", l)
	}
	if sizes := h.expand(id, locals, "sizes"); sizes["[2]"] != "3" {
		t.Errorf("sizes expanded: %v", sizes)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "sizes.size()"}); ev.str("result") != "3" {
		t.Errorf("evaluate sizes.size(): %v", ev)
	}
}

// lldb-dap shows a std::vector as "size=3" only; snapshots and traces show
// its first elements too, so an agent reads them without expanding.
func TestNativeCppVectorElementsInline(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y g++", "c++")
	h := newHarness(t)
	id := h.sessionFor("cpp")
	src := nativeProgram(t, "cpp", "shapes.cpp")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 28})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 28)
	if l := snap.vars("locals"); l["sizes"] != "size=3 [1, 2, 3]" || l["shapes"] != "size=2" {
		t.Errorf("the snapshot shows the vector's elements, unless they are structs shown by their type's name: %v", l)
	}
	if w := h.ok("add_watch", map[string]any{"sessionId": id, "expression": "sizes"}).obj("watch"); w.str("value") != "size=3 [1, 2, 3]" {
		t.Errorf("a watch shows the vector's elements: %v", w)
	}
}

// A traced call records a Rust slice argument with its elements.
func TestNativeRustTraceShowsElements(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "wait_forever", "maxCalls": 1})
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "args": []string{"wait"}, "waitForStop": false})
	page := h.ok("get_trace", map[string]any{"sessionId": id, "wait": 60000})
	_, calls := traceRows(t, page)
	if len(calls) == 0 || calls[0].str("tags") != `size=3 ["item-0", "item-1", "item-2"]` {
		t.Errorf("the traced call shows the slice's elements: %v", page)
	}
}

func TestNativeCppThrow(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y g++", "c++")
	h := newHarness(t)
	id := h.sessionFor("cpp")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "cpp", "shapes.cpp"), "args": []string{"throw"}, "breakOnExceptions": "all"})
	t.Logf("throw: %v", snap)
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" {
		t.Fatalf("a C++ throw with breakOnExceptions all: %v", snap)
	}
	if loc := snap.obj("location"); loc.str("function") != "main" || loc.num("line") != 27 {
		t.Errorf("throw location: %v", loc)
	}

	// Uncaught by default: std::terminate aborts, a SIGABRT stop.
	id = h.sessionFor("cpp")
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "cpp", "shapes.cpp"), "args": []string{"throw"}})
	t.Logf("uncaught: %v", snap)
	if snap.str("state") != "paused" || !strings.Contains(snap.str("description")+snap.obj("exception").str("description"), "SIGABRT") {
		t.Fatalf("an uncaught throw aborts: %v", snap)
	}
}

// rustHash is the suffix rustc's legacy mangling adds to symbol names.
var rustHash = regexp.MustCompile(`::h[0-9a-f]{16}$`)

func TestNativeRustValuesAndFrames(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	dir := nativeProgram(t, "rust")
	src := nativeProgram(t, "rust", "src", "main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 18})
	began := time.Now()
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": dir})
	t.Logf("first stop (Rust, including cargo build): %v", time.Since(began))
	wantStop(t, snap, "breakpoint", 18)
	l := snap.vars("locals")
	if !strings.Contains(l["tags"], "size=3") || l["total"] != "0" || !strings.Contains(l["maybe"], "7") {
		t.Errorf("Rust locals through the toolchain's formatters: %v", l)
	}
	locals := snap.list("locals")
	if tags := h.expand(id, locals, "tags"); tags["[0]"] != `"item-0"` {
		t.Errorf("Vec<String> expanded: %v", tags)
	}
	if it := h.expand(id, locals, "it"); it["name"] != `"widget"` || it["count"] != "3" {
		t.Errorf("struct with a String: %v", it)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "it.count * 2"}); ev.str("result") != "6" {
		t.Errorf("evaluate: %v", ev)
	}

	in := h.ok("step_into", map[string]any{"sessionId": id})
	if loc := in.obj("location"); loc.str("function") != "loop_rust::weigh" || loc.num("line") != 7 {
		t.Fatalf("step_into weigh, frame name without hash: %v", in["location"])
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	var names []string
	for _, f := range stack {
		names = append(names, f.str("name"))
	}
	if strings.Join(names, ",") != "loop_rust::weigh,loop_rust::main" {
		t.Errorf("the std runtime frames under main should be hidden: %v", names)
	}
	all := h.ok("get_stack_trace", map[string]any{"sessionId": id, "includeInternals": true}).list("stackFrames")
	closure := false
	for _, f := range all {
		n := f.str("name")
		if rustHash.MatchString(n) {
			t.Errorf("frame name keeps its hash: %q", n)
		}
		if strings.Contains(n, "$u7b$") || strings.Contains(n, "$LT$") {
			t.Errorf("frame name keeps legacy escapes: %q", n)
		}
		closure = closure || strings.Contains(n, "{{closure}}")
	}
	if len(all) <= 2 || !closure {
		t.Errorf("includeInternals shows the runtime frames, {{closure}} decoded: %v", all)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Errorf("run to the end: %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "widget 3 24 3 Some(7) 18\n") {
		t.Errorf("output: %q", out)
	}
}

// startNativeWaiter starts loop.c built by the adapter's own cache path
// (through a first session) in "wait" mode and waits for "ready".
func startNativeWaiter(t *testing.T, bin string) *proc.Process {
	t.Helper()
	cmd := exec.Command(bin, "wait")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "ready") {
			go func() {
				for sc.Scan() {
				}
			}()
			return p
		}
	}
	t.Fatalf("%s never printed ready", bin)
	return nil
}

func buildC(t *testing.T, src string) string {
	t.Helper()
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	out := filepath.Join(t.TempDir(), "prog")
	if b, err := exec.Command("cc", "-g", "-O0", "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, b)
	}
	return out
}

func TestNativeAttachByProcessID(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	p := startNativeWaiter(t, buildC(t, src))
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 13)
	if att.vars("locals")["factor"] != "1" {
		t.Errorf("locals after attaching: %v", att.vars("locals"))
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	if det := h.ok("detach_from_process", map[string]any{"sessionId": id}); det.str("state") != "stopped" {
		t.Errorf("detach: %v", det)
	}
	if !proc.Alive(p.Pid()) {
		t.Errorf("the program should keep running after detach")
	}
}

func TestNativePause(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	run := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "c", "loop.c"), "args": []string{"wait"}, "waitForStop": false})
	if run.str("state") != "running" {
		t.Fatalf("start: %v", run)
	}
	h.waitForOutput(id, "ready")
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	if paused.str("state") != "paused" || paused.str("stopReason") != "pause" {
		t.Fatalf("pause is reported as pause: %v", paused)
	}
}

func TestNativeDryRun(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("rust")
	dry := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "dryRunSpawn": true})
	req := dry.obj("data").obj("launchRequest")
	if !strings.HasSuffix(req.str("program"), filepath.Join("debug", "loop_rust")) {
		t.Errorf("dry run program: %v", dry)
	}
	t.Logf("dry run: %v", dry)
}

func TestNativeRustPanicStops(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust", "src", "main.rs"), "args": []string{"panic"}})
	t.Logf("panic: %v", snap)
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" || !strings.Contains(snap.str("description"), "panic") {
		t.Fatalf("a Rust panic stops as an exception: %v", snap)
	}
	if loc := snap.obj("location"); loc.str("function") != "loop_rust::main" || loc.num("line") != 21 {
		t.Errorf("panic location should be the panic! call: %v", loc)
	}
	if out := snap.outputText("output"); !strings.Contains(out, "negative value: -1") {
		t.Errorf("the panic message: %q", out)
	}

	// breakOnExceptions none: the panic ends the program (exit code 101).
	id = h.sessionFor("rust")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "args": []string{"panic"}, "breakOnExceptions": "none"})
	if end.str("state") != "stopped" || end.num("exitCode") != 101 {
		t.Errorf("panic with breakOnExceptions none: %v", end)
	}
}

func TestNativeCargoBuildErrorVerbatim(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte("[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "main.rs"), []byte("fn main() {\n    let x: i32 = \"text\";\n}\n"), 0o644)
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(dir, "src", "main.rs")}, "error[E0308]: mismatched types")
	if msg := out.str("error"); !strings.Contains(msg, "src/main.rs:2:18") {
		t.Errorf("cargo's message verbatim: %s", msg)
	}
}

// TestNativeAttachTwiceSaysWhy: a process has one tracer; the second
// attach must say that ptrace is the reason, not just "not permitted".
func TestNativeAttachTwiceSaysWhy(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	p := startNativeWaiter(t, buildC(t, nativeProgram(t, "c", "loop.c")))
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": false})
	if s := att.str("state"); s != "running" && s != "paused" {
		t.Fatalf("first attach: %v", att)
	}
	other := h.sessionFor("c")
	h.fail("attach_to_process", map[string]any{"sessionId": other, "processId": p.Pid()}, "ptrace permission")
}

func TestNativeStopOnEntryAndEnv(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "stopOnEntry": true, "env": map[string]string{"NATIVE_TEST_VALUE": "forty-two"}})
	if snap.str("state") != "paused" || snap.str("stopReason") != "entry" {
		t.Fatalf("stopOnEntry: %v", snap)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 40})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 40)
	ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": `(const char *)getenv("NATIVE_TEST_VALUE")`})
	if !strings.Contains(ev.str("result"), `"forty-two"`) {
		t.Errorf("the program's environment: %v", ev)
	}
}

// TestNativeRustAttach attaches to a running Rust program: the formatters
// and frame names work there too.
func TestNativeRustAttach(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	dir := nativeProgram(t, "rust")
	build := exec.Command("cargo", "build")
	build.Dir = dir
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cargo build: %v\n%s", err, b)
	}
	p := startNativeWaiter(t, filepath.Join(dir, "target", "debug", "loop_rust"))
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": nativeProgram(t, "rust", "src", "main.rs"), "line": 7})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 7)
	if loc := att.obj("location"); loc.str("function") != "loop_rust::weigh" {
		t.Errorf("frame name after attach: %v", loc)
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(stack) != 3 || stack[1].str("name") != "loop_rust::wait_forever" || stack[2].str("name") != "loop_rust::main" {
		t.Fatalf("stack after attach: %v", stack)
	}
	l := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": stack[2].num("id")}).vars("variables")
	if !strings.Contains(l["tags"], "size=3") || l["total"] != "18" {
		t.Errorf("main's locals through the formatters: %v", l)
	}
}

// debug_test on cargo test: a failed assert_eq! is a panic, stopped in the
// test's own frame with the assertion's message. The answer leaves out
// the backtrace std prints under an inherited RUST_BACKTRACE (the stop
// shows the stack already) and the echo of the server's own lldb commands.
func TestRustDebugTestStopsAtTheFailingAssertion(t *testing.T) {
	t.Setenv("RUST_BACKTRACE", "1")
	h := newHarness(t)
	h.sessionFor("rust")
	src := nativeProgram(t, "rustfail", "src", "lib.rs")
	res := h.ok("debug_test", map[string]any{"language": "rust", "path": src})
	out := res.outputText("output")
	for _, noise := range []string{"stack backtrace", "(lldb)", "rust_panic"} {
		if strings.Contains(out, noise) {
			t.Errorf("%q in debug_test's output: %q", noise, out)
		}
	}
	if !strings.Contains(out, "left: 30.0") {
		t.Errorf("the test's own output stays: %q", out)
	}
	answer, _ := json.Marshal(res)
	t.Logf("debug_test answer: %d bytes", len(answer))
	if len(answer) > 4096 {
		t.Errorf("a failing cargo test's answer should fit in 4 KB, is %d bytes: %s", len(answer), answer)
	}
	test := res.obj("test")
	if test.str("runner") != "cargo test" || test["failed"] != true || !strings.HasSuffix(test.str("name"), "tests::total_with_discount") {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if m := test.str("message"); !strings.Contains(m, "discounted total") || !strings.Contains(m, "left: 30.0") {
		t.Errorf("the assertion's message: %q", m)
	}
	if loc := res.obj("location"); loc.num("line") != 21 || !strings.HasSuffix(loc.str("file"), "lib.rs") {
		t.Errorf("the snapshot shows the test's frame: %v", loc)
	}
	if l := res.vars("locals"); l["got"] != "30" || l["prices"] != "size=3 [10, 20, 30]" {
		t.Errorf("the test's locals, a Vec with its elements: %v", l)
	}
	passing := h.ok("debug_test", map[string]any{"language": "rust", "path": src, "name": "total_without_discount"})
	if pt := passing.obj("test"); pt["passed"] != true || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}
}

// A breakpoint on a Rust `for` line resolves to two locations (the
// iterator's set-up and each turn's next()); a step_over from the first
// must reach the loop's body, not stop again at the second, and
// set_breakpoint says the line has two locations.
func TestNativeRustStepOverLeavesAMultiLocationLine(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	src := nativeProgram(t, "rust", "src", "main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 17})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust")}), "breakpoint", 17)
	if bps := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints"); len(bps) != 1 || bps[0].num("locations") != 2 {
		t.Errorf("list_breakpoints counts the for line's locations: %v", bps)
	}
	again := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 17})
	if !strings.Contains(again.str("message"), "2 locations") {
		t.Errorf("set_breakpoint says the line resolved to 2 locations: %v", again.str("message"))
	}

	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 18)
	if l := over.vars("locals"); l["i"] != "0" {
		t.Errorf("first turn of the loop: %v", l)
	}
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 17)
	over = h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 18)
	if l := over.vars("locals"); l["i"] != "1" {
		t.Errorf("second turn of the loop: %v", l)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); strings.Contains(out, "breakpoint list") {
		t.Errorf("the server's own lldb commands are not program output: %q", out)
	}
}
