package java

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// recorded is one line of a recording, as the server reads it.
type recorded struct {
	K       string     `json:"k"`
	ID      int        `json:"id"`
	P       *int       `json:"p"`
	Fn      string     `json:"fn"`
	File    string     `json:"file"`
	Line    int        `json:"line"`
	Args    [][]string `json:"args"`
	V       *string    `json:"v"`
	Type    string     `json:"type"`
	Msg     *string    `json:"msg"`
	Raised  *bool      `json:"raised"`
	N       any        `json:"n"`
	First   int        `json:"first"`
	Last    int        `json:"last"`
	Exit    *int       `json:"exit"`
	Name    string     `json:"name"`
	Outcome string     `json:"outcome"`
}

// recording is a run's events with helpers to find them.
type recording struct {
	t      *testing.T
	events []recorded
	result *adapter.RecordResult
	output string
}

func ordersProgram(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "record", "java", "Orders.java")
}

// record runs Orders.java under the recorder and reads its events.
func record(t *testing.T, cfg adapter.RecordConfig) *recording {
	t.Helper()
	testenv.RequireAdapter(t, languageID)
	if cfg.Program == "" {
		cfg.Program = ordersProgram(t)
	}
	cfg.EventsFile = filepath.Join(t.TempDir(), "events.jsonl")
	var out bytes.Buffer
	cfg.Output = &out
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := New().Record(ctx, cfg)
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	f, err := os.Open(cfg.EventsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := &recording{t: t, result: res, output: out.String()}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e recorded
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		rec.events = append(rec.events, e)
	}
	return rec
}

// calls are the call events of a function ("Orders.total").
func (r *recording) calls(fn string) []recorded {
	var out []recorded
	for _, e := range r.events {
		if e.K == "call" && e.Fn == fn {
			out = append(out, e)
		}
	}
	return out
}

// of are the events of kind k for call id.
func (r *recording) of(k string, id int) []recorded {
	var out []recorded
	for _, e := range r.events {
		if e.K == k && e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

// one is the only call of fn.
func (r *recording) one(fn string) recorded {
	r.t.Helper()
	c := r.calls(fn)
	if len(c) != 1 {
		r.t.Fatalf("%d calls of %s, want 1; recording:\n%s", len(c), fn, r)
	}
	return c[0]
}

// returned is the value call id returned.
func (r *recording) returned(id int) string {
	r.t.Helper()
	rets := r.of("ret", id)
	if len(rets) != 1 || rets[0].V == nil {
		r.t.Fatalf("call %d returned %+v, want one ret; recording:\n%s", id, rets, r)
	}
	return *rets[0].V
}

func (r *recording) String() string {
	var b strings.Builder
	for i, e := range r.events {
		if i == 120 {
			fmt.Fprintf(&b, "… %d more\n", len(r.events)-i)
			break
		}
		j, _ := json.Marshal(e)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRecordJavaCallTreeWithArgumentsAndReturns: each call of the user's
// code is there with its caller, its arguments (an object with its
// fields, an array inline) and its return value; no JDK method is.
func TestRecordJavaCallTreeWithArgumentsAndReturns(t *testing.T) {
	r := record(t, adapter.RecordConfig{Args: []string{"7"}})
	if r.result.ExitCode != 0 || !strings.Contains(r.output, "total 15.25") {
		t.Fatalf("exit %d, output %q", r.result.ExitCode, r.output)
	}
	if r.events[0].K != "start" || r.events[len(r.events)-1].K != "end" || *r.events[len(r.events)-1].Exit != 0 {
		t.Fatalf("want start first and end (exit 0) last:\n%s", r)
	}
	main := r.one("Orders.main")
	if *main.P != 0 || !strings.HasSuffix(main.File, filepath.Join("record", "java", "Orders.java")) || main.Line != 61 ||
		fmt.Sprint(main.Args) != "[[args [\"7\"]]]" {
		t.Fatalf("main: %+v", main)
	}
	total := r.one("Orders.total")
	if *total.P != main.ID || len(total.Args) != 1 || total.Args[0][0] != "items" ||
		total.Args[0][1] != "[Orders$Item#1, Orders$Item#2]" {
		t.Fatalf("total's call: %+v", total)
	}
	if got := r.returned(total.ID); got != "15.25" {
		t.Fatalf("total returned %s, want 15.25", got)
	}
	lines := r.calls("Orders.lineTotal")
	if len(lines) != 2 {
		t.Fatalf("%d calls of lineTotal, want 2:\n%s", len(lines), r)
	}
	pen := lines[0]
	if *pen.P != total.ID || pen.Args[0][0] != "item" || !strings.Contains(pen.Args[0][1], `{name="pen", qty=2, price=1.5}`) {
		t.Fatalf("the first lineTotal: %+v", pen)
	}
	if got := r.returned(pen.ID); got != "3.0" {
		t.Fatalf("lineTotal(pen) returned %s, want 3.0", got)
	}
	// countdown's loop jumps back to its first instruction: no new call.
	countdown := r.one("Orders.countdown")
	if fmt.Sprint(countdown.Args) != "[[n 7]]" || r.returned(countdown.ID) != "0" {
		t.Fatalf("countdown: %+v", countdown)
	}
	check := r.one("Orders.check")
	if check.Args[0][1] != "[2, 1, 4]" {
		t.Fatalf("check's argument: %+v", check.Args)
	}
	for _, e := range r.events {
		if e.K == "call" && (strings.HasPrefix(e.Fn, "java.") || strings.HasPrefix(e.Fn, "jdk.")) {
			t.Fatalf("a JDK call was recorded: %+v", e)
		}
	}
}

// TestRecordJavaSwallowedAndRethrownException: a NumberFormatException
// thrown inside the JDK reaches parseQty, which catches it and throws an
// IllegalArgumentException that leaves parseQty (unwind) and is caught in
// safeQty, which returns 0.
func TestRecordJavaSwallowedAndRethrownException(t *testing.T) {
	r := record(t, adapter.RecordConfig{Args: []string{"7"}})
	parse := r.one("Orders.parseQty")
	safe := r.one("Orders.safeQty")
	if parse.Args[0][1] != `"3x"` {
		t.Fatalf("parseQty's argument: %+v", parse.Args)
	}
	want := []string{
		`exc NumberFormatException line 28 raised=false`,
		`catch NumberFormatException line 29`,
		`exc IllegalArgumentException line 30 raised=true msg="bad quantity 3x"`,
		`unwind IllegalArgumentException line 30`,
	}
	if got := r.exceptionTrail(parse.ID); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parseQty's exceptions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantSafe := []string{
		`exc IllegalArgumentException line 36 raised=false msg="bad quantity 3x"`,
		`catch IllegalArgumentException line 37`,
	}
	if got := r.exceptionTrail(safe.ID); strings.Join(got, "\n") != strings.Join(wantSafe, "\n") {
		t.Fatalf("safeQty's exceptions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantSafe, "\n"))
	}
	if len(r.of("ret", parse.ID)) != 0 {
		t.Fatalf("parseQty, left by an exception, has a ret:\n%s", r)
	}
	if got := r.returned(safe.ID); got != "0" {
		t.Fatalf("safeQty returned %s, want 0", got)
	}
}

// exceptionTrail shows call id's exc, catch and unwind events in order,
// with the exception's simple type name.
func (r *recording) exceptionTrail(id int) []string {
	var out []string
	for _, e := range r.events {
		if e.ID != id || (e.K != "exc" && e.K != "catch" && e.K != "unwind") {
			continue
		}
		s := fmt.Sprintf("%s %s line %d", e.K, simpleName(e.Type), e.Line)
		if e.Raised != nil {
			s += fmt.Sprintf(" raised=%v", *e.Raised)
		}
		if e.Msg != nil && !strings.HasPrefix(*e.Msg, "For input") {
			s += fmt.Sprintf(" msg=%q", *e.Msg)
		}
		out = append(out, s)
	}
	return out
}

// TestRecordJavaUncaughtExceptionEndsTheRun: check throws an exception
// nothing catches: it unwinds check and main, and the end event names it
// with the exit code 1.
func TestRecordJavaUncaughtExceptionEndsTheRun(t *testing.T) {
	r := record(t, adapter.RecordConfig{})
	check := r.one("Orders.check")
	main := r.one("Orders.main")
	if fmt.Sprint(main.Args) != "[[args []]]" {
		t.Fatalf("main's arguments: %q", main.Args)
	}
	if got := r.exceptionTrail(check.ID); len(got) != 2 || got[1] != "unwind IllegalStateException line 56" {
		t.Fatalf("check's exceptions: %q", got)
	}
	if got := r.exceptionTrail(main.ID); len(got) != 2 || got[1] != "unwind IllegalStateException line 66" {
		t.Fatalf("main's exceptions: %q", got)
	}
	end := r.events[len(r.events)-1]
	if end.K != "end" || *end.Exit != 1 || end.Type != "java.lang.IllegalStateException" || *end.Msg != "negative count -2" {
		t.Fatalf("end: %+v", end)
	}
}

// TestRecordJavaLinesSetEventsNameTheSettingLine: for a method named in
// lines, each executed line is there and each change of a local names
// the line that made it: sum becomes 3.0, then 15.25, at line 21.
func TestRecordJavaLinesSetEventsNameTheSettingLine(t *testing.T) {
	r := record(t, adapter.RecordConfig{Args: []string{"7"}, Lines: []string{"Orders.total"}})
	total := r.one("Orders.total")
	var sums []string
	for _, s := range r.of("set", total.ID) {
		if s.N == "sum" {
			sums = append(sums, fmt.Sprintf("%s@%d", *s.V, s.Line))
		}
	}
	if got := strings.Join(sums, " "); got != "0.0@19 3.0@21 15.25@21" {
		t.Fatalf("sum's history %q, want 0.0@19 3.0@21 15.25@21; recording:\n%s", got, r)
	}
	var lines []int
	for _, l := range r.of("line", total.ID) {
		lines = append(lines, l.Line)
	}
	if fmt.Sprint(lines) != "[19 20 21 20 21 20 23]" {
		t.Fatalf("total's lines %v", lines)
	}
	if len(r.of("line", r.one("Orders.main").ID)) != 0 {
		t.Fatal("main, not named in lines, has line events")
	}
}

// TestRecordJavaGapPastMaxEvents: past maxEvents the recording keeps its
// start, a gap event that counts what was dropped, the last events and
// the end.
func TestRecordJavaGapPastMaxEvents(t *testing.T) {
	r := record(t, adapter.RecordConfig{Args: []string{"500"}, MaxEvents: 100})
	var gaps []recorded
	for _, e := range r.events {
		if e.K == "gap" {
			gaps = append(gaps, e)
		}
	}
	if len(gaps) != 1 || len(r.events) != 100+10+2 {
		t.Fatalf("%d events, gaps %+v; want 100 written, a gap, a ring of 10 and the end", len(r.events), gaps)
	}
	g := gaps[0]
	n, _ := g.N.(float64)
	// 500 calls of square make 1000 events, with 25 before them.
	if n < 900 || g.First == 0 || g.Last <= g.First {
		t.Fatalf("gap %+v", g)
	}
	if r.events[0].K != "start" || r.events[len(r.events)-1].K != "end" {
		t.Fatalf("start and end must be kept:\n%s", r)
	}
}

// TestRecordJavaClassFileAndMainClass: a compiled package is recorded
// when the program is its main class's file and when it is the class's
// name run from the class directory; calls across its classes are there
// with their arguments, and Include makes its sources the calls' files.
func TestRecordJavaClassFileAndMainClass(t *testing.T) {
	javac := testenv.RequireTool(t, "scripts/install-adapters.sh java", "javac")
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "java", "src")
	classes := t.TempDir()
	out, err := exec.Command(javac, "-g", "-d", classes,
		filepath.Join(src, "com", "example", "App.java"), filepath.Join(src, "com", "example", "Scale.java"), filepath.Join(src, "com", "example", "Point.java")).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	for _, cfg := range []adapter.RecordConfig{
		{Program: filepath.Join(classes, "com", "example", "App.class"), Include: []string{src}},
		{Program: "com.example.App", Cwd: classes},
	} {
		r := record(t, cfg)
		if r.result.ExitCode != 5 || *r.events[len(r.events)-1].Exit != 5 {
			t.Fatalf("%s: exit %d, want 5", cfg.Program, r.result.ExitCode)
		}
		weighs := r.calls("com.example.Scale.weigh")
		if len(weighs) != 5 || fmt.Sprint(weighs[0].Args) != "[[item 3] [factor 10]]" || r.returned(weighs[0].ID) != "30" {
			t.Fatalf("%s: weigh calls %+v", cfg.Program, weighs)
		}
		if *weighs[0].P != r.one("com.example.App.main").ID {
			t.Fatalf("%s: weigh's caller %d is not main", cfg.Program, *weighs[0].P)
		}
		if cfg.Include != nil && weighs[0].File != filepath.Join(src, "com", "example", "Scale.java") {
			t.Fatalf("weigh's file %q", weighs[0].File)
		}
	}
}

// junitConsole is where Debian's junit5 package puts the JUnit console
// launcher, which holds the Jupiter API the tests compile against.
const junitConsole = "/usr/share/java/junit-platform-console-standalone.jar"

// builtMavenProject copies testdata/java/maven to a temp dir and builds it
// as Maven leaves it: target/classes, target/test-classes and the
// dependency's jar in target/dependency.
func builtMavenProject(t *testing.T) string {
	t.Helper()
	javac := testenv.RequireTool(t, "scripts/install-adapters.sh java", "javac")
	jar := testenv.RequireTool(t, "scripts/install-adapters.sh java", "jar")
	if _, err := os.Stat(junitConsole); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s missing: apt-get install -y junit5", junitConsole)
		}
		t.Skipf("%s missing: apt-get install -y junit5", junitConsole)
	}
	_, file, _, _ := runtime.Caller(0)
	javaData := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "java")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join(javaData, "maven"))); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	depClasses := t.TempDir()
	run(javac, "-g", "-d", depClasses, filepath.Join(javaData, "maven-dep", "com", "example", "pricing", "Rates.java"))
	depJar := filepath.Join(root, "target", "dependency", "pricing-1.0.jar")
	if err := os.MkdirAll(filepath.Dir(depJar), 0o755); err != nil {
		t.Fatal(err)
	}
	run(jar, "--create", "--file", depJar, "-C", depClasses, ".")
	classes := filepath.Join(root, "target", "classes")
	run(javac, "-g", "-d", classes, "-cp", depJar, filepath.Join(root, "src", "main", "java", "com", "example", "shop", "Checkout.java"))
	tests, _ := filepath.Glob(filepath.Join(root, "src", "test", "java", "com", "example", "shop", "*.java"))
	run(javac, append([]string{"-g", "-d", filepath.Join(root, "target", "test-classes"), "-cp", strings.Join([]string{classes, depJar, junitConsole}, ":")}, tests...)...)
	return root
}

// TestRecordJavaJUnitFailingTest: a JUnit class recorded as debug_test
// runs it has a test event per test, the failing one with JUnit's
// message; the failing test's calls into the project's code are there
// with their values, the dependency's are not, and the assertion's
// exception unwinds the test method at the assertion's line.
func TestRecordJavaJUnitFailingTest(t *testing.T) {
	root := builtMavenProject(t)
	testFile := filepath.Join(root, "src", "test", "java", "com", "example", "shop", "CheckoutTest.java")
	r := record(t, adapter.RecordConfig{Program: testFile, Test: &adapter.TestRequest{Path: testFile}})
	if r.result.Runner != "junit" || r.result.ExitCode != 1 {
		t.Fatalf("runner %q exit %d, want junit 1", r.result.Runner, r.result.ExitCode)
	}
	var tests []string
	for _, e := range r.events {
		if e.K != "test" {
			continue
		}
		s := e.Name + " " + e.Outcome
		if e.Msg != nil {
			s += ": " + *e.Msg
		}
		tests = append(tests, s)
	}
	// JUnit runs a class's tests in an order of its own.
	slices.Sort(tests)
	want := []string{
		"CheckoutTest.taxesOnePrice passed",
		"CheckoutTest.taxesTwoPrices failed: two prices with tax ==> expected: <400> but was: <420>",
	}
	if strings.Join(tests, "\n") != strings.Join(want, "\n") {
		t.Fatalf("test events:\n%s\nwant:\n%s", strings.Join(tests, "\n"), strings.Join(want, "\n"))
	}
	failing := r.one("com.example.shop.CheckoutTest.taxesTwoPrices")
	var total recorded
	for _, c := range r.calls("com.example.shop.Checkout.total") {
		if *c.P == failing.ID {
			total = c
		}
	}
	if fmt.Sprint(total.Args) != "[[prices [100, 250]]]" || r.returned(total.ID) != "420" {
		t.Fatalf("total under the failing test: %+v", total)
	}
	if len(r.calls("com.example.pricing.Rates.withTax")) != 0 {
		t.Fatal("the dependency jar's Rates.withTax was recorded")
	}
	if got := r.exceptionTrail(failing.ID); len(got) != 2 || got[1] != "unwind AssertionFailedError line 17" {
		t.Fatalf("the failing test's exceptions: %q", got)
	}
}
