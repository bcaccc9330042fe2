package lldb

import (
	"context"
	"errors"
	"testing"
)

func TestFrameName(t *testing.T) {
	for in, want := range map[string]string{
		"loop_rust::main::h038dc1c872b49e46":                                                    "loop_rust::main",
		"std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h1a2b3c4d5e6f7a8b":                  "std::rt::lang_start::{{closure}}",
		"_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..Drop$GT$::drop::h0123456789abcdef": "<alloc::vec::Vec<T> as core::ops::Drop>::drop",
		"core::ops::function::FnOnce::call_once{{vtable.shim}}":                                 "core::ops::function::FnOnce::call_once{{vtable.shim}}",
		"weigh":                          "weigh",
		"perimeter(Shape const&, int)":   "perimeter(Shape const&, int)",
		"std::vector<int>::size() const": "std::vector<int>::size() const",
		"main::hnot_a_hash":              "main::hnot_a_hash",
		"$BP$u8$C$$RF$str":               "*u8,&str",
		"bad$uzz$escape":                 "bad$uzz$escape",
	} {
		if got := frameName(in); got != want {
			t.Errorf("frameName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsNoise(t *testing.T) {
	noise := []string{
		"To get started with the debug console try \"<variable>\", \"<lldb-cmd>\" or \"help [<lldb-cmd>]\"\r\n",
		"For more information visit https://lldb.llvm.org/use/lldbdap.html#debug-console.\r\n",
		"Executable binary set to '/tmp/prog' (x86_64-pc-linux-gnu).\r\n",
		"Attached to process 22076.\r\n",
		"Process 22076 exited with status = 3 (0x00000003) \r\n",
		"Running initCommands:\n",
		"(lldb) command script import /x/lldb_lookup.py\n",
		"(lldb) breakpoint set --name rust_panic\n",
		"Breakpoint 1: where = app`__rustc::rust_panic + 8 at panicking.rs:886:25, address = 0x000000000008a7f8\n",
		"Breakpoint 1: no locations (pending).\n",
	}
	for _, text := range noise {
		if !isNoise("console", text) {
			t.Errorf("%q should be noise", text)
		}
	}
	for _, c := range []struct{ category, text string }{
		{"stdout", "To get started with the debug console\n"},
		{"stderr", "Process 1 exited with status = 3\n"},
		{"console", "warning: (x86_64) /lib/libfoo.so: no debug info\n"},
		{"console", "(lldb) breakpoint set --name main\n"},
		{"console", "Breakpoint 2: where = app`main + 4 at main.c:3:1, address = 0x1139\n"},
	} {
		if isNoise(c.category, c.text) {
			t.Errorf("%s %q is not noise", c.category, c.text)
		}
	}
}

func TestStopReason(t *testing.T) {
	cases := []struct {
		reason, description string
		panics              bool
		want                string
	}{
		{"exception", "signal SIGSTOP", false, "pause"},
		{"exception", "signal SIGSEGV: address not mapped to object (fault address=0x0)", false, "exception"},
		{"breakpoint", "breakpoint 1.1", true, "exception"},
		{"breakpoint", "breakpoint 1.1", false, "breakpoint"},
		{"breakpoint", "breakpoint 12.1", true, "breakpoint"},
		{"step", "step over", true, "step"},
	}
	for _, c := range cases {
		if got, _ := stopReason(c.reason, c.description, c.panics); got != c.want {
			t.Errorf("stopReason(%q, %q, %v) = %q, want %q", c.reason, c.description, c.panics, got, c.want)
		}
	}
}

// TestEntryStop: the first stop of a stopOnEntry launch is the entry, as
// lldb-dap 22 says and lldb-dap 19 does not (it says "exception", "signal
// SIGSTOP", as of a pause); later SIGSTOP stops are pauses.
func TestEntryStop(t *testing.T) {
	for _, tc := range []struct {
		name          string
		stopOnEntry   bool
		first, second string
	}{
		{"lldb-dap 19", true, "exception", "exception"},
		{"lldb-dap 22", true, "entry", "exception"},
	} {
		q := quirks(false, tc.stopOnEntry)
		if got, _ := q.StopReason(tc.first, "signal SIGSTOP"); got != "entry" {
			t.Errorf("%s: first stop %q -> %q, want entry", tc.name, tc.first, got)
		}
		if got, _ := q.StopReason(tc.second, "signal SIGSTOP"); got != "pause" {
			t.Errorf("%s: a later SIGSTOP -> %q, want pause", tc.name, got)
		}
	}
	q := quirks(false, false)
	if got, _ := q.StopReason("exception", "signal SIGSTOP"); got != "pause" {
		t.Errorf("without stopOnEntry the first SIGSTOP is a pause, got %q", got)
	}
	q = quirks(false, true)
	if got, _ := q.StopReason("breakpoint", "breakpoint 2.1"); got != "breakpoint" {
		t.Errorf("a first stop at a breakpoint stays one, got %q", got)
	}
}

func TestInternalFrame(t *testing.T) {
	for _, c := range []struct {
		name, path string
		want       bool
	}{
		{"std::rt::lang_start_internal", "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/rt.rs", true},
		{"core::panicking::panic_fmt", "/home/u/.rustup/toolchains/stable/lib/rustlib/src/rust/library/core/src/panicking.rs", true},
		{"__libc_start_call_main", "sysdeps/nptl/libc_start_call_main.h", true},
		{"_start", "", true},
		{"_start", "/tmp/prog`_start", true},
		{"loop_rust::main", "/work/src/main.rs", false},
		{"main", "/work/loop.c", false},
	} {
		if got := internalFrame(c.name, c.path); got != c.want {
			t.Errorf("internalFrame(%q, %q) = %v, want %v", c.name, c.path, got, c.want)
		}
	}
}

// TestDiscardStalePlans checks the requests the continue hook sends: the
// top frame of the thread, then the lldb command in that frame; failures
// never block the continue.
func TestDiscardStalePlans(t *testing.T) {
	var sent []string
	var evalArgs map[string]any
	call := func(_ context.Context, command string, args, body any) error {
		sent = append(sent, command)
		switch command {
		case "stackTrace":
			if args.(map[string]any)["threadId"] != 4242 {
				t.Errorf("stackTrace for the wrong thread: %v", args)
			}
			b := body.(*struct {
				StackFrames []struct {
					ID int `json:"id"`
				} `json:"stackFrames"`
			})
			b.StackFrames = append(b.StackFrames, struct {
				ID int `json:"id"`
			}{ID: 7})
		case "evaluate":
			evalArgs = args.(map[string]any)
			return errors.New("no plan to discard")
		}
		return nil
	}
	if err := discardStalePlans(context.Background(), call, 4242); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || evalArgs["expression"] != "`thread plan discard 1" || evalArgs["context"] != "repl" || evalArgs["frameId"] != 7 {
		t.Errorf("sent %v, evaluate %v", sent, evalArgs)
	}
	failing := func(context.Context, string, any, any) error { return errors.New("gone") }
	if err := discardStalePlans(context.Background(), failing, 1); err != nil {
		t.Errorf("a failing stackTrace must not block the continue: %v", err)
	}
}

func TestElementCountReadsOnlyABareSize(t *testing.T) {
	for value, want := range map[string]int{"size=3": 3, "size=0": 0} {
		if n, ok := elementCount(value); !ok || n != want {
			t.Errorf("elementCount(%q) = %d, %v; want %d", value, n, ok, want)
		}
	}
	for _, value := range []string{"size=3 [1, 2, 3]", `"size=3"`, "Some(7)", "size="} {
		if _, ok := elementCount(value); ok {
			t.Errorf("elementCount(%q) should not read a count", value)
		}
	}
}
