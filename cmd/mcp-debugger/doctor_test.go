package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// doctorRun runs the built binary's doctor with args and extra environment,
// in a temporary directory of its own (TMPDIR), and returns its output and
// exit status.
func doctorRun(t *testing.T, tmp string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), append([]string{"doctor"}, args...)...)
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit) && ctx.Err() == nil:
		return out.String(), exit.ExitCode()
	}
	t.Fatalf("doctor %v: %v\n%s", args, err, out.String())
	return "", 0
}

// row returns the fields of the table row of a language.
func row(out, lang string) []string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == lang {
			return f
		}
	}
	return nil
}

// wantNothingLeftIn fails when a file is left in dir or a process still
// names it on its command line.
func wantNothingLeftIn(t *testing.T, dir string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in the temporary directory: %s", e.Name())
	}
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(dir)) {
			t.Errorf("process %s still runs: %q", filepath.Base(filepath.Dir(p)), bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		}
	}
}

// TestDoctorCheck runs `doctor --check` as a user would: every installed
// language checks ok (exit status 0), the table says so with a time, the
// watchpoint line and the summary follow, and nothing is left behind.
func TestDoctorCheck(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	tmp := t.TempDir()
	start := time.Now()
	out, code := doctorRun(t, tmp, nil, "--check")
	t.Logf("doctor --check took %v:\n%s", time.Since(start).Round(time.Millisecond), out)
	if code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	if f := row(out, "python"); len(f) < 5 || f[1] != "available" || f[3] != "ok" || !strings.HasSuffix(f[4], "s") {
		t.Errorf("python row: %v", f)
	}
	if f := row(out, "mock"); len(f) < 4 || f[3] != "skipped" {
		t.Errorf("mock row: %v", f)
	}
	for _, want := range []string{"LANGUAGE", "CHECK", "hardware watchpoints: ", "checked in ", " 0 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	wantNothingLeftIn(t, tmp)
}

// TestDoctorCheckFailure: a java that answers -version but cannot start a
// program is installed yet fails: exit status 1, the failure in full with
// the step, and a fix.
func TestDoctorCheckFailure(t *testing.T) {
	home := t.TempDir()
	fake := filepath.Join(home, "bin", "java")
	script := "#!/bin/sh\nif [ \"$1\" = -version ]; then echo 'openjdk version \"17.0.99\"' >&2; exit 0; fi\necho 'Error: Could not create the Java Virtual Machine.' >&2\nexit 1\n"
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	out, code := doctorRun(t, tmp, []string{"JAVA_HOME=" + home}, "--check", "java")
	t.Logf("doctor --check java with a broken java:\n%s", out)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if f := row(out, "java"); len(f) < 4 || f[1] != "available" || f[2] != "17.0.99" || f[3] != "failed" {
		t.Errorf("java row: %v", f)
	}
	for _, want := range []string{"java failed at start: ", "Could not create the Java Virtual Machine", "  fix: ", "1 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if row(out, "python") != nil {
		t.Errorf("only java was asked for:\n%s", out)
	}
	wantNothingLeftIn(t, tmp)
}

// TestDoctorCheckMissingAdapter: a dlv path forced wrong makes Go missing,
// with the path and the install command; a missing language does not fail
// the exit status.
func TestDoctorCheckMissingAdapter(t *testing.T) {
	tmp := t.TempDir()
	out, code := doctorRun(t, tmp, []string{"DLV_PATH=/nonexistent/dlv"}, "--check", "go")
	if code != 0 {
		t.Errorf("exit status %d, want 0:\n%s", code, out)
	}
	if f := row(out, "go"); len(f) < 4 || f[1] != "missing" || f[3] != "missing" ||
		!strings.Contains(out, "/nonexistent/dlv (DLV_PATH)") || !strings.Contains(out, "install: go install github.com/go-delve/delve/cmd/dlv") {
		t.Errorf("go with DLV_PATH forced wrong:\n%s", out)
	}
}

// TestDoctorUsageErrors: bad flags and languages are usage errors (2).
func TestDoctorUsageErrors(t *testing.T) {
	tmp := t.TempDir()
	for _, args := range [][]string{{"python"}, {"--check", "cobol"}, {"--check", "--timeout", "0s"}, {"--bogus"}} {
		if out, code := doctorRun(t, tmp, nil, args...); code != 2 {
			t.Errorf("doctor %v: exit status %d, want 2:\n%s", args, code, out)
		}
	}
}
