package selfcheck

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/java"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/ruby"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// checked are the languages with a check program, in a stable order.
func checked() []string {
	var ids []string
	for id := range probes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// tempChecks lists the check directories left in the temporary directory.
func tempChecks(t *testing.T) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(os.TempDir(), "mcp-debugger-check-*"))
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// wantNothingLeft fails when a check left a process under the test or a
// check directory that was not there before.
func wantNothingLeft(t *testing.T, dirsBefore []string) {
	t.Helper()
	if kids := proc.Descendants(os.Getpid()); len(kids) != 0 {
		t.Errorf("processes left after the check: %v", kids)
	}
	for _, d := range tempChecks(t) {
		if !slices.Contains(dirsBefore, d) {
			t.Errorf("check directory left behind: %s", d)
		}
	}
}

// wantNoFiles fails when a file is left under dir (directories are not
// counted: the adapter's cache root may stay).
func wantNoFiles(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left in the cache: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProbesStopOnTheirOwnLines guards the check programs themselves: each
// names a stop line that is in its source.
func TestProbesStopOnTheirOwnLines(t *testing.T) {
	for id, p := range probes {
		if p.line() == 0 {
			t.Errorf("%s: stop text %q is not a line of %s", id, p.stop, p.source)
		}
		if _, ok := p.files[p.program]; !ok {
			t.Errorf("%s: program %s is not among its files", id, p.program)
		}
		if p.fix == "" {
			t.Errorf("%s: no fix hint", id)
		}
	}
}

// TestCheckRealAdapters debugs each language's check program with its
// real adapter, one language at a time so that a failure names it.
func TestCheckRealAdapters(t *testing.T) {
	for _, lang := range checked() {
		t.Run(lang, func(t *testing.T) {
			testenv.RequireAdapter(t, lang)
			var cache string
			if lang == "c" || lang == "cpp" {
				// The lldb adapter builds a lone source file into the
				// user's cache; the check must not leave its build there.
				// (Not for Go: GOCACHE lives there too, and a cold one
				// means rebuilding the standard library.)
				cache = t.TempDir()
				t.Setenv("XDG_CACHE_HOME", cache)
			}
			before := tempChecks(t)
			res := Check(context.Background(), lang, Options{Timeout: 3 * time.Minute})
			if res.Status != StatusOK || !res.OK() || res.Duration <= 0 {
				t.Fatalf("%s check: %+v", lang, res)
			}
			t.Logf("%s: ok in %v", lang, res.Duration.Round(time.Millisecond))
			wantNothingLeft(t, before)
			if cache != "" {
				wantNoFiles(t, cache)
			}
		})
	}
}

func availabilityWithVersion(version string) adapter.Availability {
	return adapter.Availability{Installed: true, Version: version}
}

// TestRunAllConcurrently is what `doctor --check` runs: every language at
// once. It logs the total time (a figure, not an assertion: the machine is
// shared) and checks that every installed language came out ok.
func TestRunAllConcurrently(t *testing.T) {
	before := tempChecks(t)
	rep := Run(context.Background(), Options{Timeout: 3 * time.Minute})
	if len(rep.Results) != len(probes)+1 { // + mock, which has no check program
		t.Fatalf("results for %d languages, want %d: %+v", len(rep.Results), len(probes)+1, rep.Results)
	}
	for _, res := range rep.Results {
		t.Logf("%-10s %-7s %6v %s %s", res.Language, res.Status, res.Duration.Round(time.Millisecond), res.Error, res.Hint)
		switch {
		case res.Language == "mock":
			if res.Status != StatusSkipped || !strings.Contains(res.Error, "no check program") {
				t.Errorf("mock: %+v", res)
			}
		case res.Status == StatusFailed:
			t.Errorf("%s failed at %s: %s (hint: %s)", res.Language, res.Step, res.Error, res.Hint)
		case res.Status == StatusMissing && os.Getenv("CI") == "true":
			t.Errorf("%s missing under CI: %s", res.Language, res.Error)
		}
	}
	t.Logf("all languages in %v; watchpoints: %+v", rep.Duration.Round(time.Millisecond), rep.Watchpoints)
	if rep.Watchpoints.Reason == "" {
		t.Errorf("the watchpoint probe gave no reason: %+v", rep.Watchpoints)
	}
	if !rep.OK() {
		t.Errorf("report not ok: %+v", rep.Results)
	}
	wantNothingLeft(t, before)
}

// BenchmarkRunAll measures `doctor --check`'s work: every language at once.
func BenchmarkRunAll(b *testing.B) {
	for b.Loop() {
		rep := Run(context.Background(), Options{Timeout: 3 * time.Minute})
		if !rep.OK() {
			b.Fatalf("check failed: %+v", rep.Results)
		}
	}
}

// TestMissingAdapterNamesItAndHowToInstall: a dlv path forced wrong makes
// Go missing, with the reason naming the path and the install command.
func TestMissingAdapterNamesItAndHowToInstall(t *testing.T) {
	t.Setenv("DLV_PATH", "/nonexistent/dlv")
	res := Check(context.Background(), "go", Options{Timeout: time.Minute})
	if res.Status != StatusMissing || res.OK() {
		t.Fatalf("status %s, want missing: %+v", res.Status, res)
	}
	if !strings.Contains(res.Error, "/nonexistent/dlv") || !strings.Contains(res.Error, "DLV_PATH") {
		t.Errorf("error should name the forced path and its variable: %q", res.Error)
	}
	if !strings.Contains(res.Hint, "go install github.com/go-delve/delve/cmd/dlv") {
		t.Errorf("hint should install dlv: %q", res.Hint)
	}
	rep := Report{Results: []Result{res}}
	if !rep.OK() {
		t.Errorf("a missing language must not fail the report")
	}
}

// TestBuildFailureNamesCompilerOutput: a program that does not compile
// fails the check at the start step, with the compiler's message and the
// probe's build hint; nothing is left behind.
func TestBuildFailureNamesCompilerOutput(t *testing.T) {
	testenv.RequireAdapter(t, "c")
	broken := probes["c"]
	broken.files = map[string]string{"check.c": "int main(void) {\n\tint answer = 42\n\treturn answer - 42;\n}\n"}
	withProbe(t, "c", broken)
	before := tempChecks(t)
	res := Check(context.Background(), "c", Options{Timeout: time.Minute})
	if res.Status != StatusFailed || res.Step != StepStart {
		t.Fatalf("want failed at start: %+v", res)
	}
	if !strings.Contains(res.Error, "build failed") || !strings.Contains(res.Error, "check.c:") {
		t.Errorf("error should carry the compiler's message: %q", res.Error)
	}
	if res.Hint != broken.buildFix {
		t.Errorf("hint = %q, want the build hint %q", res.Hint, broken.buildFix)
	}
	if rep := (Report{Results: []Result{res}}); rep.OK() {
		t.Errorf("a failed language must fail the report")
	}
	wantNothingLeft(t, before)
}

// TestMissedBreakpointSaysSo: a program that never reaches its breakpoint
// fails at the stop step, saying where it should have stopped and how the
// program ended.
func TestMissedBreakpointSaysSo(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	early := probes["python"]
	early.files = map[string]string{"check.py": "def main():\n    answer = 42\n    print(answer)\n\n\nraise SystemExit(3)\n"}
	withProbe(t, "python", early)
	res := Check(context.Background(), "python", Options{Timeout: time.Minute})
	if res.Status != StatusFailed || res.Step != StepStop {
		t.Fatalf("want failed at stop: %+v", res)
	}
	if !strings.Contains(res.Error, "check.py:3") {
		t.Errorf("error should name the breakpoint's place: %q", res.Error)
	}
	if res.Hint != early.fix {
		t.Errorf("hint = %q, want %q", res.Hint, early.fix)
	}
}

// TestTimeoutCutsTheCheckShort: a check that runs out of time says so,
// suggests a longer one, and leaves no process behind.
func TestTimeoutCutsTheCheckShort(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	slow := probes["python"]
	slow.files = map[string]string{"check.py": "import time\n\n\ndef main():\n    time.sleep(60)\n    answer = 42\n    print(answer)\n\n\nmain()\n"}
	withProbe(t, "python", slow)
	before := tempChecks(t)
	start := time.Now()
	res := Check(context.Background(), "python", Options{Timeout: 3 * time.Second})
	if res.Status != StatusFailed || !strings.HasPrefix(res.Error, "timed out after 3") || !strings.Contains(res.Hint, "longer timeout") {
		t.Fatalf("want a timeout failure: %+v", res)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("a 3 s check took %v", took)
	}
	wantNothingLeft(t, before)
}

// TestUnknownLanguage fails with the known ones as the hint.
func TestUnknownLanguage(t *testing.T) {
	res := Check(context.Background(), "cobol", Options{})
	if res.Status != StatusFailed || !strings.Contains(res.Hint, "python") {
		t.Fatalf("unknown language: %+v", res)
	}
}

// TestTypeScriptCheckFollowsTheNodeVersion pins which program the
// TypeScript check debugs: the .ts file itself where Node strips types
// (22.6 on), tsc's output with its source map before.
func TestTypeScriptCheckFollowsTheNodeVersion(t *testing.T) {
	for version, compiled := range map[string]bool{"v20.20.2": true, "v22.5.1": true, "v22.6.0": false, "v23.1.0": false, "v24.0.0": false, "weird": false} {
		v := probes["typescript"].variant(availabilityWithVersion(version))
		if (v != nil) != compiled {
			t.Errorf("node %s: compiled variant %v, want %v", version, v != nil, compiled)
			continue
		}
		if v != nil && (v.program != "check.js" || v.source != "check.ts" || v.files["check.js.map"] == "") {
			t.Errorf("node %s: the compiled check debugs check.js with a breakpoint in check.ts: %+v", version, v)
		}
	}
}

// withProbe replaces a language's check program for one test.
func withProbe(t *testing.T, lang string, p probe) {
	saved := probes[lang]
	probes[lang] = p
	t.Cleanup(func() { probes[lang] = saved })
}
