//go:build unix

package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// fakeInterpreter writes a script that answers any probe with line, as an
// interpreter in a chroot would: its sys.executable is a path of the
// chroot's, and the id is that file's there.
func fakeInterpreter(t *testing.T, line string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho '"+line+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProbeOfAnInterpreterElsewhere: a script that runs the interpreter in
// a chroot reports the chroot's sys.executable; the same path here is
// another file (or none), so the script itself is what runs the adapter and
// the launcher. docs/adapter-quirks.md, debugpy-15.
func TestProbeOfAnInterpreterElsewhere(t *testing.T) {
	here, err := os.Executable() // a file that exists on both "sides"
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(here)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	for _, tc := range []struct {
		name, line string
		same       bool
	}{
		{"the same file", fmt.Sprintf(`{"executable": %q, "executable_id": [%d, %d], "version": [3, 13, 5]}`, here, st.Dev, st.Ino), true},
		{"another file at that path", fmt.Sprintf(`{"executable": %q, "executable_id": [%d, %d], "version": [3, 13, 5]}`, here, st.Dev, st.Ino+1), false},
		{"a path only there", `{"executable": "/nonexistent/usr/bin/python3", "executable_id": [1, 2], "version": [3, 13, 5]}`, false},
		{"a path only there, not even statable there", `{"executable": "/nonexistent/usr/bin/python3", "version": [3, 13, 5]}`, false},
		{"no id (an older probe's answer)", fmt.Sprintf(`{"executable": %q, "version": [3, 13, 5]}`, here), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakeInterpreter(t, tc.line)
			info, err := newFinder().probe(context.Background(), fake, search{})
			if err != nil {
				t.Fatal(err)
			}
			want := fake
			if tc.same {
				want = here
			}
			if info.Executable != want {
				t.Fatalf("Executable = %q, want %q", info.Executable, want)
			}
		})
	}
}

// TestLaunchThroughAWrapperWhoseExecutableIsElsewhere: the interpreter a
// wrapper runs reports a sys.executable that names nothing here (as the
// chroot's /usr/bin/python3 names the host's own interpreter, or nothing):
// the adapter, debugpy's launcher and the program all run through the
// wrapper, and the program stops at its breakpoint. Without it, the
// adapter would be started as that path.
func TestLaunchThroughAWrapperWhoseExecutableIsElsewhere(t *testing.T) {
	host := requireDebugpy(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for exec -a")
	}
	wrapper := filepath.Join(t.TempDir(), "python3")
	// exec -a sets argv[0], from which Python takes sys.executable.
	script := fmt.Sprintf("#!%s\nexec -a /nonexistent/usr/bin/python3 %q \"$@\"\n", bash, host.Executable)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: loop, ExecutablePath: wrapper})
	if s.conn.Command[0] != wrapper {
		t.Fatalf("adapter command %q, want it run by the wrapper", s.conn.Command)
	}
	if strings.Contains(s.conn.Runtime, "nonexistent") {
		t.Errorf("runtime %q names the interpreter's own path", s.conn.Runtime)
	}
	s.start(ctx, map[string][]int{loop: {6}}, nil)
	st := s.waitStopped(ctx)
	if top := s.stack(ctx, st.ThreadID)[0]; st.Reason != "breakpoint" || top.Line != 6 {
		t.Fatalf("stopped %+v at %+v", st, top)
	}
}

// TestDebugpyElsewhereIsNotLent: an interpreter in a chroot has debugpy in
// its own filesystem; the same path here is another directory (the host's
// own debugpy, of another version), so it cannot lend its debugpy to an
// interpreter without one: the next one that has it here does. For its own
// programs it is still the interpreter with debugpy.
func TestDebugpyElsewhereIsNotLent(t *testing.T) {
	dir := t.TempDir()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	answer := func(ino uint64) string {
		return fmt.Sprintf(`{"version": [3, 13, 5], "debugpy": "1.8.12", "debugpy_dir": %q, "debugpy_dir_id": [%d, %d]}`, dir, st.Dev, ino)
	}
	elsewhere := fakeInterpreter(t, answer(st.Ino+1))
	here := fakeInterpreter(t, answer(st.Ino))
	cands := []candidate{{path: elsewhere, origin: "PYTHON_PATH"}, {path: here, origin: "on PATH"}}
	f := newFinder()
	f.system = func() []string { return nil }
	ctx := context.Background()
	if got, _ := f.findDebugpyAmong(ctx, search{}, cands, false); got == nil || got.Path != elsewhere {
		t.Fatalf("for its own program: %+v, want %s", got, elsewhere)
	}
	got, all := f.findDebugpyAmong(ctx, search{}, cands, true)
	if got == nil || got.Path != here {
		t.Fatalf("to lend: %+v, want %s", got, here)
	}
	if msg := all[0].String(); !strings.Contains(msg, "filesystem of its own") {
		t.Errorf("tried: %q", msg)
	}
}

// A venv without debugpy does not hide its base interpreter, the same
// binary, which has it: the base is tried, and chosen.
func TestVirtualEnvDoesNotHideItsBase(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base", "python3")
	venv := filepath.Join(dir, "venv")
	for _, d := range []string{filepath.Dir(base), filepath.Join(venv, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// One binary; run as the venv's python it sees no debugpy.
	script := "#!/bin/sh\ncase \"$0\" in\n*/venv/*) echo '{\"version\": [3, 11, 2]}' ;;\n*) echo '{\"version\": [3, 11, 2], \"debugpy\": \"1.6.3\", \"debugpy_dir\": \"/usr/lib/python3/dist-packages/debugpy\"}' ;;\nesac\n"
	if err := os.WriteFile(base, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = "+filepath.Dir(base)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inVenv := filepath.Join(venv, "bin", "python")
	if err := os.Symlink(base, inVenv); err != nil {
		t.Fatal(err)
	}
	f := newFinder()
	f.system = func() []string { return []string{base} }
	got, all := f.findDebugpyAmong(context.Background(), search{}, []candidate{{path: inVenv, origin: "on PATH"}}, true)
	if got == nil || got.Path != base {
		t.Fatalf("the base interpreter with debugpy: got %+v, tried %v", got, all)
	}
}
