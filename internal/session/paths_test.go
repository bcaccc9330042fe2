package session

import (
	"testing"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// TestBreakpointFilesPerOS: a breakpoint's file named in another spelling
// of the same path (case where the file system folds it, a Windows drive
// letter or separator) is the same file: its breakpoints are one set, sent
// as one setBreakpoints (a second set for the spelling would replace the
// first in the adapter), and a stop reported under either spelling finds
// them.
func TestBreakpointFilesPerOS(t *testing.T) {
	for _, c := range []struct {
		os            platform.OS
		agent, second string
		same          bool
	}{
		{platform.Linux, "/home/ann/proj/app.py", "/home/ann/proj/./app.py", true},
		{platform.Linux, "/home/ann/Proj/app.py", "/home/ann/proj/app.py", false},
		{platform.Darwin, "/Users/ann/Proj/app.py", "/users/ann/proj/app.py", true},
		{platform.Windows, `C:\Users\ann\app.py`, "c:/users/ann/APP.py", true},
		{platform.Windows, `C:\Users\ann\app.py`, `D:\Users\ann\app.py`, false},
	} {
		r := newBreakpointRegistry(c.os)
		r.addLine(&Breakpoint{File: c.agent, Line: 3})
		if got := r.canonical(c.second); (got == c.agent) != c.same {
			t.Errorf("%s: %q names the file as %q; same as %q: %v", c.os.Name, c.second, got, c.agent, c.same)
		}
		if got := len(r.linesAt(c.second)); (got == 1) != c.same {
			t.Errorf("%s: a stop in %q finds %d breakpoints of %q", c.os.Name, c.second, got, c.agent)
		}
	}
}

// TestProjectFramesPerOS: a frame is the program's when its file lies in
// the project's directory by the OS's comparison.
func TestProjectFramesPerOS(t *testing.T) {
	frame := func(p string) dap.StackFrame { return dap.StackFrame{Source: &dap.Source{Path: p}} }
	for _, c := range []struct {
		os          platform.OS
		root, path  string
		libraryWant bool
	}{
		{platform.Linux, "/home/ann/proj", "/home/ann/proj/src/app.go", false},
		{platform.Linux, "/home/ann/proj", "/home/ann/Proj/src/app.go", true},
		{platform.Linux, "/home/ann/proj", "/home/ann/project/app.go", true},
		{platform.Darwin, "/Users/ann/Proj", "/Users/ann/proj/app.go", false},
		{platform.Windows, `C:\Users\ann\proj`, "c:/users/ann/proj/app.go", false},
		{platform.Windows, `C:\Users\ann\proj`, `C:\Program Files\Go\src\fmt\print.go`, true},
	} {
		if got := libraryFrame(frame(c.path), adapter.Quirks{}, c.root, c.os); got != c.libraryWant {
			t.Errorf("%s: %s in %s is library: %v, want %v", c.os.Name, c.path, c.root, got, c.libraryWant)
		}
	}
}

// TestSamePathPerOS: the step repeat and run_to compare a stop's file with
// the one they expect by the OS's rules.
func TestSamePathPerOS(t *testing.T) {
	if !samePath(platform.Darwin, "/Users/ann/Proj/a.rs", "/Users/ann/proj/a.rs") ||
		!samePath(platform.Windows, `C:\p\a.rs`, "c:/p/a.rs") ||
		samePath(platform.Linux, "/p/A.rs", "/p/a.rs") {
		t.Error("samePath does not follow the OS's rules")
	}
}
